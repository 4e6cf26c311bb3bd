#include "metrics/metrics.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <unistd.h>

namespace quarto::server::metrics {

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

namespace {

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

// A histogram summed over the shards.
void write_histogram(std::string& out, std::span<const shard_counters* const> shards,
                     latency_histogram shard_counters::*member, std::string_view name, std::string_view labels)
{
    std::uint64_t cumulative = 0, sum_ns = 0;
    const std::string bucket = std::string{name} + "_bucket";
    const std::string prefix = labels.empty() ? std::string{} : std::string{labels} + ",";
    for (std::size_t i = 0; i <= latency_histogram::bounds_us.size(); ++i) {
        for (const auto* s : shards) cumulative += (s->*member).count(i);
        char le[32];
        if (i < latency_histogram::bounds_us.size()) std::snprintf(le, sizeof le, "le=\"%g\"", latency_histogram::bounds_us[i] / 1e6);
        else std::snprintf(le, sizeof le, "le=\"+Inf\"");
        line(out, bucket, prefix + le, static_cast<double>(cumulative));
    }
    for (const auto* s : shards) sum_ns += (s->*member).sum_ns();
    line(out, std::string{name} + "_sum", labels, static_cast<double>(sum_ns) / 1e9);
    line(out, std::string{name} + "_count", labels, static_cast<double>(cumulative));
}

template <class Atomic>
double total(std::span<const shard_counters* const> shards, Atomic shard_counters::*member)
{
    double sum = 0;
    for (const auto* s : shards) sum += load(s->*member);
    return sum;
}

template <class Atomic, std::size_t N>
double total(std::span<const shard_counters* const> shards, std::array<Atomic, N> shard_counters::*member, std::size_t i)
{
    double sum = 0;
    for (const auto* s : shards) sum += load((s->*member)[i]);
    return sum;
}

} // namespace

// Resident set size in bytes, from /proc/self/statm.
double resident_bytes()
{
    std::ifstream statm{"/proc/self/statm"};
    double pages_total = 0, pages_resident = 0;
    if (statm >> pages_total >> pages_resident) return pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE));
    return 0;
}

std::string prometheus_text(std::span<const shard_counters* const> shards, const shared_counters& shared)
{
    using s = shard_counters;
    std::string out;
    out.reserve(8192);
    header(out, "quarto_connections", "gauge", "Open WebSocket connections.");
    line(out, "quarto_connections", "", total(shards, &s::connections_open));
    header(out, "quarto_connections_total", "counter", "WebSocket connections accepted.");
    line(out, "quarto_connections_total", "", total(shards, &s::connections_total));
    header(out, "quarto_http_requests_total", "counter", "Plain HTTP requests served.");
    line(out, "quarto_http_requests_total", "", load(shared.http_requests));
    header(out, "quarto_messages_in_total", "counter", "WebSocket messages received.");
    line(out, "quarto_messages_in_total", "", total(shards, &s::messages_in));
    header(out, "quarto_messages_out_total", "counter", "WebSocket messages queued for sending (one per recipient).");
    line(out, "quarto_messages_out_total", "", total(shards, &s::messages_out));

    header(out, "quarto_errors_total", "counter", "Error replies by code (rate_limited counts refused messages).");
    for (std::size_t i = 0; i < s::error_codes; ++i)
        line(out, "quarto_errors_total",
             "code=\"" + std::string{protocol::to_string(static_cast<protocol::error_code>(i))} + "\"",
             total(shards, &s::errors, i));

    header(out, "quarto_rooms", "gauge", "Rooms by status.");
    for (std::size_t i = 0; i < 3; ++i)
        line(out, "quarto_rooms", "status=\"" + std::string{model::to_string(static_cast<model::room_status>(i))} + "\"",
             total(shards, &s::rooms, i));

    header(out, "quarto_games_started_total", "counter", "Games started.");
    line(out, "quarto_games_started_total", "", total(shards, &s::games_started));
    header(out, "quarto_games_finished_total", "counter", "Games finished, by reason.");
    for (std::size_t i = 0; i < s::end_reasons; ++i)
        line(out, "quarto_games_finished_total", "reason=\"" + std::string{to_string(static_cast<end_reason>(i))} + "\"",
             total(shards, &s::games_finished, i));

    header(out, "quarto_games_archived_total", "counter", "Finished games written to the archive.");
    line(out, "quarto_games_archived_total", "", load(shared.games_archived));
    header(out, "quarto_archive_failures_total", "counter", "Finished games the archive could not write (see the log).");
    line(out, "quarto_archive_failures_total", "", load(shared.archive_failures));

    header(out, "quarto_shards", "gauge", "Event loops (one thread each) that own the connections and rooms.");
    line(out, "quarto_shards", "", static_cast<double>(shards.size()));
    header(out, "quarto_shard_migrations_total", "counter", "Connections moved to the shard of the room they joined.");
    line(out, "quarto_shard_migrations_total", "", total(shards, &s::migrations_in));
    header(out, "quarto_shard_batches_total", "counter", "Batches of messages passed from one shard to another.");
    line(out, "quarto_shard_batches_total", "", total(shards, &s::batches_out));
    header(out, "quarto_journal_batches_total", "counter", "Batches of room changes written to the journal (one per shard turn that changed a room).");
    line(out, "quarto_journal_batches_total", "", total(shards, &s::journal_batches));
    header(out, "quarto_journal_failures_total", "counter", "Journal batches that could not be written (their events went out anyway).");
    line(out, "quarto_journal_failures_total", "", total(shards, &s::journal_failures));

    header(out, "quarto_message_handling_seconds", "histogram", "Server-side handling time per message, by stage.");
    write_histogram(out, shards, &s::session_handling, "quarto_message_handling_seconds", "stage=\"session\"");
    write_histogram(out, shards, &s::room_handling, "quarto_message_handling_seconds", "stage=\"room\"");

    header(out, "process_cpu_seconds_total", "counter", "User and system CPU time of the process.");
    line(out, "process_cpu_seconds_total", "", process_cpu_seconds());
    header(out, "process_resident_memory_bytes", "gauge", "Resident memory of the process.");
    line(out, "process_resident_memory_bytes", "", resident_bytes());
    return out;
}

void append_journal(std::string& out, std::uint64_t commits, std::uint64_t syncs)
{
    header(out, "quarto_journal_commits_total", "counter", "Transactions of the journal (each holds the batches of one commit window).");
    line(out, "quarto_journal_commits_total", "", static_cast<double>(commits));
    header(out, "quarto_journal_syncs_total", "counter", "Flushes of the journal's SQLite log to the disk (0 on PostgreSQL, which flushes its own).");
    line(out, "quarto_journal_syncs_total", "", static_cast<double>(syncs));
}

} // namespace quarto::server::metrics
