// An event loop of the server's (net::event_loop) on a thread of its own, for the tests: call()
// runs a function on it and waits for it.
#pragma once

#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "net/event_loop.hpp"

namespace cluster_test {

class loop_thread final : private quarto::server::net::event_loop::owner {
public:
    loop_thread()
    {
        thread_ = std::thread{[this] { loop_.run(*this); }};
    }
    ~loop_thread()
    {
        loop_.stop();
        thread_.join();
    }

    quarto::server::net::event_loop& loop() { return loop_; }

    template <class F>
    auto call(F f) -> decltype(f())
    {
        std::packaged_task<decltype(f())()> task{std::move(f)};
        auto result = task.get_future();
        {
            std::lock_guard lock{mutex_};
            tasks_.emplace_back([&task] { task(); });
        }
        loop_.wake();
        return result.get();
    }

private:
    void on_wake() override
    {
        std::vector<std::function<void()>> tasks;
        {
            std::lock_guard lock{mutex_};
            tasks.swap(tasks_);
        }
        for (auto& t : tasks) t();
    }
    void end_of_turn() override {}

    quarto::server::net::event_loop loop_;
    std::mutex mutex_;
    std::vector<std::function<void()>> tasks_;
    std::thread thread_;
};

} // namespace cluster_test
