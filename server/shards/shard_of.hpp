// Which shard owns a room or a tournament: its id's hash, modulo the number of shards. Any
// thread can tell where to send a message for a room without asking anyone; ids are drawn so
// that a new room lands on its creator's shard. FNV-1a: the same on every build and restart.
// The exception, a tournament's game room restored under another shard count, is listed in
// room_placement.hpp; route with server_state's shard_of_room, shard_of_place.
#pragma once

#include <cstdint>
#include <string_view>

namespace quarto::server::shards {

inline std::uint16_t shard_of(std::string_view id, std::size_t shard_count)
{
    std::uint32_t hash = 2166136261u;
    for (const char c : id) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    return static_cast<std::uint16_t>(hash % shard_count);
}

} // namespace quarto::server::shards
