// The computer opponents' thinking, off the shards' threads: a few worker threads, each with a
// solver of its own (a transposition table apiece), taking jobs from one bounded queue. A full
// queue refuses a job at once instead of making a shard wait; the room asks again a moment
// later. An answer is handed to the job's `reply` on the worker thread: the caller posts it to
// the loop it came from.
#pragma once

#include <chrono>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "bots/think_request.hpp"
#include "quarto/core/solver/solver.hpp"

namespace quarto::server::bots {

class bot_pool {
public:
    using clock = std::chrono::steady_clock;

    struct job {
        think_request request;
        // Runs on a worker thread with the move chosen; never runs for a job dropped by stop().
        std::function<void(const solver::move&)> reply;
    };

    struct options {
        unsigned threads = 2;
        std::size_t queue_capacity = 64;
        // Per worker: the solver's table (its default 64 MB is for analysis, not for a server
        // that runs a few of them beside its rooms).
        std::size_t table_bytes = std::size_t{16} << 20;
    };

    // How a worker chooses: solver::bot_move in the server; tests put in one they control.
    using think_function = std::function<solver::move(const think_request&, solver::solver&, std::mt19937_64&,
                                                      const std::function<bool()>& should_stop)>;
    static think_function default_think();

    explicit bot_pool(options o, think_function think = default_think());
    ~bot_pool(); // stop()
    bot_pool(const bot_pool&) = delete;
    bot_pool& operator=(const bot_pool&) = delete;

    // From any thread, never blocking on a search: false when the queue is full or the pool has
    // stopped (the job is not kept). The job's budget counts from now, queueing included.
    bool submit(job j);
    // Stops taking jobs, tells running searches to stop, drops the queued jobs unanswered and
    // joins the workers. Idempotent.
    void stop();

    std::size_t queued() const;
    std::size_t capacity() const { return options_.queue_capacity; }

private:
    struct queued_job {
        job work;
        clock::time_point stop_at;
    };
    void work();

    const options options_;
    const think_function think_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<queued_job> queue_;
    bool stopping_ = false;
    std::atomic<bool> stop_searches_{false};
    std::vector<std::thread> workers_;
};

} // namespace quarto::server::bots
