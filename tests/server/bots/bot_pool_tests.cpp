// The bot pool with a thinking function the test holds: a search that waits for the test's
// word, so that the queue can be filled and emptied exactly, with no timing guesswork. Every wait
// has a deadline; nothing sleeps.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "bots/bot_pool.hpp"

namespace {

using namespace quarto::server;
namespace solver = quarto::solver;
using namespace std::chrono_literals;

// A search that reports it has begun, then waits until released or told to stop.
struct gate {
    std::mutex mutex;
    std::condition_variable changed;
    int started = 0;
    bool open = false;
    std::vector<int> answered; // the levels of the jobs answered, in order
    bool saw_stop = false;

    bots::bot_pool::think_function think()
    {
        return [this](const bots::think_request& r, solver::solver&, std::mt19937_64&,
                      const std::function<bool()>& should_stop) {
            std::unique_lock lock{mutex};
            ++started;
            changed.notify_all();
            while (!open) {
                if (should_stop()) {
                    saw_stop = true;
                    break;
                }
                changed.wait_for(lock, 1ms);
            }
            solver::move m;
            m.give = quarto::piece{static_cast<std::uint8_t>(r.level)};
            return m;
        };
    }
    std::function<void(const solver::move&)> reply()
    {
        return [this](const solver::move& m) {
            std::lock_guard lock{mutex};
            answered.push_back(m.give->code());
            changed.notify_all();
        };
    }
    template <class Predicate>
    bool wait_for(Predicate p, std::chrono::milliseconds limit = 10s)
    {
        std::unique_lock lock{mutex};
        return changed.wait_for(lock, limit, [&] { return p(); });
    }
    void release()
    {
        std::lock_guard lock{mutex};
        open = true;
        changed.notify_all();
    }
};

bots::bot_pool::job job_of(gate& g, int level, std::chrono::milliseconds budget = 60s)
{
    bots::think_request r;
    r.level = level;
    r.budget = budget;
    return {r, g.reply()};
}

} // namespace

TEST_CASE("bot pool: a full queue refuses at once, and every job taken is answered in order")
{
    gate g;
    bots::bot_pool pool{{1, 2, std::size_t{1} << 20}, g.think()};
    REQUIRE(pool.submit(job_of(g, 1)));
    REQUIRE(g.wait_for([&] { return g.started == 1; })); // the worker holds job 1
    CHECK(pool.submit(job_of(g, 2)));
    CHECK(pool.submit(job_of(g, 3)));
    CHECK(pool.queued() == 2);
    CHECK_FALSE(pool.submit(job_of(g, 4))); // refused without waiting for the search
    CHECK(pool.queued() == 2);
    g.release();
    REQUIRE(g.wait_for([&] { return g.answered.size() == 3; }));
    CHECK(g.answered == std::vector<int>{1, 2, 3});
    CHECK(pool.submit(job_of(g, 5))); // room again
    REQUIRE(g.wait_for([&] { return g.answered.size() == 4; }));
}

TEST_CASE("bot pool: a search is stopped when its budget runs out")
{
    gate g;
    bots::bot_pool pool{{1, 4, std::size_t{1} << 20}, g.think()};
    REQUIRE(pool.submit(job_of(g, 2, 50ms)));
    // Never released: only the budget ends it, and the move found by then is answered.
    REQUIRE(g.wait_for([&] { return g.answered.size() == 1; }));
    CHECK(g.saw_stop);
}

TEST_CASE("bot pool: stop ends the running search, drops the queue unanswered, and refuses what comes after")
{
    gate g;
    bots::bot_pool pool{{1, 4, std::size_t{1} << 20}, g.think()};
    REQUIRE(pool.submit(job_of(g, 1)));
    REQUIRE(g.wait_for([&] { return g.started == 1; }));
    REQUIRE(pool.submit(job_of(g, 2)));
    pool.stop(); // returns: the search saw should_stop
    CHECK(g.saw_stop);
    CHECK(g.answered.empty());
    CHECK(g.started == 1);
    CHECK(pool.queued() == 0);
    CHECK_FALSE(pool.submit(job_of(g, 3)));
    pool.stop(); // again: nothing to do
}

TEST_CASE("bot pool: several workers think at once")
{
    gate g;
    bots::bot_pool pool{{2, 4, std::size_t{1} << 20}, g.think()};
    REQUIRE(pool.submit(job_of(g, 1)));
    REQUIRE(pool.submit(job_of(g, 2)));
    CHECK(g.wait_for([&] { return g.started == 2; }));
    g.release();
    REQUIRE(g.wait_for([&] { return g.answered.size() == 2; }));
}
