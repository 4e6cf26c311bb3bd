// What the honest rooms played and every way the server let them down. Any anomaly fails the
// run: these are the players the server exists for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "chaos_stats.hpp"

namespace quarto::chaos {

// A moment worth lining up against the anomalies: the honest loop running late, a ping slow to
// come back, a clock far from what a player measured.
struct incident {
    double t = 0; // seconds since the run began
    std::string what;
    double ms = 0;
};

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
    std::vector<double> anomaly_times; // seconds since the start, to line up with the machine's stalls
    // Whose delay is it? A ping is answered without touching a room (nor the journal); the
    // honest players' own loop is apart from the attackers'.
    std::uint64_t pings = 0;
    double ping_rtt_max_ms = 0;
    std::uint64_t pings_over_500ms = 0;
    double last_ping_rtt_ms = 0;
    double loop_lag_max_ms = 0; // the honest players' loop
    double recent_loop_lag_ms = 0; // its worst in the last 5 s
    std::vector<incident> incidents;

    void anomaly(const std::string& kind, const std::string& detail, double t);
    void clock_deviation(double ms, double t);
    void ping(double rtt_ms, double t);
    void loop_lag(double ms, double t);
    void note(double t, std::string what, double ms);
    nlohmann::json incident_list() const;
    nlohmann::json to_json() const;
};

} // namespace quarto::chaos
