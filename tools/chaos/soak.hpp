// The run, phase by phase on one io_context (the honest rooms have their own, honest_league):
// honest rooms start; attackers ramp up to N and are replaced as they finish; at the warm-up's end the server's RSS is the reference; storms come
// every so often; at the duration's end every attacker leaves, the server is left to settle,
// the end RSS is taken, and the honest rooms finish the game they are in.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "attack_pool.hpp"
#include "honest_league.hpp"
#include "options.hpp"
#include "server_watch.hpp"

namespace quarto::chaos {

struct soak_result {
    std::optional<std::uint64_t> post_warmup_rss_kib;
    std::optional<std::uint64_t> end_rss_kib;
    std::optional<double> server_died_at_s;
    std::optional<metrics_sample> metrics_after_warmup;
    std::optional<metrics_sample> metrics_at_end;
    double attack_ended_at_s = 0;
    double attackers_gone_at_s = 0;
    std::size_t attackers_left_at_drain = 0; // still there 15 s after being told to stop (reset then)
    double ended_at_s = 0;
    double loop_lag_max_ms = 0; // how late the attackers' loop (its 100 ms tick) ran at worst
    std::vector<incident> loop_lags; // when it was more than 250 ms late
    double tool_cpu_s = 0;   // this process's user + system time over the run
    double server_cpu_s = 0; // the server's, over the same time
};

class soak {
public:
    soak(const options& o, tcp::endpoint server, std::string host_header, std::string path, pid_t server_pid);
    void run();

    const soak_result& result() const { return result_; }
    const chaos_stats& attacks() const { return context_.stats; }
    const honest_stats& honest() const { return honest_.stats(); }
    const server_watch& watch() const { return watch_; }

private:
    enum class phase { attacking, draining, settling, winding_down, over };
    void tick();
    void progress(double t);
    void end_run();

    const options& options_;
    net::io_context io_{1};
    clock_type::time_point t0_;
    attack_context context_;
    attack_pool pool_;
    honest_settings honest_settings_;
    honest_league honest_;
    server_watch watch_;
    net::steady_timer driver_;
    phase phase_ = phase::attacking;
    double phase_started_ = 0;
    double next_storm_ = 0;
    double next_progress_ = 10;
    double last_tick_ = 0;
    bool warmup_taken_ = false;
    soak_result result_;
};

} // namespace quarto::chaos
