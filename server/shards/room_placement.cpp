#include "shards/room_placement.hpp"

#include <mutex>

namespace quarto::server::shards {

std::optional<std::uint16_t> room_placement::find(std::string_view room) const
{
    // Relaxed: a room is listed before it is restored, and restored before any client can
    // reach it (the listener opens after, or the restoring task's post orders it).
    if (count_.load(std::memory_order_relaxed) == 0) return std::nullopt;
    std::shared_lock lock{mutex_};
    const auto it = rooms_.find(room);
    if (it == rooms_.end()) return std::nullopt;
    return it->second;
}

void room_placement::place(const std::string& room, std::uint16_t shard)
{
    std::unique_lock lock{mutex_};
    rooms_[room] = shard;
    count_.store(rooms_.size(), std::memory_order_relaxed);
}

void room_placement::forget(std::string_view room)
{
    if (count_.load(std::memory_order_relaxed) == 0) return;
    std::unique_lock lock{mutex_};
    if (const auto it = rooms_.find(room); it != rooms_.end()) rooms_.erase(it);
    count_.store(rooms_.size(), std::memory_order_relaxed);
}

} // namespace quarto::server::shards
