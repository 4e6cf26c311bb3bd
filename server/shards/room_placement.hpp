// The rooms that do not live on the shard their id hashes to.
//
// A tournament and the rooms of its games call each other directly, so they share a shard: a
// game room's id is drawn to hash where its tournament does (shard::new_room_id), under the
// shard count of the server that drew it. A server started with another count (--threads, or
// its default on a machine with another number of cores; a node taking over one that ran
// another count) restores such a room onto its tournament's shard, and lists it here.
//
// Every routing of a message to a room reads this. While nothing is listed (nearly always)
// that is one relaxed atomic load; otherwise a shared lock. Written only when a room is
// restored or dropped.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace quarto::server::shards {

class room_placement {
public:
    // The shard `room` was placed on, if it is listed.
    std::optional<std::uint16_t> find(std::string_view room) const;
    void place(const std::string& room, std::uint16_t shard);
    // Nothing when `room` is not listed.
    void forget(std::string_view room);
    std::size_t size() const { return count_.load(std::memory_order_relaxed); }

private:
    struct text_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    std::atomic<std::size_t> count_{0};
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string, std::uint16_t, text_hash, std::equal_to<>> rooms_;
};

} // namespace quarto::server::shards
