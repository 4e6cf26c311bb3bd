// Every tournament's views by id, in creation order, for whoever lists or shows tournaments
// from any thread (list_tournaments on every shard, GET /api/tournaments). The tournaments
// themselves live on their shards; a tournament is added here when it is created or loaded,
// never per message.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "tournaments/tournament_views.hpp"

namespace quarto::server::shards {

class tournament_directory {
public:
    void add(const std::string& id, std::shared_ptr<tournaments::tournament_views> views)
    {
        std::lock_guard lock{mutex_};
        if (views_.emplace(id, std::move(views)).second) order_.push_back(id);
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
    // As list_tournaments shows them, newest first.
    std::vector<nlohmann::json> summaries() const
    {
        std::vector<std::shared_ptr<tournaments::tournament_views>> all;
        {
            std::lock_guard lock{mutex_};
            for (auto it = order_.rbegin(); it != order_.rend(); ++it) all.push_back(views_.at(*it));
        }
        std::vector<nlohmann::json> out;
        out.reserve(all.size());
        for (const auto& v : all) out.push_back(v->summary());
        return out;
    }

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<tournaments::tournament_views>> views_;
    std::vector<std::string> order_; // creation order
};

} // namespace quarto::server::shards
