#include "soak.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "proc_stats.hpp"

namespace quarto::chaos {

namespace {

endpoint_settings endpoint_from(tcp::endpoint server, const std::string& host, const std::string& path,
                                const std::string& source)
{
    endpoint_settings e{.server = server, .host_header = host, .path = path, .source = std::nullopt};
    if (!source.empty()) e.source = net::ip::make_address(source);
    return e;
}

constexpr double tick_s = 0.1;
constexpr double drain_limit_s = 15;

} // namespace

namespace {

honest_settings honest_from(const options& o, endpoint_settings from, clock_type::time_point t0)
{
    honest_settings h;
    h.from = std::move(from);
    h.t0 = t0;
    h.move_ms = o.honest_move_ms;
    h.clock_tolerance_ms = o.clock_tolerance_ms;
    return h;
}

} // namespace

soak::soak(const options& o, tcp::endpoint server, std::string host_header, std::string path, pid_t server_pid)
    : options_{o}, t0_{clock_type::now()}, context_{io_, o.seed}, pool_{context_},
      honest_settings_{honest_from(o, endpoint_from(server, host_header, path, o.honest_source), t0_)},
      honest_{honest_settings_, o.honest_rooms, o.seed ^ 0x5eed},
      watch_{io_, server_pid, endpoint_from(server, host_header, path, ""), t0_}, driver_{io_}
{
    context_.attackers = endpoint_from(server, host_header, path, o.attack_source);
    context_.pairs = endpoint_from(server, host_header, path, o.pair_source);
    context_.max_message_bytes = o.max_message_bytes;
    next_storm_ = o.storm_every_s > 0 ? o.warmup_s + o.storm_every_s / 2 : 1e18;
}

void soak::run()
{
    // Called on the league's thread: the attackers learn of the room on theirs.
    honest_.start([this](const std::string& id) { net::post(io_, [this, id] { context_.honest_rooms.push_back(id); }); });
    const auto tool_before = load::read_cpu(0);
    const auto server_before = load::read_cpu(watch_.pid());
    watch_.start();
    tick();
    io_.run();
    honest_.stop();
    const auto tool_after = load::read_cpu(0);
    const auto server_after = load::read_cpu(watch_.pid());
    if (tool_before && tool_after) result_.tool_cpu_s = tool_after->total() - tool_before->total();
    if (server_before && server_after) result_.server_cpu_s = server_after->total() - server_before->total();
}

void soak::tick()
{
    const double t = watch_.now();
    if (last_tick_ > 0) {
        const double late = (t - last_tick_ - tick_s) * 1000;
        result_.loop_lag_max_ms = std::max(result_.loop_lag_max_ms, late);
        if (late > 250 && result_.loop_lags.size() < 1000) result_.loop_lags.push_back({t, "attackers' loop late", late});
    }
    last_tick_ = t;
    if (!watch_.alive() && !result_.server_died_at_s) {
        result_.server_died_at_s = t;
        std::cerr << "quarto-chaos: the server (pid " << watch_.pid() << ") is gone at " << t << " s\n";
        return end_run();
    }
    if (t >= next_progress_) progress(t);
    switch (phase_) {
    case phase::attacking:
        pool_.top_up(static_cast<std::size_t>(options_.connections),
                     static_cast<std::size_t>(std::max(1.0, options_.connect_rate * tick_s)));
        pool_.retire_older_than(std::chrono::seconds{static_cast<long>(options_.max_life_s)});
        if (!warmup_taken_ && t >= options_.warmup_s) {
            warmup_taken_ = true;
            result_.post_warmup_rss_kib = watch_.median_rss(options_.warmup_s - 5, t);
            watch_.scrape([this] {
                if (!watch_.metrics().empty()) result_.metrics_after_warmup = watch_.metrics().back();
            });
        }
        if (t >= next_storm_ && t + 10 < options_.duration_s) { // a storm needs time to play out
            next_storm_ += options_.storm_every_s;
            pool_.storm(options_.storm_share, static_cast<std::size_t>(options_.storm_resumes));
        }
        if (t >= options_.duration_s) {
            result_.attack_ended_at_s = t;
            pool_.stop_all();
            phase_ = phase::draining;
            phase_started_ = t;
        }
        break;
    case phase::draining:
        if (pool_.alive() == 0 || t - phase_started_ >= drain_limit_s) {
            result_.attackers_left_at_drain = pool_.alive();
            if (pool_.alive() > 0) pool_.storm(1.0, 0); // reset the stragglers
            result_.attackers_gone_at_s = t;
            phase_ = phase::settling;
            phase_started_ = t;
        }
        break;
    case phase::settling:
        if (t - phase_started_ >= options_.settle_s) {
            result_.end_rss_kib = watch_.median_rss(t - 5, t);
            watch_.scrape([this] {
                if (!watch_.metrics().empty()) result_.metrics_at_end = watch_.metrics().back();
            });
            honest_.wind_down();
            phase_ = phase::winding_down;
            phase_started_ = t;
        }
        break;
    case phase::winding_down:
        // A game lasts at most 16 moves and 2 passes of a move clock each, and a claim window.
        if (honest_.done() || t - phase_started_ >= 18.0 * options_.honest_move_ms / 1000 + 10) return end_run();
        break;
    case phase::over: return;
    }
    driver_.expires_after(std::chrono::milliseconds{static_cast<int>(tick_s * 1000)});
    driver_.async_wait([this](const error_code& ec) {
        if (!ec) tick();
    });
}

void soak::progress(double t)
{
    next_progress_ += 10;
    const auto& rss = watch_.rss();
    std::uint64_t started = 0;
    for (const auto& k : context_.stats.kinds) started += k.started;
    static constexpr const char* names[] = {"attacking", "draining", "settling", "winding down", "over"};
    std::fprintf(stderr,
                 "[%5.0f s] %-12s attackers %5zu (started %llu)  server RSS %6.1f MiB  honest games %llu, anomalies %llu\n",
                 t, names[static_cast<int>(phase_)], pool_.alive(), static_cast<unsigned long long>(started),
                 rss.empty() ? 0.0 : static_cast<double>(rss.back().rss_kib) / 1024.0,
                 static_cast<unsigned long long>(honest_.games_finished()),
                 static_cast<unsigned long long>(honest_.anomalies()));
}

void soak::end_run()
{
    phase_ = phase::over;
    result_.ended_at_s = watch_.now();
    watch_.stop();
    driver_.cancel();
    io_.stop();
}

} // namespace quarto::chaos
