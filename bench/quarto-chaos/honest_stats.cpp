#include "honest_stats.hpp"

#include <algorithm>
#include <cmath>

namespace quarto::chaos {

void honest_stats::anomaly(const std::string& kind, const std::string& detail)
{
    ++anomalies;
    ++anomaly_kinds[kind];
    if (anomaly_examples.size() < 40) anomaly_examples.push_back(kind + " | " + detail);
}

void honest_stats::clock_deviation(double ms)
{
    ++clock_checks;
    clock_deviation_max_ms = std::max(clock_deviation_max_ms, std::abs(ms));
    if (std::abs(ms) > 250) ++clock_deviation_over_250ms;
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
    };
}

} // namespace quarto::chaos
