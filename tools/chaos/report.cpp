#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "proc_stats.hpp"

namespace quarto::chaos {

namespace {

std::string mib(std::uint64_t kib)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(kib) / 1024.0);
    return text;
}

std::string percent(double share)
{
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f %%", share * 100);
    return text;
}

// "a 3, b 1": a map's entries, largest first, at most `limit`.
std::string largest(const counter_map& m, std::size_t limit = 6)
{
    std::vector<std::pair<std::string, std::uint64_t>> items(m.begin(), m.end());
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < limit; ++i) {
        if (i) out += ", ";
        out += items[i].first + " " + std::to_string(items[i].second);
    }
    if (items.size() > limit) out += ", ... (" + std::to_string(items.size() - limit) + " more)";
    return out;
}

// The metrics that say what the memory holds.
std::string holdings(const metrics_sample& m)
{
    auto value = [&](const std::string& key) {
        const auto it = m.values.find(key);
        return it == m.values.end() ? std::string{"?"} : std::to_string(static_cast<long long>(it->second));
    };
    return "process_resident_memory_bytes " + value("process_resident_memory_bytes") + ", connections " +
           value("quarto_connections") + ", rooms waiting " + value(R"(quarto_rooms{status="waiting"})") + " playing " +
           value(R"(quarto_rooms{status="playing"})") + " finished " + value(R"(quarto_rooms{status="finished"})") +
           " (public " + value("public_rooms_total") + "), tournaments " + value("tournaments_total");
}

// Seconds in which the server's threads waited for a CPU for more than half a second in all, or
// every task was stalled on I/O for more than a fifth of it; and the machine around each honest
// anomaly (the second before it and the one it happened in).
void print_stalls(std::ostream& out, const soak& s)
{
    const auto& samples = s.watch().machine();
    if (samples.empty()) return;
    auto show = [&](const machine_sample& m) {
        char line[200];
        std::snprintf(line, sizeof line,
                      "    %6.1f s: cpu some %3.0f %%, io some %3.0f %% full %3.0f %%, steal %3.0f %%; waiting for a CPU: "
                      "server %.2f s/s, quarto-chaos %.2f s/s\n",
                      m.t, 100 * m.per_s.cpu_some_s, 100 * m.per_s.io_some_s, 100 * m.per_s.io_full_s,
                      100 * m.per_s.steal_s, m.per_s.server_wait_s, m.per_s.self_wait_s);
        out << line;
    };
    std::size_t starved = 0, io_stalled = 0;
    double worst_wait = 0;
    for (const auto& m : samples) {
        if (m.per_s.server_wait_s > 0.5) ++starved;
        if (m.per_s.io_full_s > 0.2) ++io_stalled;
        worst_wait = std::max(worst_wait, m.per_s.server_wait_s);
    }
    out << "  machine: " << samples.size() << " seconds sampled; the server's threads waited for a CPU more than 0.5 s/s in "
        << starved << " of them (at worst " << static_cast<int>(worst_wait * 1000) << " ms/s); all tasks stalled on I/O over 20 % in "
        << io_stalled << "\n";
    std::vector<double> shown;
    for (const double t : s.honest().anomaly_times) {
        if (!shown.empty() && t - shown.back() < 2) continue;
        if (shown.size() == 10) break;
        shown.push_back(t);
        out << "  around the honest anomaly at " << static_cast<int>(t) << " s:\n";
        for (const auto& m : samples)
            if (m.t > t - 3 && m.t < t + 1.5) show(m);
    }
}

} // namespace

verdict judge(const options& o, const soak& s)
{
    verdict v;
    const auto& h = s.honest();
    const auto& r = s.result();
    if (h.anomalies > 0) v.reasons.push_back(std::to_string(h.anomalies) + " honest-game anomalies");
    if (h.games_finished == 0) v.reasons.push_back("no honest game finished");
    if (r.server_died_at_s) v.reasons.push_back("the server died at " + std::to_string(*r.server_died_at_s) + " s");
    if (!r.post_warmup_rss_kib || !r.end_rss_kib) {
        if (!r.server_died_at_s) v.reasons.push_back("the server's RSS could not be read (no --server-pid?)");
    } else if (static_cast<double>(*r.end_rss_kib) > static_cast<double>(*r.post_warmup_rss_kib) * (1 + o.rss_tolerance)) {
        v.reasons.push_back("end RSS " + mib(*r.end_rss_kib) + " is more than " + percent(o.rss_tolerance) +
                            " above the post-warm-up " + mib(*r.post_warmup_rss_kib));
    }
    v.pass = v.reasons.empty();
    return v;
}

void print_report(std::ostream& out, const options& o, const soak& s, const verdict& v)
{
    const auto& h = s.honest();
    const auto& r = s.result();
    const auto& a = s.attacks();
    out << "quarto-chaos: " << o.duration_s << " s of attack against " << o.url << ", " << o.connections
        << " attackers at once, " << o.honest_rooms << " honest rooms, seed " << o.seed << "\n";
    out << "machine: " << load::machine_summary() << "\n\n";

    out << "honest rooms: " << h.games_finished << " games finished (" << largest(h.endings) << ") of " << h.games_started
        << " started; " << h.timeouts_provoked << " timeouts provoked on purpose; " << h.events << " events, of which "
        << h.watcher_events << " spectators' joined/left; " << h.clock_checks << " clock checks, largest deviation "
        << static_cast<long long>(h.clock_deviation_max_ms) << " ms (" << h.clock_deviation_over_250ms << " over 250 ms)\n";
    out << "honest players' pings: " << h.pings << ", round trip at worst " << static_cast<long long>(h.ping_rtt_max_ms) << " ms ("
        << h.pings_over_500ms << " over 500 ms); their own loop late by " << static_cast<long long>(h.loop_lag_max_ms)
        << " ms at worst\n";
    out << "honest anomalies: " << h.anomalies << (h.anomalies ? " (" + largest(h.anomaly_kinds) + ")" : "") << "\n";
    for (const auto& e : h.anomaly_examples) out << "  " << e << "\n";

    out << "\nattacks (" << a.storms << " storms):\n";
    std::uint64_t connections = 0;
    for (std::size_t i = 0; i < attack_kind_count; ++i) {
        const auto& k = a.kinds[i];
        connections += k.connections;
        char line[256];
        std::snprintf(line, sizeof line,
                      "  %-16s %6llu attackers %7llu connections (%llu upgraded) %9llu msgs out %9llu in\n",
                      std::string{attack_kinds[i].name}.c_str(), static_cast<unsigned long long>(k.started),
                      static_cast<unsigned long long>(k.connections), static_cast<unsigned long long>(k.opened),
                      static_cast<unsigned long long>(k.messages_out), static_cast<unsigned long long>(k.messages_in));
        out << line;
        if (!k.errors.empty()) out << "      errors: " << largest(k.errors, 8) << "\n";
        if (!k.endings.empty()) out << "      endings: " << largest(k.endings, 5) << "\n";
        if (!k.outcomes.empty()) out << "      as expected: " << largest(k.outcomes, 8) << "\n";
        if (!k.surprises.empty()) out << "      SURPRISES: " << largest(k.surprises, 8) << "\n";
    }
    out << "  total connections " << connections << "; attacker surprises " << a.total_surprises() << "\n";
    for (const auto& e : a.surprise_examples) out << "    " << e << "\n";

    out << "\nserver (pid " << s.watch().pid() << "): ";
    if (r.server_died_at_s) out << "DIED at " << *r.server_died_at_s << " s\n";
    else out << "alive at the end\n";
    if (r.post_warmup_rss_kib)
        out << "  RSS after warm-up (median, " << o.warmup_s - 5 << "-" << o.warmup_s
            << " s): " << mib(*r.post_warmup_rss_kib) << "\n";
    if (r.end_rss_kib && r.post_warmup_rss_kib)
        out << "  RSS at the end (median of the settle's last 5 s): " << mib(*r.end_rss_kib) << " ("
            << percent(static_cast<double>(*r.end_rss_kib) / static_cast<double>(*r.post_warmup_rss_kib) - 1) << ")\n";
    out << "  RSS max " << mib(s.watch().max_rss_kib()) << ", VmHWM " << mib(s.watch().hwm_kib()) << "\n";
    out << "  attack ended at " << r.attack_ended_at_s << " s, attackers gone at " << r.attackers_gone_at_s << " s ("
        << r.attackers_left_at_drain << " reset after 15 s), end RSS taken at " << r.attackers_gone_at_s + o.settle_s
        << " s\n";
    const double wall = std::max(1.0, r.ended_at_s);
    out << "  CPU over the run (" << static_cast<int>(wall) << " s): server " << static_cast<int>(r.server_cpu_s)
        << " s (" << static_cast<int>(100 * r.server_cpu_s / wall) << " % of a core), quarto-chaos "
        << static_cast<int>(r.tool_cpu_s) << " s (" << static_cast<int>(100 * r.tool_cpu_s / wall)
        << " %); quarto-chaos's loop late by " << static_cast<int>(r.loop_lag_max_ms) << " ms at worst\n";
    out << "  RSS over time:";
    double next = 0;
    const double step = o.duration_s <= 120 ? 10 : 60;
    for (const auto& sample : s.watch().rss()) {
        if (sample.t < next) continue;
        next = sample.t + step;
        out << "  " << static_cast<int>(sample.t) << " s " << mib(sample.rss_kib);
    }
    out << "\n";
    if (r.metrics_after_warmup) out << "  /metrics after warm-up: " << holdings(*r.metrics_after_warmup) << "\n";
    if (r.metrics_at_end) out << "  /metrics at the end: " << holdings(*r.metrics_at_end) << "\n";
    print_stalls(out, s);
    if (s.watch().failed_scrapes()) out << "  /metrics scrapes that failed: " << s.watch().failed_scrapes() << "\n";

    out << "\nverdict: " << (v.pass ? "PASS" : "FAIL");
    for (const auto& reason : v.reasons) out << "; " << reason;
    out << "\n";
}

nlohmann::json json_report(const options& o, const soak& s, const verdict& v)
{
    const auto& r = s.result();
    nlohmann::json rss = nlohmann::json::array();
    for (const auto& sample : s.watch().rss()) rss.push_back({sample.t, sample.rss_kib});
    nlohmann::json metrics = nlohmann::json::array();
    for (const auto& m : s.watch().metrics()) metrics.push_back({{"t", m.t}, {"values", m.values}});
    nlohmann::json machine = nlohmann::json::array();
    for (const auto& m : s.watch().machine())
        machine.push_back({m.t, m.per_s.cpu_some_s, m.per_s.io_some_s, m.per_s.io_full_s, m.per_s.steal_s, m.per_s.server_wait_s,
                           m.per_s.self_wait_s});
    nlohmann::json loop_lags = nlohmann::json::array();
    for (const auto& l : r.loop_lags) loop_lags.push_back({{"t", l.t}, {"ms", l.ms}});
    auto optional = [](const auto& x) { return x ? nlohmann::json(*x) : nlohmann::json(nullptr); };
    return {
        {"options",
         {{"url", o.url}, {"duration_s", o.duration_s}, {"warmup_s", o.warmup_s}, {"settle_s", o.settle_s},
          {"connections", o.connections}, {"honest_rooms", o.honest_rooms}, {"seed", o.seed},
          {"honest_move_ms", o.honest_move_ms}, {"storm_every_s", o.storm_every_s}, {"storm_share", o.storm_share},
          {"storm_resumes", o.storm_resumes}, {"rss_tolerance", o.rss_tolerance}}},
        {"machine", load::machine_summary()},
        {"honest", s.honest().to_json()},
        {"attacks", s.attacks().to_json()},
        {"storms", s.attacks().storms},
        {"attacker_surprise_examples", s.attacks().surprise_examples},
        {"server",
         {{"pid", s.watch().pid()},
          {"died_at_s", optional(r.server_died_at_s)},
          {"post_warmup_rss_kib", optional(r.post_warmup_rss_kib)},
          {"end_rss_kib", optional(r.end_rss_kib)},
          {"max_rss_kib", s.watch().max_rss_kib()},
          {"hwm_kib", s.watch().hwm_kib()},
          {"attack_ended_at_s", r.attack_ended_at_s},
          {"attackers_gone_at_s", r.attackers_gone_at_s},
          {"ended_at_s", r.ended_at_s},
          {"server_cpu_s", r.server_cpu_s},
          {"tool_cpu_s", r.tool_cpu_s},
          {"loop_lag_max_ms", r.loop_lag_max_ms},
          {"loop_lags", loop_lags},
          {"rss_samples", rss},
          {"metrics_samples", metrics},
          {"machine_columns", {"t", "cpu_some", "io_some", "io_full", "steal", "server_cpu_wait", "chaos_cpu_wait"}},
          {"machine_samples", machine}}},
        {"verdict", {{"pass", v.pass}, {"reasons", v.reasons}}},
    };
}

} // namespace quarto::chaos
