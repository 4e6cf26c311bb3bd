// What a tournament needs from the loop it lives on: the time, its clients, a timer, the rooms
// of its games (on the same loop), and storage. The shard implements it; the tournament's unit
// tests implement it with recorded messages and a manual clock.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "metrics/metrics.hpp"
#include "net/frame.hpp"
#include "play/alarm.hpp"
#include "play/client_ref.hpp"
#include "play/place.hpp"
#include "play/player_registry.hpp"
#include "play/room.hpp"

namespace quarto::server::tournaments {

class tournament_host {
public:
    virtual ~tournament_host() = default;

    virtual instant now() const = 0;
    virtual std::int64_t unix_ms() const = 0;
    virtual void send(const play::client_ref& to, const net::frame_ptr& f) = 0;
    virtual void subscribed(const play::client_ref& c, const play::place& where) = 0;
    virtual void unsubscribed(const play::client_ref& c, const play::place& where) = 0;
    virtual std::unique_ptr<play::alarm> make_alarm(std::function<void()> on_time) = 0;
    virtual void defer(std::function<void()> task) = 0;
    virtual play::player_registry& players() = 0;
    virtual metrics::shard_counters& counters() = 0;

    // A room on this loop for one of the tournament's games: both players seated, the game
    // started.
    virtual play::room& open_game_room(play::room_settings settings, const play::player_record& first_seat,
                                       const play::player_record& second_seat) = 0;
    virtual play::room* find_room(const protocol::room_id& id) = 0;
    // The rooms on this loop that are games of `tournament` (restored from the journal).
    virtual std::vector<play::room*> rooms_of_tournament(const protocol::tournament_id& tournament) = 0;
    // Stores the tournament's state (on the archive's thread), replacing what was stored;
    // `stored` runs on this loop once the archive has it (or has failed to store it: logged).
    virtual void store(const protocol::tournament_id& id, std::string name, std::string status, std::string state,
                       std::function<void()> stored) = 0;
};

} // namespace quarto::server::tournaments
