#include "metrics.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>
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

// The process's CPU time (user + system, every thread) in seconds, at the clock's own
// resolution: /proc/self/stat counts whole scheduler ticks (10 ms), so a fast server reads 0
// there after a short game.
double process_cpu_seconds()
{
    timespec t{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// Resident set size in bytes, from /proc/self/statm.
double resident_bytes()
{
    std::ifstream statm{"/proc/self/statm"};
    double pages_total = 0, pages_resident = 0;
    if (statm >> pages_total >> pages_resident) return pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE));
    return 0;
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

    header(out, "process_cpu_seconds_total", "counter", "User and system CPU time of the process.");
    line(out, "process_cpu_seconds_total", "", process_cpu_seconds());
    header(out, "process_resident_memory_bytes", "gauge", "Resident memory of the process.");
    line(out, "process_resident_memory_bytes", "", resident_bytes());
    return out;
}

} // namespace quarto::server
