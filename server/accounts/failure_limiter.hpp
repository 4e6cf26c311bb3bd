// Failures counted per key (a client address, an account's name) in a window that opens at the
// key's first failure: past `max_failures` within it, the key is refused until the window ends,
// and told how long that is. Pure, like net::rate_limiter: the caller passes the time and owns
// the limiter on one thread. Memory is bounded: ended windows are forgotten as new failures
// come, and past `max_keys` the key whose window opened first is forgotten to make room.
// (net::rate_limiter is a token bucket for one connection and net::address_limiter counts what
// is held, with no time: neither keeps a window per key.)
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

namespace quarto::server::accounts {

class failure_limiter {
public:
    using clock = std::chrono::steady_clock;

    struct options {
        std::size_t max_failures = 10;
        clock::duration window = std::chrono::minutes{10};
        // Keys remembered at once. Filling it takes as many failures as it has keys, which the
        // per-address limiter spreads over as many addresses.
        std::size_t max_keys = 100'000;
    };

    explicit failure_limiter(options o) : options_{o} {}

    // Zero when `key` may try at `now`; otherwise the whole seconds (rounded up, at least 1)
    // until its window ends.
    std::chrono::seconds retry_after(std::string_view key, clock::time_point now) const;
    // Counts one failure of `key` at `now`.
    void fail(std::string_view key, clock::time_point now);
    // Forgets `key`'s failures (a success).
    void forget(std::string_view key);

    std::size_t keys() const { return order_.size(); }

private:
    struct entry {
        std::string key;
        clock::time_point opened; // the window's start: the first failure in it
        std::size_t failures = 0;
    };
    // Heterogeneous lookup: a string_view finds a key without making a string.
    struct key_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
    };

    bool ended(const entry& e, clock::time_point now) const { return now - e.opened >= options_.window; }

    const options options_;
    // Oldest window first. Each map key views its entry's string (a list's nodes never move).
    std::list<entry> order_;
    std::unordered_map<std::string_view, std::list<entry>::iterator, key_hash, std::equal_to<>> index_;
};

} // namespace quarto::server::accounts
