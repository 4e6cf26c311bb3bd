// The honest rooms on a thread and io_context of their own. They are few and light, but their
// clock checks time events to the millisecond: on the attackers' loop they would measure our
// own backlog (thousands of sockets) as the server's. The league measures its own loop's delay
// too, so what is left of a late event is the server's (or the machine's).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "honest_room.hpp"

namespace quarto::chaos {

class honest_league {
public:
    honest_league(const honest_settings& settings, int rooms, std::uint64_t seed);
    ~honest_league();

    // Starts the thread. `room_ready` is called on the league's thread with each room's id.
    void start(std::function<void(const std::string&)> room_ready);
    void wind_down(); // no new games (from any thread)
    bool done() const { return done_.load(); }
    // Closes the players, stops the thread and joins it; stats() is then safe to read.
    void stop();
    const honest_stats& stats() const { return stats_; }

    // For progress lines while it runs.
    std::uint64_t games_finished() const { return games_.load(); }
    std::uint64_t anomalies() const { return anomalies_.load(); }

private:
    void tick();

    honest_settings settings_;
    net::io_context io_{1};
    std::mt19937_64 random_;
    honest_stats stats_;
    std::vector<std::unique_ptr<honest_room>> rooms_;
    net::steady_timer ticker_;
    clock_type::time_point last_tick_{};
    std::vector<std::pair<clock_type::time_point, double>> recent_lags_; // the last 5 s
    bool winding_down_ = false;
    std::thread thread_;
    std::atomic<bool> done_{false};
    std::atomic<std::uint64_t> games_{0};
    std::atomic<std::uint64_t> anomalies_{0};
};

} // namespace quarto::chaos
