// What a room needs from the loop it lives on, and nothing more: the time, a way to reach its
// clients, a timer, the archive and the lobby. The shard implements it; the room's unit tests
// implement it with recorded messages and a manual clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "bots/think_request.hpp"
#include "frame/frame.hpp"
#include "metrics/metrics.hpp"
#include "play/alarm.hpp"
#include "play/client_ref.hpp"
#include "play/lobby.hpp"
#include "play/place.hpp"
#include "play/player_registry.hpp"
#include "play/room_change.hpp"
#include "quarto/archive/game_record.hpp"
#include "quarto/archive/journal_batch.hpp"

namespace quarto::server::play {

class room_host {
public:
    virtual ~room_host() = default;

    // Core's time (for the game and its clocks) and the wall clock (for the archive).
    virtual instant now() const = 0;
    virtual std::int64_t unix_ms() const = 0;
    // How long a seated player may be gone from a game in progress before the opponent may
    // claim the win (--abandon-seconds).
    virtual std::chrono::milliseconds abandon_after() const { return std::chrono::seconds{30}; }

    // Queues a frame for a client, wherever it is; a client that has gone is skipped.
    virtual void send(const client_ref& to, const net::frame_ptr& f) = 0;
    // The same for a client that watches (a spectator's connection): it may wait a little to
    // share a write with the next events (see shard::watcher_delay).
    virtual void send_to_watcher(const client_ref& to, const net::frame_ptr& f) { send(to, f); }
    // The room sends its events to `c` from now on / no longer does. The client keeps the list
    // of places it is in, to leave them when it closes.
    virtual void subscribed(const client_ref& c, const place& where) = 0;
    virtual void unsubscribed(const client_ref& c, const place& where) = 0;

    // A timer on this loop.
    virtual std::unique_ptr<alarm> make_alarm(std::function<void()> on_time) = 0;
    // Runs `task` on this loop once the handler running now has returned.
    virtual void defer(std::function<void()> task) = 0;

    // A computer opponent's move, chosen off this loop (the shard's bot pool). `answer` runs on
    // this loop, never within this call, and not at all if the pool stops first. False, with
    // nothing kept, when it cannot be taken now (the queue is full): ask again a little later.
    virtual bool think(const bots::think_request& request, std::function<void(const solver::move&)> answer)
    {
        (void)request, (void)answer;
        return false;
    }

    // Stores a finished game of `room` (on the archive's own thread). A cut of the room's
    // journal made meanwhile waits until the archive has the game: the journal is what brings
    // the game back, should the process die before the archive's commit.
    virtual void archive_game(const model::room_id& room, archive::game_record record) = 0;
    // The same for a game restored finished: stored unless the archive has it already (the
    // process may have died between the game's end and its archive commit).
    virtual void archive_game_if_missing(const model::room_id& room, archive::game_record record)
    {
        archive_game(room, std::move(record));
    }
    // The journal of live rooms (archive/journal.hpp): whether rooms keep one, an entry (the
    // change, and the event that announced it), and a cut of the room's entries below
    // `below_n` (archive::journal_batch::all_entries: every one). Once a room has journaled a
    // change, what it sends waits for the entry's commit.
    virtual bool journaling() const { return false; }
    // While the journal cannot keep up (its database out of reach, half its backlog used), no new
    // game starts, so that the games in progress keep what is left of it.
    virtual bool new_games_paused() const { return false; }
    virtual void journal_append(const model::room_id& room, std::int64_t n, const room_change& change,
                                std::string_view event)
    {
        (void)room, (void)n, (void)change, (void)event;
    }
    virtual void journal_cut(const model::room_id& room, std::int64_t below_n) { (void)room, (void)below_n; }
    // What the lobby shows of the room has changed.
    virtual void lobby_changed(const model::room_id& room, const lobby_state& state) = 0;

    virtual player_registry& players() = 0;
    virtual metrics::shard_counters& counters() = 0;
};

} // namespace quarto::server::play
