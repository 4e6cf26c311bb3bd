#include "honest_league.hpp"

#include <algorithm>

namespace quarto::chaos {

namespace {
constexpr auto tick_interval = std::chrono::milliseconds{50};
}

honest_league::honest_league(const honest_settings& settings, int rooms, std::uint64_t seed)
    : settings_{settings}, random_{seed}, ticker_{io_}
{
    for (int i = 0; i < rooms; ++i) rooms_.push_back(std::make_unique<honest_room>(io_, settings_, stats_, i, random_));
}

honest_league::~honest_league()
{
    if (thread_.joinable()) stop();
}

void honest_league::start(std::function<void(const std::string&)> room_ready)
{
    for (auto& r : rooms_) {
        r->on_id = room_ready;
        r->start();
    }
    last_tick_ = clock_type::now();
    tick();
    thread_ = std::thread{[this] { io_.run(); }};
}

void honest_league::tick()
{
    const auto now = clock_type::now();
    const double late = std::chrono::duration<double, std::milli>(now - last_tick_ - tick_interval).count();
    last_tick_ = now;
    stats_.loop_lag(late, std::chrono::duration<double>(now - settings_.t0).count());
    recent_lags_.emplace_back(now, late);
    std::erase_if(recent_lags_, [&](const auto& l) { return now - l.first > std::chrono::seconds{5}; });
    stats_.recent_loop_lag_ms = 0;
    for (const auto& l : recent_lags_) stats_.recent_loop_lag_ms = std::max(stats_.recent_loop_lag_ms, l.second);

    games_.store(stats_.games_finished);
    anomalies_.store(stats_.anomalies);
    if (winding_down_) done_.store(std::all_of(rooms_.begin(), rooms_.end(), [](const auto& r) { return r->done(); }));
    ticker_.expires_after(tick_interval);
    ticker_.async_wait([this](const error_code& ec) {
        if (!ec) tick();
    });
}

void honest_league::wind_down()
{
    net::post(io_, [this] {
        winding_down_ = true;
        for (auto& r : rooms_) r->wind_down();
    });
}

void honest_league::stop()
{
    net::post(io_, [this] {
        for (auto& r : rooms_) r->close();
        ticker_.cancel();
    });
    // The close frames go out and are answered; then the loop has nothing left but to stop.
    std::this_thread::sleep_for(std::chrono::seconds{2});
    io_.stop();
    if (thread_.joinable()) thread_.join();
}

} // namespace quarto::chaos
