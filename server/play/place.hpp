// Somewhere a client receives events from: a room or a tournament, by id. Rooms and
// tournaments live on the shard their id hashes to (shards/shard_of.hpp), but for a few
// restored rooms (shards/room_placement.hpp): server_state::shard_of_place says which.
#pragma once

#include <cstdint>
#include <string>

namespace quarto::server::play {

struct place {
    enum class kind : std::uint8_t { room, tournament };
    kind what = kind::room;
    std::string id;
    friend bool operator==(const place&, const place&) = default;
};

} // namespace quarto::server::play
