// Watches the server from outside while the soak runs: its VmRSS every second (/proc/PID/status);
// every 5 s its /metrics (process_resident_memory_bytes, connections, rooms by status) and the
// totals of its lists of tournaments and public rooms, which say what the memory holds. A server
// that is gone (no /proc entry, or a zombie) is noticed within a second. And the machine's stalls
// every second (pressure.hpp).
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "pressure.hpp"
#include "ws_client.hpp"

namespace quarto::chaos {

struct rss_sample {
    double t = 0; // seconds since the start of the run
    std::uint64_t rss_kib = 0;
};

// One second of the machine: each value is seconds of stall per second (pressure.hpp).
struct machine_sample {
    double t = 0;
    pressure_totals per_s;
};

struct metrics_sample {
    double t = 0;
    std::map<std::string, double> values; // the lines we keep, by their full name with labels
};

class server_watch {
public:
    server_watch(net::io_context& io, pid_t pid, endpoint_settings http, clock_type::time_point t0);

    void start();
    void stop();
    // Takes one /metrics sample now and calls `then` when it is in (or failed).
    void scrape(std::function<void()> then = nullptr);

    bool alive() const { return alive_; }
    pid_t pid() const { return pid_; }
    const std::vector<rss_sample>& rss() const { return rss_; }
    const std::vector<metrics_sample>& metrics() const { return metrics_; }
    const std::vector<machine_sample>& machine() const { return machine_; }
    std::uint64_t max_rss_kib() const { return max_rss_kib_; }
    std::uint64_t hwm_kib() const { return hwm_kib_; }
    std::uint64_t failed_scrapes() const { return failed_scrapes_; }
    // The median VmRSS over the samples in [from, to] seconds.
    std::optional<std::uint64_t> median_rss(double from, double to) const;
    double now() const;

private:
    void tick();
    // GET `path` (a list), and put its "total" into the latest sample as `name`.
    void count_listed(const std::string& path, const std::string& name, std::function<void()> then);

    net::io_context& io_;
    pid_t pid_;
    endpoint_settings http_;
    clock_type::time_point t0_;
    net::steady_timer timer_;
    bool alive_ = true;
    bool stopped_ = false;
    int ticks_ = 0;
    std::vector<rss_sample> rss_;
    std::vector<metrics_sample> metrics_;
    std::vector<machine_sample> machine_;
    std::optional<pressure_totals> last_pressure_;
    double last_pressure_t_ = 0;
    std::uint64_t max_rss_kib_ = 0;
    std::uint64_t hwm_kib_ = 0;
    std::uint64_t failed_scrapes_ = 0;
};

} // namespace quarto::chaos
