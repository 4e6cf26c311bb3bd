// The timers of one event loop (the rooms' move clocks and claim windows, tournaments' start
// times) on a heap, driven by the loop's single steady_timer. A move re-arms its room's
// deadline later than before, which only records the new time: the heap entry fires at the
// old time and is pushed again for the new one. So a move costs no heap operation, and no
// cancellation or handler in Asio.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

namespace quarto::server::net {

class timer_queue {
public:
    using clock = std::chrono::steady_clock;
    using id = std::uint32_t;

    // A timer that calls `fire` when due; disarmed until set().
    id add(std::function<void()> fire);
    void remove(id t);
    // (Re)arms the timer for `at`, replacing its earlier time.
    void set(id t, clock::time_point at);
    void cancel(id t);

    // The earliest time an entry is due (it may be stale), if any.
    std::optional<clock::time_point> next() const;
    // Fires every timer due at `now`.
    void run_due(clock::time_point now);
    std::size_t size() const { return live_; }

private:
    struct timer {
        std::function<void()> fire;
        clock::time_point wanted;    // when it should fire
        clock::time_point queued_at; // the time of its current heap entry
        std::uint32_t generation = 0; // bumped when an entry for it goes stale
        bool armed = false;
        bool queued = false; // an entry of this generation is on the heap
    };
    struct entry {
        clock::time_point at;
        id timer;
        std::uint32_t generation;
        bool operator>(const entry& other) const { return at > other.at; }
    };
    void push(id t, clock::time_point at);

    std::vector<timer> timers_;
    std::vector<id> free_;
    std::priority_queue<entry, std::vector<entry>, std::greater<>> heap_;
    std::size_t live_ = 0;
};

} // namespace quarto::server::net
