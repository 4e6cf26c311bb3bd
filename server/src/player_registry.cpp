#include "player_registry.hpp"

#include <algorithm>

#include <spdlog/fmt/fmt.h>

#include "random_ids.hpp"

namespace quarto::server {

std::shared_ptr<const player_record> player_registry::create(std::string name)
{
    std::lock_guard lock{mutex_};
    std::string id;
    // fmt, not "p" + ...: GCC 12's -Wstringop-overflow misfires on string concatenation here
    // in optimized builds (GCC bug 105329).
    do id = fmt::format("p{}", new_short_id()); while (by_id_.contains(id));
    auto record = std::make_shared<const player_record>(player_record{{id, std::move(name)}, new_token()});
    id_by_token_.emplace(record->token, id);
    by_id_.emplace(id, entry{record, {}, 0, std::chrono::steady_clock::now()});
    return record;
}

std::shared_ptr<const player_record> player_registry::find_by_token(const std::string& token) const
{
    std::lock_guard lock{mutex_};
    const auto id = id_by_token_.find(token);
    if (id == id_by_token_.end()) return nullptr;
    return by_id_.at(id->second).record;
}

void player_registry::add_room(const std::string& player_id, const std::string& room_id)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    if (it == by_id_.end()) return;
    auto& rooms = it->second.rooms;
    if (std::find(rooms.begin(), rooms.end(), room_id) == rooms.end()) rooms.push_back(room_id);
}

void player_registry::remove_room(const std::string& player_id, const std::string& room_id)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    if (it == by_id_.end()) return;
    std::erase(it->second.rooms, room_id);
    it->second.last_seen = std::chrono::steady_clock::now();
}

std::vector<std::string> player_registry::rooms_of(const std::string& player_id) const
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    return it == by_id_.end() ? std::vector<std::string>{} : it->second.rooms;
}

void player_registry::connected(const std::string& player_id)
{
    std::lock_guard lock{mutex_};
    if (const auto it = by_id_.find(player_id); it != by_id_.end()) ++it->second.connections;
}

void player_registry::disconnected(const std::string& player_id)
{
    std::lock_guard lock{mutex_};
    if (const auto it = by_id_.find(player_id); it != by_id_.end()) {
        --it->second.connections;
        it->second.last_seen = std::chrono::steady_clock::now();
    }
}

std::size_t player_registry::forget_idle(std::chrono::steady_clock::time_point now, std::chrono::seconds idle)
{
    std::lock_guard lock{mutex_};
    return std::erase_if(by_id_, [&](const auto& item) {
        const entry& e = item.second;
        const bool forget = e.connections == 0 && e.rooms.empty() && now - e.last_seen >= idle;
        if (forget) id_by_token_.erase(e.record->token);
        return forget;
    });
}

std::size_t player_registry::size() const
{
    std::lock_guard lock{mutex_};
    return by_id_.size();
}

} // namespace quarto::server
