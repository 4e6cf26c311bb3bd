// The threads that run the solver for the analysis endpoints, off the front and the shards: a
// search takes up to seconds, and no event loop may wait for one. The queue is bounded and
// try_submit never blocks: a full queue is the caller's 503, not a stalled loop.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "quarto/core/solver/solver.hpp"

namespace quarto::server::analysis {

struct worker_settings {
    unsigned threads = 2;
    std::size_t queue_capacity = 16; // jobs waiting, besides those running
    std::size_t table_bytes = std::size_t{64} << 20; // each thread's transposition table
    // Below the event loops (nice 0) and beside the archive: a search may take every cycle it
    // is given, but never those a loop needs to answer a move. On a loaded machine that makes
    // the answers late rather than the games.
    int nice = 10;
};

class analysis_worker {
public:
    // What a job gets: its thread's solver, and whether the worker is stopping (a search polls
    // it with its clock, and ends early when it turns true).
    class context {
    public:
        context(std::unique_ptr<solver::solver>& s, std::size_t table_bytes, const std::atomic<bool>& stopping)
            : solver_{s}, table_bytes_{table_bytes}, stopping_{stopping}
        {
        }
        // The thread's solver. One table serves every rule set (its entries carry their rules).
        solver::solver& solver();
        bool stopping() const { return stopping_.load(std::memory_order_relaxed); }

    private:
        std::unique_ptr<solver::solver>& solver_;
        std::size_t table_bytes_;
        const std::atomic<bool>& stopping_;
    };
    using job = std::function<void(context&)>;

    explicit analysis_worker(worker_settings settings = {});
    // stop()s.
    ~analysis_worker();
    analysis_worker(const analysis_worker&) = delete;
    analysis_worker& operator=(const analysis_worker&) = delete;

    // Queues `j` for the next free thread; false (and `j` dropped) when the queue is full or
    // the worker has stopped. Never blocks for long: it only takes the queue's lock.
    bool try_submit(job j);

    // Tells the searches under way to end (their jobs finish with what they have found), drops
    // the jobs still queued without running them, and joins the threads. Idempotent.
    void stop();

    // Jobs waiting (not those running), for tests and logs.
    std::size_t queued() const;

private:
    void run();

    const worker_settings settings_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<job> queue_;
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> threads_;
};

} // namespace quarto::server::analysis
