#include "room_registry.hpp"

#include <spdlog/spdlog.h>

#include "random_ids.hpp"

namespace quarto::server {

std::shared_ptr<room> room_registry::create(room_settings settings, const connection_ptr& creator_connection,
                                            const room::player_ptr& creator)
{
    std::lock_guard lock{mutex_};
    protocol::room_id id;
    do id = new_short_id(); while (rooms_.contains(id));
    auto r = std::make_shared<room>(ioc_, id, std::move(settings), context_);
    r->seat_creator(creator_connection, creator);
    rooms_.emplace(id, r);
    return r;
}

std::shared_ptr<room> room_registry::create_seated(room_settings settings, const room::player_ptr& first_seat,
                                                   const room::player_ptr& second_seat)
{
    std::lock_guard lock{mutex_};
    protocol::room_id id;
    do id = new_short_id(); while (rooms_.contains(id));
    auto r = std::make_shared<room>(ioc_, id, std::move(settings), context_);
    r->seat_pair(first_seat, second_seat);
    rooms_.emplace(id, r);
    return r;
}

std::shared_ptr<room> room_registry::find(const protocol::room_id& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second;
}

void room_registry::remove(const protocol::room_id& id)
{
    std::lock_guard lock{mutex_};
    rooms_.erase(id);
}

std::vector<nlohmann::json> room_registry::list_public() const
{
    std::vector<std::shared_ptr<room>> rooms;
    {
        std::lock_guard lock{mutex_};
        rooms.reserve(rooms_.size());
        for (const auto& [id, r] : rooms_)
            if (!r->is_private()) rooms.push_back(r);
    }
    std::vector<nlohmann::json> summaries;
    summaries.reserve(rooms.size());
    for (const auto& r : rooms) summaries.push_back(r->summary());
    return summaries;
}

void room_registry::sweep(std::chrono::seconds idle) const
{
    std::lock_guard lock{mutex_};
    for (const auto& [id, r] : rooms_) r->reclaim_if_idle(idle);
}

std::size_t room_registry::size() const
{
    std::lock_guard lock{mutex_};
    return rooms_.size();
}

void room_registry::release_connections()
{
    std::lock_guard lock{mutex_};
    for (auto& [id, r] : rooms_) r->release_connections();
}

} // namespace quarto::server
