#include "accounts/failure_limiter.hpp"

#include <algorithm>
#include <iterator>

namespace quarto::server::accounts {

std::chrono::seconds failure_limiter::retry_after(std::string_view key, clock::time_point now) const
{
    const auto it = index_.find(key);
    if (it == index_.end()) return std::chrono::seconds{0};
    const entry& e = *it->second;
    if (e.failures < options_.max_failures || ended(e, now)) return std::chrono::seconds{0};
    const auto left = std::chrono::ceil<std::chrono::seconds>(e.opened + options_.window - now);
    return std::max(left, std::chrono::seconds{1});
}

void failure_limiter::fail(std::string_view key, clock::time_point now)
{
    if (const auto it = index_.find(key); it != index_.end()) {
        entry& e = *it->second;
        if (ended(e, now)) { // a new window, now the newest
            e.opened = now;
            e.failures = 0;
            order_.splice(order_.end(), order_, it->second);
        }
        ++e.failures;
        return;
    }
    // Ended windows go first; then, at the cap, the oldest one still open.
    while (!order_.empty() && (ended(order_.front(), now) || order_.size() >= options_.max_keys)) {
        index_.erase(order_.front().key);
        order_.pop_front();
    }
    if (options_.max_keys == 0) return;
    order_.push_back(entry{std::string{key}, now, 1});
    index_.emplace(order_.back().key, std::prev(order_.end()));
}

void failure_limiter::forget(std::string_view key)
{
    const auto it = index_.find(key);
    if (it == index_.end()) return;
    const auto where = it->second;
    index_.erase(it);
    order_.erase(where);
}

} // namespace quarto::server::accounts
