// Counts what each client address (or other key) holds, so that an optional cap can refuse
// more: open connections per address, rooms per address, tournaments per address or per
// director. The holder keeps a ticket for as long as it holds the thing (a connection for its
// whole life, HTTP then WebSocket); dropping it counts down.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace quarto::server::net {

class address_limiter : public std::enable_shared_from_this<address_limiter> {
public:
    using ticket = std::shared_ptr<void>;

    explicit address_limiter(std::size_t cap) : cap_{cap} {}

    // A ticket for one more from `address`, or null when the cap is reached (`even_over_cap`:
    // counted all the same, for what was held before a restart). With no cap, no counting.
    ticket admit(const std::string& address, bool even_over_cap = false)
    {
        if (cap_ == 0) return std::make_shared<int>(0);
        std::lock_guard lock{mutex_};
        auto& open = open_[address];
        if (open >= cap_ && !even_over_cap) return nullptr;
        ++open;
        // A real object, not a null pointer with a deleter: callers test the ticket for null.
        return std::make_shared<slot>(shared_from_this(), address);
    }

private:
    struct slot {
        slot(std::shared_ptr<address_limiter> owner, std::string address) : owner_{std::move(owner)}, address_{std::move(address)} {}
        ~slot() { owner_->release(address_); }
        slot(const slot&) = delete;
        slot& operator=(const slot&) = delete;
        std::shared_ptr<address_limiter> owner_;
        std::string address_;
    };

    void release(const std::string& address)
    {
        std::lock_guard lock{mutex_};
        if (const auto it = open_.find(address); it != open_.end() && --it->second == 0) open_.erase(it);
    }

    const std::size_t cap_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::size_t> open_;
};

} // namespace quarto::server::net
