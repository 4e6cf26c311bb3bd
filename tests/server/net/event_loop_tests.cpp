// net::event_loop: readiness to handlers (level-triggered), the end of each turn, wake-ups and
// stop from other threads, and the loop's timers. The loop runs on a thread of its own; work is
// handed to it through wake(), as other shards do.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "net/event_loop.hpp"
#include "net_support.hpp"

using quarto::server::net::event_loop;
using namespace std::chrono_literals;

namespace {

constexpr auto await_limit = std::chrono::seconds{5};

// The loop on its thread, and a log of what happened on it, in order.
class running_loop final : public event_loop::owner {
public:
    running_loop() : thread_{[this] { loop.run(*this); }} {}
    ~running_loop() { stop(); }

    void stop()
    {
        if (!thread_.joinable()) return;
        loop.stop();
        thread_.join();
    }
    std::thread::id thread_id() const { return thread_.get_id(); }

    // Runs `f` on the loop's thread (from on_wake), and waits for the end of that turn.
    void call(std::function<void()> f)
    {
        std::uint64_t target = 0;
        {
            const std::lock_guard lock{mutex_};
            tasks_.push_back(std::move(f));
            target = ++posted_;
        }
        loop.wake();
        std::unique_lock lock{mutex_};
        REQUIRE(changed_.wait_for(lock, await_limit, [&] { return finished_ >= target; }));
    }

    // From any handler on the loop's thread.
    void note(std::string what)
    {
        {
            const std::lock_guard lock{mutex_};
            log_.push_back(std::move(what));
        }
        changed_.notify_all();
    }
    std::vector<std::string> log()
    {
        const std::lock_guard lock{mutex_};
        return log_;
    }
    // Waits until the log holds `n` entries.
    bool wait_log(std::size_t n)
    {
        std::unique_lock lock{mutex_};
        return changed_.wait_for(lock, await_limit, [&] { return log_.size() >= n; });
    }

    event_loop loop;
    std::thread::id woken_on;
    int wakes = 0;
    bool log_turn_ends = false;
    std::atomic<int> idles{0};

private:
    void on_wake() override
    {
        ++wakes;
        woken_on = std::this_thread::get_id();
        std::vector<std::function<void()>> tasks;
        {
            const std::lock_guard lock{mutex_};
            tasks.swap(tasks_);
            running_ += tasks.size();
        }
        for (auto& t : tasks) t();
    }
    void on_idle() override { ++idles; }
    void end_of_turn() override
    {
        if (log_turn_ends) note("end of turn");
        {
            const std::lock_guard lock{mutex_};
            finished_ = running_;
        }
        changed_.notify_all();
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::function<void()>> tasks_;
    std::uint64_t posted_ = 0, running_ = 0, finished_ = 0;
    std::vector<std::string> log_;
    std::thread thread_; // last: starts once the rest exists
};

// A pipe, both ends non-blocking.
struct pipe_pair {
    int read_end = -1, write_end = -1;
    pipe_pair()
    {
        int fds[2];
        REQUIRE(::pipe2(fds, O_NONBLOCK | O_CLOEXEC) == 0);
        read_end = fds[0];
        write_end = fds[1];
    }
    ~pipe_pair()
    {
        ::close(read_end);
        ::close(write_end);
    }
    void put(char c) { REQUIRE(::write(write_end, &c, 1) == 1); }
};

// Notes each readiness; reads one byte per call when told to (or leaves it, to be told again).
struct noting_handler final : event_loop::handler {
    noting_handler(running_loop& l, int f, std::string n) : loop{l}, fd{f}, name{std::move(n)} {}
    void on_ready(std::uint32_t ready) override
    {
        std::string what = name;
        if (ready & EPOLLIN) what += " in";
        if (ready & EPOLLOUT) what += " out";
        ++calls;
        turn_times.push_back(loop.loop.turn_time());
        if (consume) {
            char c;
            if (::read(fd, &c, 1) == 1) what += std::string{" '"} + c + "'";
        }
        loop.note(what);
    }
    running_loop& loop;
    int fd;
    std::string name;
    bool consume = true;
    int calls = 0;
    std::vector<event_loop::clock::time_point> turn_times;
};

} // namespace

TEST_CASE("event_loop: a readable descriptor's handler runs, then the turn ends")
{
    running_loop r;
    pipe_pair p;
    noting_handler h{r, p.read_end, "pipe"};
    r.call([&] {
        CHECK(r.loop.add(p.read_end, h, EPOLLIN));
        r.log_turn_ends = true;
    });
    p.put('a');
    REQUIRE(r.wait_log(3));
    const auto log = r.log();
    CHECK(log[0] == "end of turn"); // the turn that ran the call
    CHECK(log[1] == "pipe in 'a'");
    CHECK(log[2] == "end of turn");
    r.call([&] { r.loop.remove(p.read_end); });
    r.stop();
    CHECK(h.calls == 1);
}

TEST_CASE("event_loop: level-triggered: what a handler leaves unread is reported at the next turn")
{
    running_loop r;
    pipe_pair p;
    noting_handler h{r, p.read_end, "pipe"};
    h.consume = false;
    r.call([&] { CHECK(r.loop.add(p.read_end, h, EPOLLIN)); });
    p.put('x');
    REQUIRE(r.wait_log(3)); // told again and again while the byte stays
    r.call([&] {
        h.consume = true; // take it now
    });
    r.call([] {}); // a turn in which the byte is read, if it was still there
    const int calls = h.calls;
    r.call([] {});
    r.call([] {});
    CHECK(h.calls == calls); // read: no more readiness
    r.call([&] { r.loop.remove(p.read_end); });
    r.stop();
    CHECK(h.turn_times.size() >= 3);
    for (std::size_t i = 1; i < h.turn_times.size(); ++i) CHECK(h.turn_times[i] >= h.turn_times[i - 1]);
}

TEST_CASE("event_loop: modify() asks for writability, remove() ends the events")
{
    running_loop r;
    pipe_pair p;
    noting_handler h{r, p.write_end, "writer"};
    h.consume = false;
    r.call([&] { CHECK(r.loop.add(p.write_end, h, 0)); });
    r.call([] {});
    CHECK(h.calls == 0); // registered for nothing
    r.call([&] { CHECK(r.loop.modify(p.write_end, h, EPOLLOUT)); });
    REQUIRE(r.wait_log(1));
    CHECK(r.log()[0] == "writer out");
    r.call([&] { r.loop.remove(p.write_end); });
    const int calls = h.calls;
    r.call([] {});
    r.call([] {});
    CHECK(h.calls == calls); // an empty pipe is always writable: only removal stops the reports
    r.stop();
}

TEST_CASE("event_loop: add() and modify() refuse a bad descriptor")
{
    running_loop r;
    pipe_pair p;
    noting_handler h{r, p.read_end, "pipe"};
    r.call([&] {
        CHECK_FALSE(r.loop.add(-1, h, EPOLLIN));
        CHECK_FALSE(r.loop.modify(p.read_end, h, EPOLLIN)); // not added yet
        CHECK(r.loop.add(p.read_end, h, EPOLLIN));
        CHECK_FALSE(r.loop.add(p.read_end, h, EPOLLIN)); // twice
        r.loop.remove(p.read_end);
    });
    r.stop();
}

TEST_CASE("event_loop: wake() from other threads runs on_wake on the loop's thread")
{
    running_loop r;
    std::vector<std::thread> wakers;
    for (int i = 0; i < 4; ++i)
        wakers.emplace_back([&] {
            for (int j = 0; j < 100; ++j) r.loop.wake();
        });
    for (auto& w : wakers) w.join();
    r.call([] {}); // a turn after every wake-up
    int wakes = 0;
    std::thread::id woken_on;
    r.call([&] {
        wakes = r.wakes;
        woken_on = r.woken_on;
    });
    CHECK(woken_on == r.thread_id());
    CHECK(wakes >= 2);   // at least the two calls
    CHECK(wakes <= 402); // wake-ups before a turn are taken together
    r.stop();
}

TEST_CASE("event_loop: a timer fires at its time with nothing else happening")
{
    running_loop r;
    event_loop::clock::time_point due, fired_at;
    std::mutex m;
    std::condition_variable cv;
    bool fired = false;
    r.call([&] {
        auto& timers = r.loop.timers();
        const auto t = timers.add([&] {
            const std::lock_guard lock{m};
            fired_at = r.loop.turn_time();
            fired = true;
            cv.notify_all();
        });
        due = event_loop::clock::now() + 30ms;
        timers.set(t, due);
    });
    std::unique_lock lock{m};
    REQUIRE(cv.wait_for(lock, await_limit, [&] { return fired; }));
    CHECK(fired_at >= due); // not early: the turn's time had reached it
    lock.unlock();
    r.stop();
}

TEST_CASE("event_loop: after call_when_idle, on_idle runs once, when the loop is about to wait with nothing ready")
{
    running_loop r;
    pipe_pair p;
    noting_handler h{r, p.read_end, "pipe"};
    h.consume = false;
    p.put('x'); // ready at every turn until read
    r.call([&] {
        CHECK(r.loop.add(p.read_end, h, EPOLLIN));
        r.loop.call_when_idle();
    });
    REQUIRE(r.wait_log(3));
    r.call([] {});
    CHECK(r.idles == 0); // never idle while the byte waits
    r.call([&] { h.consume = true; });
    const auto wait_idles = [&](int n) {
        for (auto until = std::chrono::steady_clock::now() + await_limit; r.idles < n && std::chrono::steady_clock::now() < until;)
            std::this_thread::sleep_for(1ms);
        return r.idles.load();
    };
    CHECK(wait_idles(1) == 1); // the byte read, nothing is ready
    r.call([] {});
    r.call([] {});
    CHECK(r.idles == 1); // once per call_when_idle
    r.call([&] { r.loop.call_when_idle(); });
    CHECK(wait_idles(2) == 2);
    r.call([&] { r.loop.remove(p.read_end); });
    r.stop();
}

TEST_CASE("event_loop: stop() from another thread ends run()")
{
    running_loop r;
    r.call([] {});
    const auto before = std::chrono::steady_clock::now();
    r.stop(); // joins: hangs (and the test times out) if run() does not return
    CHECK(std::chrono::steady_clock::now() - before < await_limit);
}
