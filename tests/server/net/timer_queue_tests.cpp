// timer_queue: the loop's timers on one heap, re-armed lazily; time is passed in, never read.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "net/timer_queue.hpp"
#include "net_support.hpp"

using quarto::server::net::timer_queue;
using namespace std::chrono_literals;

namespace {

using time_point = timer_queue::clock::time_point;
const time_point t0 = time_point{} + 1000h;

// A queue whose timers record their names when they fire.
struct fixture {
    timer_queue q;
    std::vector<std::string> fired;

    timer_queue::id timer(std::string name)
    {
        return q.add([this, name] { fired.push_back(name); });
    }
    std::vector<std::string> run(time_point now)
    {
        fired.clear();
        q.run_due(now);
        return fired;
    }
};

using names = std::vector<std::string>;

} // namespace

TEST_CASE("timer_queue: timers fire in time order, each once, when due")
{
    fixture f;
    const auto a = f.timer("a");
    const auto b = f.timer("b");
    const auto c = f.timer("c");
    f.timer("never set");
    CHECK(f.q.size() == 4);
    f.q.set(a, t0 + 30ms);
    f.q.set(b, t0 + 10ms);
    f.q.set(c, t0 + 20ms);

    CHECK(f.run(t0 + 9ms) == names{});
    CHECK(f.run(t0 + 25ms) == names{"b", "c"});
    CHECK(f.run(t0 + 29ms) == names{});
    CHECK(f.run(t0 + 30ms) == names{"a"}); // due exactly at its time
    CHECK(f.run(t0 + 1h) == names{});          // fired timers are disarmed
    CHECK(f.q.size() == 4);                 // but still exist
}

TEST_CASE("timer_queue: a fired timer can be set again")
{
    fixture f;
    const auto a = f.timer("a");
    f.q.set(a, t0 + 10ms);
    CHECK(f.run(t0 + 10ms) == names{"a"});
    f.q.set(a, t0 + 20ms);
    CHECK(f.run(t0 + 19ms) == names{});
    CHECK(f.run(t0 + 20ms) == names{"a"});
}

TEST_CASE("timer_queue: re-arming later fires at the new time only")
{
    fixture f;
    const auto a = f.timer("a");
    f.q.set(a, t0 + 10ms);
    f.q.set(a, t0 + 50ms);
    f.q.set(a, t0 + 40ms); // later than the entry on the heap, earlier than the last wish
    // Lazy: the old entry stays; next() may name it, never anything later than the wanted time.
    REQUIRE(f.q.next());
    CHECK(*f.q.next() <= t0 + 40ms);

    CHECK(f.run(t0 + 10ms) == names{}); // the old entry comes up and is pushed again
    REQUIRE(f.q.next());
    CHECK(*f.q.next() == t0 + 40ms);
    CHECK(f.run(t0 + 39ms) == names{});
    CHECK(f.run(t0 + 40ms) == names{"a"});
    CHECK(f.run(t0 + 1h) == names{});
    CHECK_FALSE(f.q.next());
}

TEST_CASE("timer_queue: re-arming earlier fires at the new time, and the old entry is ignored")
{
    fixture f;
    const auto a = f.timer("a");
    f.q.set(a, t0 + 50ms);
    f.q.set(a, t0 + 10ms);
    REQUIRE(f.q.next());
    CHECK(*f.q.next() == t0 + 10ms);
    CHECK(f.run(t0 + 9ms) == names{});
    CHECK(f.run(t0 + 10ms) == names{"a"});
    CHECK(f.run(t0 + 50ms) == names{}); // the entry for 50 ms is stale
    CHECK_FALSE(f.q.next());

    // Earlier, then later again: only the last time counts.
    f.q.set(a, t0 + 200ms);
    f.q.set(a, t0 + 100ms);
    f.q.set(a, t0 + 150ms);
    CHECK(f.run(t0 + 149ms) == names{});
    CHECK(f.run(t0 + 150ms) == names{"a"});
    CHECK(f.run(t0 + 1h) == names{});
}

TEST_CASE("timer_queue: a cancelled timer does not fire, and can be set again")
{
    fixture f;
    const auto a = f.timer("a");
    const auto b = f.timer("b");
    f.q.set(a, t0 + 10ms);
    f.q.set(b, t0 + 20ms);
    f.q.cancel(a);
    CHECK(f.run(t0 + 1s) == names{"b"});

    f.q.set(a, t0 + 2s);
    f.q.cancel(a);
    f.q.set(a, t0 + 3s); // later than its stale entry
    CHECK(f.run(t0 + 2s) == names{});
    CHECK(f.run(t0 + 3s) == names{"a"});

    f.q.set(a, t0 + 5s);
    f.q.cancel(a);
    f.q.set(a, t0 + 4s); // earlier than its stale entry
    CHECK(f.run(t0 + 4s) == names{"a"});
    CHECK(f.run(t0 + 5s) == names{});
    f.q.cancel(a); // cancelling a disarmed timer is harmless
    CHECK(f.run(t0 + 1h) == names{});
}

TEST_CASE("timer_queue: a removed timer never fires, and its id's next owner is not fired by its entries")
{
    fixture f;
    const auto a = f.timer("a");
    f.q.set(a, t0 + 10ms);
    f.q.remove(a);
    CHECK(f.q.size() == 0);
    const auto b = f.timer("b"); // reuses a's slot
    CHECK(f.q.size() == 1);
    CHECK(f.run(t0 + 10ms) == names{}); // a's entry is stale for b
    f.q.set(b, t0 + 20ms);
    CHECK(f.run(t0 + 19ms) == names{});
    CHECK(f.run(t0 + 20ms) == names{"b"});
}

TEST_CASE("timer_queue: a callback may remove its own timer, or another one due in the same run")
{
    timer_queue q;
    std::vector<std::string> fired;
    // A capture too large for std::function's small buffer: removing the timer frees it, so the
    // queue must not run the callback from the timer's own slot.
    auto big = std::make_shared<std::string>(200, 'x');
    timer_queue::id self = 0, victim = 0, other = 0;
    self = q.add([&, big, padding = std::string(100, 'p')] {
        q.remove(self);
        fired.push_back("self " + std::to_string(big->size()) + " " + std::to_string(padding.size()));
    });
    other = q.add([&] {
        fired.push_back("other");
        q.remove(victim);
    });
    victim = q.add([&] { fired.push_back("victim"); });
    q.set(self, t0 + 1ms);
    q.set(other, t0 + 2ms);
    q.set(victim, t0 + 3ms);
    q.run_due(t0 + 3ms); // victim is due in this run, but other removes it first
    CHECK(fired == std::vector<std::string>{"self 200 100", "other"});
    CHECK(q.size() == 1);
    fired.clear();
    q.run_due(t0 + 1h);
    CHECK(fired == std::vector<std::string>{});
}

TEST_CASE("timer_queue: a callback may add timers, and one due already fires in the same run")
{
    timer_queue q;
    std::vector<std::string> fired;
    std::vector<timer_queue::id> added;
    const auto first = q.add([&] {
        fired.push_back("first");
        // Enough timers to make the queue's storage grow under the running callback.
        for (int i = 0; i < 100; ++i) {
            added.push_back(q.add([&fired, i] { fired.push_back("added " + std::to_string(i)); }));
            q.set(added.back(), t0 + 10ms + std::chrono::milliseconds(i));
        }
        const auto now_too = q.add([&] { fired.push_back("now"); });
        q.set(now_too, t0 + 5ms);
    });
    q.set(first, t0 + 5ms);
    q.run_due(t0 + 5ms);
    CHECK(fired == std::vector<std::string>{"first", "now"});
    CHECK(q.size() == 102);
    fired.clear();
    q.run_due(t0 + 11ms);
    CHECK(fired == std::vector<std::string>{"added 0", "added 1"});
    REQUIRE(q.next());
    CHECK(*q.next() == t0 + 12ms);
}

TEST_CASE("timer_queue: next() names the earliest entry, and nothing once all have run")
{
    timer_queue q;
    CHECK_FALSE(q.next());
    const auto a = q.add([] {});
    CHECK_FALSE(q.next()); // added, not set
    const auto b = q.add([] {});
    q.set(a, t0 + 30ms);
    REQUIRE(q.next());
    CHECK(*q.next() == t0 + 30ms);
    q.set(b, t0 + 20ms);
    CHECK(*q.next() == t0 + 20ms);
    q.run_due(t0 + 20ms);
    REQUIRE(q.next());
    CHECK(*q.next() == t0 + 30ms);
    q.run_due(t0 + 30ms);
    CHECK_FALSE(q.next());
}
