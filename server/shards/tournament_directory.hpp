// Every tournament's views by id, in creation order, for whoever lists or shows tournaments
// from any thread (list_tournaments on every shard, GET /api/tournaments). The tournaments
// themselves live on their shards; a tournament is added here when it is created or loaded,
// never per message.
#pragma once

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "quarto/protocol/messages.hpp"
#include "tournaments/tournament_views.hpp"

namespace quarto::server::shards {

class tournament_directory {
public:
    void add(const std::string& id, std::shared_ptr<tournaments::tournament_views> views)
    {
        std::lock_guard lock{mutex_};
        if (views_.emplace(id, std::move(views)).second) order_.push_back(id);
    }
    void remove(const std::string& id)
    {
        std::lock_guard lock{mutex_};
        if (views_.erase(id)) std::erase(order_, id);
    }
    bool contains(const std::string& id) const
    {
        std::lock_guard lock{mutex_};
        return views_.contains(id);
    }
    std::shared_ptr<const tournaments::tournament_views> find(const std::string& id) const
    {
        std::lock_guard lock{mutex_};
        const auto it = views_.find(id);
        return it == views_.end() ? nullptr : it->second;
    }
    // One page as list_tournaments shows them, newest first; `total` is how many there are.
    std::vector<nlohmann::json> summaries(const protocol::page_request& page, std::size_t& total) const
    {
        std::vector<std::shared_ptr<tournaments::tournament_views>> shown;
        {
            std::lock_guard lock{mutex_};
            total = order_.size();
            const std::size_t skip = std::min(total, static_cast<std::size_t>(page.offset));
            const std::size_t count = std::min(total - skip, static_cast<std::size_t>(page.limit));
            for (std::size_t i = 0; i < count; ++i) shown.push_back(views_.at(order_[total - 1 - skip - i]));
        }
        std::vector<nlohmann::json> out;
        out.reserve(shown.size());
        for (const auto& v : shown) out.push_back(v->summary());
        return out;
    }

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<tournaments::tournament_views>> views_;
    std::vector<std::string> order_; // creation order
};

} // namespace quarto::server::shards
