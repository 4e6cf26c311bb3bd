#include "honest_stats.hpp"

#include <algorithm>
#include <cmath>

namespace quarto::chaos {

void honest_stats::anomaly(const std::string& kind, const std::string& detail, double t)
{
    ++anomalies;
    if (anomaly_times.size() < 1000) anomaly_times.push_back(t);
    ++anomaly_kinds[kind];
    if (anomaly_examples.size() < 40) anomaly_examples.push_back(kind + " | " + detail);
}

void honest_stats::clock_deviation(double ms, double t)
{
    ++clock_checks;
    clock_deviation_max_ms = std::max(clock_deviation_max_ms, std::abs(ms));
    if (std::abs(ms) > 250) ++clock_deviation_over_250ms;
    if (std::abs(ms) > 500) note(t, "clock deviation", ms);
}

void honest_stats::ping(double rtt_ms, double t)
{
    ++pings;
    last_ping_rtt_ms = rtt_ms;
    ping_rtt_max_ms = std::max(ping_rtt_max_ms, rtt_ms);
    if (rtt_ms > 500) {
        ++pings_over_500ms;
        note(t, "ping round trip", rtt_ms);
    }
}

void honest_stats::loop_lag(double ms, double t)
{
    loop_lag_max_ms = std::max(loop_lag_max_ms, ms);
    if (ms > 200) note(t, "honest loop late", ms);
}

void honest_stats::note(double t, std::string what, double ms)
{
    if (incidents.size() < 5000) incidents.push_back({t, std::move(what), ms});
}

nlohmann::json honest_stats::incident_list() const
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& i : incidents) out.push_back({{"t", i.t}, {"what", i.what}, {"ms", i.ms}});
    return out;
}

nlohmann::json honest_stats::to_json() const
{
    return {
        {"games_started", games_started},
        {"games_finished", games_finished},
        {"endings", endings},
        {"timeouts_provoked", timeouts_provoked},
        {"events", events},
        {"watcher_events", watcher_events},
        {"clock_checks", clock_checks},
        {"clock_deviation_max_ms", clock_deviation_max_ms},
        {"clock_deviation_over_250ms", clock_deviation_over_250ms},
        {"anomalies", anomalies},
        {"anomaly_kinds", anomaly_kinds},
        {"anomaly_examples", anomaly_examples},
        {"anomaly_times", anomaly_times},
        {"pings", pings},
        {"ping_rtt_max_ms", ping_rtt_max_ms},
        {"pings_over_500ms", pings_over_500ms},
        {"loop_lag_max_ms", loop_lag_max_ms},
        {"incidents", incident_list()},
    };
}

} // namespace quarto::chaos
