// What anyone may read of a tournament from any thread (the lobby on every shard, the HTTP
// API): its lobby line and its full snapshot, replaced by the tournament after each change.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

namespace quarto::server::tournaments {

class tournament_views {
public:
    nlohmann::json summary() const
    {
        std::lock_guard lock{mutex_};
        return summary_;
    }
    std::shared_ptr<const std::string> snapshot() const
    {
        std::lock_guard lock{mutex_};
        return snapshot_;
    }
    void set(nlohmann::json summary, std::shared_ptr<const std::string> snapshot)
    {
        std::lock_guard lock{mutex_};
        summary_ = std::move(summary);
        snapshot_ = std::move(snapshot);
    }

private:
    mutable std::mutex mutex_;
    nlohmann::json summary_;
    std::shared_ptr<const std::string> snapshot_;
};

} // namespace quarto::server::tournaments
