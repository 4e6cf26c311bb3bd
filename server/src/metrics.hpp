// Counters for GET /metrics (Prometheus text format). Every update is one relaxed atomic
// operation: no locks on the message path.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/error_code.hpp"

namespace quarto::server {

// A fixed-bucket histogram of durations.
class latency_histogram {
public:
    // Upper bounds in microseconds; the last bucket is +Inf.
    static constexpr std::array<double, 12> bounds_us{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 20000};

    void record(std::chrono::nanoseconds d)
    {
        const double us = static_cast<double>(d.count()) / 1000.0;
        std::size_t i = 0;
        while (i < bounds_us.size() && us > bounds_us[i]) ++i;
        counts_[i].fetch_add(1, std::memory_order_relaxed);
        sum_ns_.fetch_add(static_cast<std::uint64_t>(d.count()), std::memory_order_relaxed);
    }
    void write(std::string& out, std::string_view name, std::string_view labels) const;

private:
    std::array<std::atomic<std::uint64_t>, bounds_us.size() + 1> counts_{};
    std::atomic<std::uint64_t> sum_ns_{0};
};

struct metrics {
    using counter = std::atomic<std::uint64_t>;
    using gauge = std::atomic<std::int64_t>;
    static constexpr std::size_t error_codes = protocol::error_code_count;
    static constexpr std::size_t end_reasons = static_cast<std::size_t>(end_reason::board_full) + 1;

    gauge connections_open{0};
    counter connections_total{0};
    counter messages_in{0};
    counter messages_out{0};
    counter http_requests{0};
    std::array<counter, error_codes> errors{};
    counter games_started{0};
    std::array<counter, end_reasons> games_finished{};
    counter games_archived{0};  // finished games written to the archive
    counter archive_failures{0}; // finished games the archive could not write (logged in full)
    std::array<gauge, 3> rooms{}; // by protocol::room_status
    latency_histogram session_handling; // parse + dispatch on the connection's strand
    latency_histogram room_handling;    // the room's work on its strand

    static void add(counter& c) { c.fetch_add(1, std::memory_order_relaxed); }
    void error(protocol::error_code code) { add(errors[static_cast<std::size_t>(code)]); }
    void room_status_changed(std::optional<protocol::room_status> from, std::optional<protocol::room_status> to)
    {
        if (from) rooms[static_cast<std::size_t>(*from)].fetch_sub(1, std::memory_order_relaxed);
        if (to) rooms[static_cast<std::size_t>(*to)].fetch_add(1, std::memory_order_relaxed);
    }

    // The whole exposition, including the process's CPU time and memory.
    std::string prometheus_text() const;
};

} // namespace quarto::server
