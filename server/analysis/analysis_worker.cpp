#include "analysis/analysis_worker.hpp"

#include <algorithm>

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace quarto::server::analysis {
solver::solver& analysis_worker::context::solver()
{
    // Made on first use: a server nobody asks for an analysis spends no memory on the table.
    if (!solver_) solver_ = std::make_unique<solver::solver>(table_bytes_);
    return *solver_;
}

analysis_worker::analysis_worker(worker_settings settings) : settings_{settings}
{
    for (unsigned i = 0; i < std::max(1u, settings_.threads); ++i) threads_.emplace_back([this] { run(); });
}

analysis_worker::~analysis_worker()
{
    stop();
}

bool analysis_worker::try_submit(job j)
{
    {
        std::lock_guard lock{mutex_};
        if (stopping_.load() || queue_.size() >= settings_.queue_capacity) return false;
        queue_.push_back(std::move(j));
    }
    wake_.notify_one();
    return true;
}

std::size_t analysis_worker::queued() const
{
    std::lock_guard lock{mutex_};
    return queue_.size();
}

void analysis_worker::stop()
{
    std::deque<job> dropped;
    {
        std::lock_guard lock{mutex_};
        stopping_.store(true);
        dropped.swap(queue_);
    }
    wake_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    // Destroyed here, outside the lock: a job may hold the last reference to a connection.
    dropped.clear();
}

void analysis_worker::run()
{
    pthread_setname_np(pthread_self(), "quarto-analysis");
    setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), settings_.nice);
    std::unique_ptr<solver::solver> solver; // this thread's, made by the first job that needs it
    for (;;) {
        job next;
        {
            std::unique_lock lock{mutex_};
            wake_.wait(lock, [this] { return stopping_.load() || !queue_.empty(); });
            if (stopping_.load()) return;
            next = std::move(queue_.front());
            queue_.pop_front();
        }
        try {
            context c{solver, settings_.table_bytes, stopping_};
            next(c);
        } catch (const std::exception& e) { // a bug in one job must not take the others' thread
            spdlog::error("analysis: {}", e.what());
        }
    }
}

} // namespace quarto::server::analysis
