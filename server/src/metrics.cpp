#include "metrics.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace quarto::server {
namespace {

void line(std::string& out, std::string_view name, std::string_view labels, double value)
{
    out += name;
    if (!labels.empty()) {
        out += '{';
        out += labels;
        out += '}';
    }
    out += ' ';
    char buffer[32];
    const int n = std::snprintf(buffer, sizeof buffer, "%.17g", value);
    out.append(buffer, static_cast<std::size_t>(n));
    out += '\n';
}

void header(std::string& out, std::string_view name, std::string_view type, std::string_view help)
{
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
}

template <class Atomic>
double load(const Atomic& a)
{
    return static_cast<double>(a.load(std::memory_order_relaxed));
}

// utime + stime in seconds, and resident set size in bytes, from /proc/self.
std::pair<double, double> process_usage()
{
    double cpu = 0, rss = 0;
    std::ifstream stat{"/proc/self/stat"};
    std::string text{std::istreambuf_iterator<char>{stat}, {}};
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    if (const auto close = text.rfind(')'); close != std::string::npos) {
        std::istringstream fields{text.substr(close + 2)};
        std::string skip;
        for (int i = 3; i <= 13; ++i) fields >> skip;
        double utime = 0, stime = 0;
        fields >> utime >> stime;
        cpu = (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
    }
    std::ifstream statm{"/proc/self/statm"};
    double pages_total = 0, pages_resident = 0;
    if (statm >> pages_total >> pages_resident) rss = pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE));
    return {cpu, rss};
}

} // namespace

void latency_histogram::write(std::string& out, std::string_view name, std::string_view labels) const
{
    std::uint64_t cumulative = 0;
    const std::string bucket = std::string{name} + "_bucket";
    const std::string prefix = labels.empty() ? std::string{} : std::string{labels} + ",";
    for (std::size_t i = 0; i <= bounds_us.size(); ++i) {
        cumulative += counts_[i].load(std::memory_order_relaxed);
        char le[32];
        if (i < bounds_us.size()) std::snprintf(le, sizeof le, "le=\"%g\"", bounds_us[i] / 1e6);
        else std::snprintf(le, sizeof le, "le=\"+Inf\"");
        line(out, bucket, prefix + le, static_cast<double>(cumulative));
    }
    line(out, std::string{name} + "_sum", labels, load(sum_ns_) / 1e9);
    line(out, std::string{name} + "_count", labels, static_cast<double>(cumulative));
}

std::string metrics::prometheus_text() const
{
    std::string out;
    out.reserve(8192);
    header(out, "quarto_connections", "gauge", "Open WebSocket connections.");
    line(out, "quarto_connections", "", load(connections_open));
    header(out, "quarto_connections_total", "counter", "WebSocket connections accepted.");
    line(out, "quarto_connections_total", "", load(connections_total));
    header(out, "quarto_http_requests_total", "counter", "Plain HTTP requests served.");
    line(out, "quarto_http_requests_total", "", load(http_requests));
    header(out, "quarto_messages_in_total", "counter", "WebSocket messages received.");
    line(out, "quarto_messages_in_total", "", load(messages_in));
    header(out, "quarto_messages_out_total", "counter", "WebSocket messages queued for sending (one per recipient).");
    line(out, "quarto_messages_out_total", "", load(messages_out));

    header(out, "quarto_errors_total", "counter", "Error replies by code (rate_limited counts refused messages).");
    for (std::size_t i = 0; i < errors.size(); ++i)
        line(out, "quarto_errors_total",
             "code=\"" + std::string{protocol::to_string(static_cast<protocol::error_code>(i))} + "\"", load(errors[i]));

    header(out, "quarto_rooms", "gauge", "Rooms by status.");
    for (std::size_t i = 0; i < rooms.size(); ++i)
        line(out, "quarto_rooms", "status=\"" + std::string{protocol::to_string(static_cast<protocol::room_status>(i))} + "\"",
             load(rooms[i]));

    header(out, "quarto_games_started_total", "counter", "Games started.");
    line(out, "quarto_games_started_total", "", load(games_started));
    header(out, "quarto_games_finished_total", "counter", "Games finished, by reason.");
    for (std::size_t i = 0; i < games_finished.size(); ++i)
        line(out, "quarto_games_finished_total", "reason=\"" + std::string{to_string(static_cast<end_reason>(i))} + "\"",
             load(games_finished[i]));

    header(out, "quarto_games_archived_total", "counter", "Finished games written to the archive.");
    line(out, "quarto_games_archived_total", "", load(games_archived));
    header(out, "quarto_archive_failures_total", "counter", "Finished games the archive could not write (see the log).");
    line(out, "quarto_archive_failures_total", "", load(archive_failures));

    header(out, "quarto_message_handling_seconds", "histogram", "Server-side handling time per message, by stage.");
    session_handling.write(out, "quarto_message_handling_seconds", "stage=\"session\"");
    room_handling.write(out, "quarto_message_handling_seconds", "stage=\"room\"");

    const auto [cpu, rss] = process_usage();
    header(out, "process_cpu_seconds_total", "counter", "User and system CPU time of the process.");
    line(out, "process_cpu_seconds_total", "", cpu);
    header(out, "process_resident_memory_bytes", "gauge", "Resident memory of the process.");
    line(out, "process_resident_memory_bytes", "", rss);
    return out;
}

} // namespace quarto::server
