#include "net/timer_queue.hpp"

namespace quarto::server::net {

timer_queue::id timer_queue::add(std::function<void()> fire)
{
    ++live_;
    if (!free_.empty()) {
        const id t = free_.back();
        free_.pop_back();
        timers_[t].fire = std::move(fire);
        return t;
    }
    timers_.push_back(timer{std::move(fire), {}, {}, 0, false, false});
    return static_cast<id>(timers_.size() - 1);
}

void timer_queue::remove(id t)
{
    timer& x = timers_[t];
    x.fire = nullptr;
    x.armed = false;
    x.queued = false;
    ++x.generation; // its entry, if any, is stale
    free_.push_back(t);
    --live_;
}

void timer_queue::push(id t, clock::time_point at)
{
    timer& x = timers_[t];
    ++x.generation;
    x.queued = true;
    x.queued_at = at;
    heap_.push({at, t, x.generation});
}

void timer_queue::set(id t, clock::time_point at)
{
    timer& x = timers_[t];
    x.wanted = at;
    x.armed = true;
    // An entry queued for this time or earlier serves: when it comes up, it is pushed again
    // for the time wanted then.
    if (!x.queued || at < x.queued_at) push(t, at);
}

void timer_queue::cancel(id t) { timers_[t].armed = false; }

std::optional<timer_queue::clock::time_point> timer_queue::next() const
{
    if (heap_.empty()) return std::nullopt;
    return heap_.top().at;
}

void timer_queue::run_due(clock::time_point now)
{
    while (!heap_.empty() && heap_.top().at <= now) {
        const entry e = heap_.top();
        heap_.pop();
        timer& x = timers_[e.timer];
        if (e.generation != x.generation) continue; // replaced by an earlier entry, or removed
        x.queued = false;
        if (!x.armed) continue;
        if (x.wanted > now) { // moved later since this entry was queued
            push(e.timer, x.wanted);
            continue;
        }
        x.armed = false;
        // Copied: the callback may remove its own timer (a room that closes when its game ends).
        const auto fire = x.fire;
        fire();
    }
}

} // namespace quarto::server::net
