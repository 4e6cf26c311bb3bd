#include "server_watch.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "http_get.hpp"
#include "proc_stats.hpp"

namespace quarto::chaos {

namespace {

// A zombie still has /proc/PID, without memory: gone for us.
bool process_alive(pid_t pid)
{
    std::ifstream in{"/proc/" + std::to_string(pid) + "/stat"};
    std::string text;
    if (!std::getline(in, text)) return false;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z' && text[close + 2] != 'X';
}

bool kept(std::string_view name)
{
    for (std::string_view prefix :
         {"process_resident_memory_bytes", "quarto_connections", "quarto_rooms", "quarto_errors_total",
          "quarto_games_finished_total", "quarto_games_started_total", "quarto_messages_in_total",
          "quarto_archive_failures_total", "quarto_journal_failures_total", "process_cpu_seconds_total"})
        if (name.rfind(prefix, 0) == 0) return true;
    return false;
}

} // namespace

server_watch::server_watch(net::io_context& io, pid_t pid, endpoint_settings http, clock_type::time_point t0)
    : io_{io}, pid_{pid}, http_{std::move(http)}, t0_{t0}, timer_{io}
{
}

double server_watch::now() const { return std::chrono::duration<double>(clock_type::now() - t0_).count(); }

void server_watch::start() { tick(); }

void server_watch::stop()
{
    stopped_ = true;
    timer_.cancel();
}

void server_watch::tick()
{
    if (stopped_) return;
    if (pid_ > 0) {
        alive_ = process_alive(pid_);
        const auto m = load::read_memory(pid_);
        if (alive_ && m.valid) {
            rss_.push_back({now(), m.rss_kib});
            max_rss_kib_ = std::max(max_rss_kib_, m.rss_kib);
            hwm_kib_ = m.hwm_kib;
        }
    }
    if (const auto p = read_pressure(pid_)) {
        const double t = now();
        if (last_pressure_ && t > last_pressure_t_) {
            const double dt = t - last_pressure_t_;
            const auto& a = *last_pressure_;
            machine_.push_back({t, pressure_totals{(p->cpu_some_s - a.cpu_some_s) / dt, (p->io_some_s - a.io_some_s) / dt,
                                                   (p->io_full_s - a.io_full_s) / dt, (p->steal_s - a.steal_s) / dt,
                                                   (p->server_wait_s - a.server_wait_s) / dt,
                                                   (p->self_wait_s - a.self_wait_s) / dt}});
        }
        last_pressure_ = p;
        last_pressure_t_ = t;
    }
    if (ticks_++ % 5 == 0) scrape();
    timer_.expires_after(std::chrono::seconds{1});
    timer_.async_wait([this](const error_code& ec) {
        if (!ec) tick();
    });
}

void server_watch::scrape(std::function<void()> then)
{
    const double at = now();
    http_get(io_, http_, "/metrics", [this, at, then = std::move(then)](bool ok, std::string body) mutable {
        if (!ok) {
            ++failed_scrapes_;
            if (then) then();
            return;
        }
        metrics_sample s{.t = at, .values = {}};
        std::istringstream lines{body};
        std::string line;
        while (std::getline(lines, line)) {
            if (line.empty() || line[0] == '#') continue;
            const auto space = line.rfind(' ');
            if (space == std::string::npos || !kept(line)) continue;
            try {
                s.values[line.substr(0, space)] = std::stod(line.substr(space + 1));
            } catch (const std::exception&) {
            }
        }
        metrics_.push_back(std::move(s));
        // /metrics has no count of tournaments (finished ones stay) nor of public rooms: the
        // lists' totals say them.
        count_listed("/api/tournaments?limit=1", "tournaments_total", [this, then = std::move(then)]() mutable {
            count_listed("/api/rooms?limit=1", "public_rooms_total", std::move(then));
        });
    });
}

void server_watch::count_listed(const std::string& path, const std::string& name, std::function<void()> then)
{
    const std::size_t index = metrics_.size() - 1;
    http_get(io_, http_, path, [this, index, name, then = std::move(then)](bool ok, std::string body) {
        const auto j = nlohmann::json::parse(body, nullptr, false);
        if (ok && j.is_object() && j.contains("total") && j["total"].is_number())
            metrics_[index].values[name] = j["total"].get<double>();
        else ++failed_scrapes_;
        if (then) then();
    });
}

std::optional<std::uint64_t> server_watch::median_rss(double from, double to) const
{
    std::vector<std::uint64_t> in;
    for (const auto& s : rss_)
        if (s.t >= from && s.t <= to) in.push_back(s.rss_kib);
    if (in.empty()) return std::nullopt;
    std::nth_element(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(in.size() / 2), in.end());
    return in[in.size() / 2];
}

} // namespace quarto::chaos
