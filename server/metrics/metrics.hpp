// Counters for GET /metrics (Prometheus text format). Each shard has its own set, written only
// by the shard's thread (a relaxed load and store: no locked instruction, no shared cache line
// on the message path) and read by whoever renders the exposition, which sums the shards.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "quarto/core/game.hpp"
#include "quarto/model/room.hpp"
#include "quarto/protocol/error_code.hpp"

namespace quarto::server::metrics {

using counter = std::atomic<std::uint64_t>;
using gauge = std::atomic<std::int64_t>;

// By the one thread that owns `c`.
inline void bump(counter& c, std::uint64_t by = 1) { c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed); }
inline void move(gauge& g, std::int64_t by) { g.store(g.load(std::memory_order_relaxed) + by, std::memory_order_relaxed); }

// A fixed-bucket histogram of durations, one writer.
class latency_histogram {
public:
    // Upper bounds in microseconds; the last bucket is +Inf.
    static constexpr std::array<double, 12> bounds_us{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 20000};

    void record(std::chrono::nanoseconds d)
    {
        const auto ns = d.count();
        std::size_t i = 0;
        while (i < bounds_us.size() && static_cast<double>(ns) > bounds_us[i] * 1000.0) ++i;
        bump(counts_[i]);
        bump(sum_ns_, static_cast<std::uint64_t>(ns));
    }
    std::uint64_t count(std::size_t bucket) const { return counts_[bucket].load(std::memory_order_relaxed); }
    std::uint64_t sum_ns() const { return sum_ns_.load(std::memory_order_relaxed); }

private:
    std::array<counter, bounds_us.size() + 1> counts_{};
    counter sum_ns_{0};
};

// One shard's counters. Aligned so that two shards never share a cache line.
struct alignas(64) shard_counters {
    static constexpr std::size_t error_codes = protocol::error_code_count;
    static constexpr std::size_t end_reasons = static_cast<std::size_t>(end_reason::abandoned) + 1;

    gauge connections_open{0};
    counter connections_total{0};
    counter messages_in{0};
    counter messages_out{0};
    std::array<counter, error_codes> errors{};
    counter games_started{0};
    std::array<counter, end_reasons> games_finished{};
    std::array<gauge, 3> rooms{}; // by model::room_status
    counter migrations_in{0};      // connections moved onto this shard
    counter batches_out{0};        // batches of messages sent to other shards
    counter journal_batches{0};    // batches of room changes written to the journal
    counter journal_failures{0};   // of those, batches the journal could not write (logged)
    latency_histogram session_handling; // reading and dispatching a client message
    latency_histogram room_handling;    // a room's part of it

    void error(protocol::error_code code) { bump(errors[static_cast<std::size_t>(code)]); }
    void room_status_changed(std::optional<model::room_status> from, std::optional<model::room_status> to)
    {
        if (from) move(rooms[static_cast<std::size_t>(*from)], -1);
        if (to) move(rooms[static_cast<std::size_t>(*to)], 1);
    }
};

// Written from threads other than the shards' (the front's HTTP, the archive's completions),
// so with atomic additions.
struct shared_counters {
    counter http_requests{0};    // plain HTTP requests served
    counter games_archived{0};   // finished games written to the archive
    counter archive_failures{0}; // finished games the archive could not write (logged in full)
};

// The whole exposition: every shard summed, the shared counters, and the process's CPU time
// and memory.
std::string prometheus_text(std::span<const shard_counters* const> shards, const shared_counters& shared);

// The journal's transactions and its flushes to the disk (with --journal on).
void append_journal(std::string& out, std::uint64_t commits, std::uint64_t syncs);

// One sample line, and the HELP and TYPE lines before a metric's samples.
void line(std::string& out, std::string_view name, std::string_view labels, double value);
void header(std::string& out, std::string_view name, std::string_view type, std::string_view help);

// Resident set size in bytes, from /proc/self/statm (0 when it cannot be read).
double resident_bytes();

} // namespace quarto::server::metrics
