#include "bots/bot_pool.hpp"

#include <pthread.h>

#include <string>

#include <spdlog/spdlog.h>

#include "quarto/core/solver/bot.hpp"

namespace quarto::server::bots {

bot_pool::think_function bot_pool::default_think()
{
    return [](const think_request& r, solver::solver& s, std::mt19937_64& random,
              const std::function<bool()>& should_stop) {
        return solver::bot_move(r.level, r.game_rules, r.position, s, random, should_stop);
    };
}

bot_pool::bot_pool(options o, think_function think) : options_{o}, think_{std::move(think)}
{
    workers_.reserve(options_.threads);
    for (unsigned i = 0; i < options_.threads; ++i)
        workers_.emplace_back([this, i] {
            const std::string name = "quarto-bot-" + std::to_string(i);
            pthread_setname_np(pthread_self(), name.c_str());
            work();
        });
}

bot_pool::~bot_pool() { stop(); }

bool bot_pool::submit(job j)
{
    const auto stop_at = clock::now() + j.request.budget;
    {
        std::lock_guard lock{mutex_};
        if (stopping_ || queue_.size() >= options_.queue_capacity) return false;
        queue_.push_back({std::move(j), stop_at});
    }
    wake_.notify_one();
    return true;
}

void bot_pool::stop()
{
    std::deque<queued_job> dropped;
    {
        std::lock_guard lock{mutex_};
        if (stopping_ && workers_.empty()) return;
        stopping_ = true;
        dropped.swap(queue_);
    }
    stop_searches_.store(true);
    wake_.notify_all();
    for (auto& w : workers_) w.join();
    workers_.clear();
    if (!dropped.empty()) spdlog::info("bots: {} moves not chosen at shutdown", dropped.size());
}

std::size_t bot_pool::queued() const
{
    std::lock_guard lock{mutex_};
    return queue_.size();
}

void bot_pool::work()
{
    // The table is allocated once per thread and reused by every search it runs.
    solver::solver search{options_.table_bytes};
    for (;;) {
        queued_job next;
        {
            std::unique_lock lock{mutex_};
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            next = std::move(queue_.front());
            queue_.pop_front();
        }
        std::mt19937_64 random{next.work.request.seed};
        const auto stop_at = next.stop_at;
        const std::function<bool()> should_stop = [this, stop_at] {
            return stop_searches_.load(std::memory_order_relaxed) || clock::now() >= stop_at;
        };
        try {
            const solver::move chosen = think_(next.work.request, search, random, should_stop);
            if (!stop_searches_.load()) next.work.reply(chosen);
        } catch (const std::exception& e) { // a bug: this job is lost, the worker goes on
            spdlog::error("bots: a search failed: {}", e.what());
        }
    }
}

} // namespace quarto::server::bots
