// What a tournament needs from the loop it lives on: what a room needs (the time, its clients, a
// timer: play/room_host.hpp), the rooms of its games (on the same loop), and storage. The shard
// implements it; the tournament's unit tests implement it with recorded messages and a manual
// clock.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "play/room.hpp"
#include "play/room_host.hpp"

namespace quarto::server::tournaments {

// A tournament's loop hosts the rooms of its games too: everything a room needs, and the rooms.
class tournament_host : public play::room_host {
public:
    // A room on this loop for one of the tournament's games: both players seated, the game
    // started.
    virtual play::room& open_game_room(play::room_settings settings, const play::player_record& first_seat,
                                       const play::player_record& second_seat) = 0;
    virtual play::room* find_room(const model::room_id& id) = 0;
    // The rooms on this loop that are games of `tournament` (restored from the journal).
    virtual std::vector<play::room*> rooms_of_tournament(const model::tournament_id& tournament) = 0;
    // Stores the tournament's state (on the archive's thread), replacing what was stored;
    // `stored` runs on this loop once the archive has it (or has failed to store it: logged).
    virtual void store(const model::tournament_id& id, std::string name, std::string status, std::string state,
                       std::function<void()> stored) = 0;
};

} // namespace quarto::server::tournaments
