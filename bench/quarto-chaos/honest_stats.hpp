// What the honest rooms played and every way the server let them down. Any anomaly fails the
// run: these are the players the server exists for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "chaos_stats.hpp"

namespace quarto::chaos {

struct honest_stats {
    std::uint64_t games_started = 0;
    std::uint64_t games_finished = 0; // game_over seen by both players, checked, and the same for both
    counter_map endings;              // finished games by reason
    std::uint64_t timeouts_provoked = 0; // a player let its clock run out on purpose
    std::uint64_t events = 0;            // room events received by the honest players
    std::uint64_t watcher_events = 0;    // joined/left of spectators (the churn attackers)
    std::uint64_t clock_checks = 0;
    double clock_deviation_max_ms = 0; // |server's time used in a move - what the player measured|
    std::uint64_t clock_deviation_over_250ms = 0;
    std::uint64_t anomalies = 0;
    counter_map anomaly_kinds;
    std::vector<std::string> anomaly_examples;

    void anomaly(const std::string& kind, const std::string& detail);
    void clock_deviation(double ms);
    nlohmann::json to_json() const;
};

} // namespace quarto::chaos
