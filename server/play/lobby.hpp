// The lobby's view of one shard's rooms: what `list_rooms` and GET /api/rooms show. Rooms
// (on their shard's thread) tell it when what the lobby shows changes (a seat taken, a game
// started or over, a spectator more or less), which happens a few times a game, not per move;
// a reader on any thread builds the texts it needs then, and keeps them until the room changes
// again. One mutex per shard: a reader and the shard meet only here.
#pragma once

#include <array>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "quarto/protocol/encode.hpp"

namespace quarto::server::play {

// What the lobby shows of a room that changes.
struct lobby_state {
    protocol::room_status status = protocol::room_status::waiting;
    std::array<std::optional<protocol::player_info>, 2> seats;
    int spectators = 0;
    friend bool operator==(const lobby_state&, const lobby_state&) = default;
};

// What does not change.
struct lobby_listing {
    protocol::room_id id;
    std::string name;
    rules game_rules;
    clock_settings clock;
    bool is_private = false;
    std::string tournament; // empty if none
};

class lobby_board {
public:
    void add(lobby_listing listing, lobby_state state);
    void update(const protocol::room_id& id, const lobby_state& state);
    void remove(const protocol::room_id& id);
    // Appends the summaries (protocol::room_summary) of the public rooms.
    void public_summaries(std::vector<std::string>& out) const;
    std::size_t size() const;

private:
    struct entry {
        lobby_listing listing;
        lobby_state state;
        mutable std::string summary; // empty when stale
    };
    mutable std::mutex mutex_;
    std::unordered_map<protocol::room_id, entry> rooms_;
};

} // namespace quarto::server::play
