// One thread's event loop, on epoll: the sockets registered with it, its timers (a
// timer_queue) and wake-ups from other threads (an eventfd). Each pass of the loop is a turn:
// it takes every ready descriptor (level-triggered, up to a batch), the timers due, then lets
// its owner finish the turn (write what the turn queued, send messages to other loops) before
// it waits again. Single-threaded: only wake() and stop() may be called from other threads.
//
// Asio's reactor, which the server used before, reads a socket once more after every message
// (a speculative read that fails with EAGAIN) or re-arms it with epoll_ctl; a level-triggered
// epoll read once per readiness does neither.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "net/timer_queue.hpp"

namespace quarto::server::net {

class event_loop {
public:
    using clock = std::chrono::steady_clock;

    // What a registered descriptor's owner is told.
    class handler {
    public:
        // `ready`: EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP, EPOLLRDHUP as epoll reported them.
        virtual void on_ready(std::uint32_t ready) = 0;

    protected:
        ~handler() = default;
    };

    // The owner of the loop: called on the loop's thread.
    class owner {
    public:
        // Another thread called wake().
        virtual void on_wake() = 0;
        // The turn is over: write what it queued, pass on what it has for other loops.
        virtual void end_of_turn() = 0;
        // After call_when_idle(): the loop has found nothing ready and is about to wait.
        virtual void on_idle() {}

    protected:
        ~owner() = default;
    };

    event_loop();
    ~event_loop();
    event_loop(const event_loop&) = delete;
    event_loop& operator=(const event_loop&) = delete;

    // Registration (level-triggered). False, with errno set, when epoll refuses.
    bool add(int fd, handler& h, std::uint32_t events);
    bool modify(int fd, handler& h, std::uint32_t events);
    void remove(int fd);

    timer_queue& timers() { return timers_; }
    // When the running turn began: one clock read serves every event of the turn.
    clock::time_point turn_time() const { return turn_time_; }
    // Reads the clock again, for work done before the loop runs (restoring rooms at startup).
    void refresh_turn_time() { turn_time_ = clock::now(); }

    // Runs turns until stop().
    void run(owner& o);
    // The owner's on_idle() runs once, the next time the loop is about to wait with nothing
    // ready (found by one more epoll_wait that does not wait).
    void call_when_idle() { idle_wanted_ = true; }
    // From any thread: the owner's on_wake() runs at the next turn.
    void wake();
    // From any thread: run() returns after the turn in progress.
    void stop();

private:
    // The wake-up descriptor's own handler: reads the eventfd, then tells the owner.
    struct wake_handler final : handler {
        explicit wake_handler(event_loop& l) : loop{l} {}
        void on_ready(std::uint32_t) override;
        event_loop& loop;
        owner* to_tell = nullptr;
    };

    int epoll_fd_ = -1;
    int wake_fd_ = -1;
    wake_handler waker_{*this};
    timer_queue timers_;
    clock::time_point turn_time_ = clock::now();
    std::atomic<bool> stopping_{false};
    bool idle_wanted_ = false;
};

} // namespace quarto::server::net
