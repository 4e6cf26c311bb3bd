// The live WebSocket sessions, so that shutdown can tell each one the server is going away.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace quarto::server {

class ws_session;

class session_tracker {
public:
    void add(const std::shared_ptr<ws_session>& s)
    {
        std::lock_guard lock{mutex_};
        sessions_.emplace(s.get(), s);
    }
    void remove(const ws_session* s)
    {
        std::lock_guard lock{mutex_};
        sessions_.erase(s);
    }
    std::size_t size() const
    {
        std::lock_guard lock{mutex_};
        return sessions_.size();
    }
    std::vector<std::shared_ptr<ws_session>> live() const
    {
        std::vector<std::weak_ptr<ws_session>> all;
        {
            std::lock_guard lock{mutex_};
            for (const auto& [raw, weak] : sessions_) all.push_back(weak);
        }
        std::vector<std::shared_ptr<ws_session>> result;
        for (auto& weak : all)
            if (auto s = weak.lock()) result.push_back(std::move(s));
        return result;
    }

private:
    mutable std::mutex mutex_;
    std::unordered_map<const ws_session*, std::weak_ptr<ws_session>> sessions_;
};

} // namespace quarto::server
