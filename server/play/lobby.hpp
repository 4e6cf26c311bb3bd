// The lobby's view of one shard's rooms: what `list_rooms` and GET /api/rooms show. Rooms
// (on their shard's thread) tell it when what the lobby shows changes (a seat taken, a game
// started or over, a spectator more or less), which happens a few times a game, not per move;
// a reader on any thread builds the texts it needs then, and keeps them until the room changes
// again. One mutex per shard: a reader and the shard meet only here.
#pragma once

#include <array>
#include <chrono>
#include <span>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::play {

// What the lobby shows of a room that changes.
struct lobby_state {
    model::room_status status = model::room_status::waiting;
    std::array<std::optional<model::player_info>, 2> seats;
    int spectators = 0;
    // Whether each seat's player has a connection to the room (the computer always has one).
    std::array<bool, 2> connected{true, true};
    friend bool operator==(const lobby_state&, const lobby_state&) = default;
    // Waiting, and its one seated player has no connection: a game there would start against
    // nobody, so the lobby shows it without offering it (summary `host_away`).
    bool host_away() const;
};

// What does not change.
struct lobby_listing {
    model::room_id id;
    std::string name;
    rules game_rules;
    clock_settings clock;
    bool is_private = false;
    std::string tournament; // empty if none
    // A room where a person plays the computer: never listed while a seat is free (nobody comes
    // to the lobby to sit down opposite another person's practice partner).
    bool computer = false;
    bool rated = false;
};

class lobby_board {
public:
    // A public room's place in the lobby's order: rooms with a free seat and their player here
    // first, then games in progress, then waiting rooms whose player has gone, then finished
    // ones; the newest first within each.
    struct place_in_list {
        int status_rank;
        std::chrono::steady_clock::time_point added;
        model::room_id id;
        std::size_t board; // which of the boards paged together holds it
        bool operator<(const place_in_list& o) const
        {
            if (status_rank != o.status_rank) return status_rank < o.status_rank;
            if (added != o.added) return added > o.added;
            return id < o.id;
        }
    };

    void add(lobby_listing listing, lobby_state state);
    void update(const model::room_id& id, const lobby_state& state);
    void remove(const model::room_id& id);
    // Appends the places of the public rooms, marked as board `board`.
    void public_places(std::vector<place_in_list>& out, std::size_t board) const;
    // The summary (protocol::room_summary) of a public room; empty if it has gone meanwhile.
    std::string public_summary(const model::room_id& id) const;
    // The summary of any room, private ones too (whoever has a room's id may join it, so may
    // see what they would join); empty if there is no such room here.
    std::string summary(const model::room_id& id) const;
    std::size_t size() const;

    // What other nodes of a cluster are told of a room: its place in the lobby's order, whether
    // it is listed, and its summary. Nullopt if there is no such room here.
    struct published {
        int status_rank;
        std::chrono::steady_clock::time_point added;
        bool listed; // public, and not a free seat opposite the computer
        std::string summary;
    };
    std::optional<published> publication(const model::room_id& id) const;

private:
    struct entry {
        lobby_listing listing;
        lobby_state state;
        std::chrono::steady_clock::time_point added;
        mutable std::string summary; // empty when stale
        const std::string& summary_text() const;
    };
    mutable std::mutex mutex_;
    std::unordered_map<model::room_id, entry> rooms_;
};

// The rooms of the other nodes of a cluster, as they published them (lobby_board::publication),
// replaced whole about once a second; read from any thread.
class remote_lobby {
public:
    struct room {
        model::room_id id;
        int status_rank = 0;
        std::chrono::steady_clock::time_point added; // on this node's clock
        bool listed = false;
        std::string summary;
    };
    void replace(std::vector<room> rooms);
    void public_places(std::vector<lobby_board::place_in_list>& out, std::size_t board) const;
    // Any room's summary, private ones too; empty when unknown.
    std::string summary(const model::room_id& id) const;
    std::size_t size() const;

private:
    mutable std::mutex mutex_;
    std::unordered_map<model::room_id, room> rooms_;
};

// The `rooms` message for one page of the public rooms of every board (every shard's), and of
// the other nodes' when `others` is given.
std::string rooms_page(std::span<const lobby_board* const> boards, const protocol::page_request& page,
                       const nlohmann::json& req, const remote_lobby* others = nullptr);

} // namespace quarto::server::play
