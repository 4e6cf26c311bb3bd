// quarto-load: opens R rooms of 2 bots (+ S spectators each) on a quarto-server, lets the bots
// play random legal games closed-loop, and reports moves/s, move latency, and what the server
// spent per move (CPU) and per room (RSS), read from /proc.
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "command_line.hpp"
#include "load_client.hpp"
#include "proc_stats.hpp"

namespace load = quarto::load;
using load::net::ip::address;

namespace {

struct options {
    std::string url = "ws://127.0.0.1:8080/ws";
    quarto::tools::ws_target server; // read from url
    int rooms = 10;
    int spectators = 0;
    double duration_s = 10;
    double warmup_s = 2;
    int think_ms = 0;
    int think_jitter_ms = 0;
    std::optional<int> move_ms = 60'000; // nullopt: untimed rooms
    double connect_rate = 2000;
    pid_t server_pid = 0;
    std::string json_path;
    int threads = 1;
    std::vector<address> sources;
    bool idle = false;
    std::uint64_t seed = 1;
    double connect_timeout_s = 120;
    bool resume = false;
    double resume_timeout_s = 30;
};

const char* usage = R"(usage: quarto-load [options]
  --url URL               ws://HOST:PORT/PATH of the server, HOST an IP (default ws://127.0.0.1:8080/ws)
  --rooms R               rooms, each with 2 bot players (default 10)
  --spectators S          spectators per room (default 0)
  --duration SECONDS      measured window (default 10)
  --warmup SECONDS        play before measuring (default 2); the bots start playing once every
                          room is set up (or --connect-timeout has passed)
  --think-ms MS           each bot waits this long before each action (default 0: closed loop)
  --think-jitter-ms J     each wait drawn uniformly from MS - J to MS + J instead (J at most MS;
                          default 0: every wait exactly MS)
  --move-ms MS            the rooms' move clock, 100..3600000 ms per move (default 60000, as real
                          games; the claim window is the server's default); 0 or null: untimed
  --connect-rate N        new connections per second while setting up (default 2000)
  --server-pid PID        the server process to read /proc of (default: the one listening on PORT)
  --json FILE             also write the results as JSON
  --threads N             worker threads, one io_context each (default 1)
  --source-addresses LIST bind client sockets round-robin to these addresses, e.g.
                          127.0.0.1-127.0.0.8 or 127.0.0.1,127.0.0.2 (for more than ~28k connections)
  --idle                  hold the rooms (games started) without playing: for memory per room
  --seed N                random seed (default 1)
  --connect-timeout S     give up waiting for the rooms to be set up after S seconds (default 120)
  --resume                a connection that closes or breaks once the rooms are set up connects
                          again, says hello with its token, and its bot picks the game up from
                          its room's snapshot (a spectator joins again): for runs through server
                          restarts and failovers (bench/rolling.sh)
  --resume-timeout S      a connection that has not been welcomed again S seconds after it broke
                          gives up (default 30)
  --help                  this text
)";

std::vector<address> parse_sources(const quarto::tools::command_line& line, const std::string& list)
{
    std::vector<address> out;
    std::stringstream items{list};
    std::string item;
    while (std::getline(items, item, ',')) {
        boost::system::error_code ec;
        const auto dash = item.find('-');
        if (dash == std::string::npos) {
            out.push_back(load::net::ip::make_address(item, ec));
            if (ec) line.bad("--source-addresses: " + item + " is not an IP address");
            continue;
        }
        const auto first = load::net::ip::make_address_v4(item.substr(0, dash), ec);
        if (ec) line.bad("--source-addresses: bad range " + item);
        const auto last = load::net::ip::make_address_v4(item.substr(dash + 1), ec);
        if (ec || last.to_uint() < first.to_uint() || last.to_uint() - first.to_uint() > 255)
            line.bad("--source-addresses: bad range " + item);
        for (auto a = first.to_uint(); a <= last.to_uint(); ++a) out.push_back(load::net::ip::address_v4{a});
    }
    if (out.empty()) line.bad("--source-addresses: empty list");
    return out;
}

options parse(int argc, char** argv)
{
    const quarto::tools::command_line line{"quarto-load", usage};
    const auto number = [&](const std::string& name, const std::string& value, double low, double high) {
        return line.number(name, value, low, high);
    };
    options o;
    line.parse(argc, argv, {"idle", "resume"}, [&](const std::string& name, const std::string& value) {
        if (name == "idle") o.idle = true;
        else if (name == "resume") o.resume = true;
        else if (name == "url") o.url = value;
        else if (name == "rooms") o.rooms = static_cast<int>(number(name, value, 1, 1e6));
        else if (name == "spectators") o.spectators = static_cast<int>(number(name, value, 0, 1000));
        else if (name == "duration") o.duration_s = number(name, value, 0.1, 1e6);
        else if (name == "warmup") o.warmup_s = number(name, value, 0, 1e6);
        else if (name == "think-ms") o.think_ms = static_cast<int>(number(name, value, 0, 3.6e6));
        else if (name == "think-jitter-ms") o.think_jitter_ms = static_cast<int>(number(name, value, 0, 3.6e6));
        else if (name == "move-ms") {
            if (value == "null" || value == "0") o.move_ms.reset();
            else o.move_ms = static_cast<int>(number(name, value, 100, 3.6e6));
        }
        else if (name == "connect-rate") o.connect_rate = number(name, value, 1, 1e7);
        else if (name == "server-pid") o.server_pid = static_cast<pid_t>(number(name, value, 1, 1e9));
        else if (name == "json") o.json_path = value;
        else if (name == "threads") o.threads = static_cast<int>(number(name, value, 1, 64));
        else if (name == "source-addresses") o.sources = parse_sources(line, value);
        else if (name == "seed") o.seed = static_cast<std::uint64_t>(number(name, value, 0, 1e15));
        else if (name == "connect-timeout") o.connect_timeout_s = number(name, value, 1, 1e6);
        else if (name == "resume-timeout") o.resume_timeout_s = number(name, value, 0.1, 1e6);
        else return false;
        return true;
    });
    if (o.think_jitter_ms > o.think_ms)
        line.bad("--think-jitter-ms " + std::to_string(o.think_jitter_ms) + " is more than --think-ms " + std::to_string(o.think_ms));
    o.server = line.url(o.url);
    return o;
}

void raise_open_file_limit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &limit);
    }
}

// Runs `job` on every worker's thread and waits for all of them.
template <class Job>
void on_every_worker(std::vector<std::unique_ptr<load::worker>>& workers, Job job)
{
    std::vector<std::future<void>> done;
    for (auto& w : workers) {
        auto task = std::make_shared<std::packaged_task<void()>>([&w, job] { job(*w); });
        done.push_back(task->get_future());
        load::net::post(w->context(), [task] { (*task)(); });
    }
    for (auto& d : done) d.get();
}

double seconds_since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string fixed(double v, int digits)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    return text;
}

std::string micros(std::uint64_t ns) { return fixed(static_cast<double>(ns) / 1000.0, ns < 10'000 ? 1 : 0); }

} // namespace

int main(int argc, char** argv)
{
    const options opts = parse(argc, argv);
    const quarto::tools::ws_target& where = opts.server;
    raise_open_file_limit();

    pid_t server_pid = opts.server_pid;
    if (server_pid == 0) {
        if (const auto found = load::find_listener_pid(where.endpoint.port())) server_pid = *found;
        else std::cerr << "quarto-load: no process found listening on port " << where.endpoint.port()
                       << " (server CPU and memory will not be reported; use --server-pid)\n";
    }
    const auto server_memory_before = server_pid ? load::read_memory(server_pid) : load::memory_status{};

    load::client_settings settings;
    settings.server = where.endpoint;
    settings.host_header = where.host_header;
    settings.path = where.path;
    settings.think = std::chrono::milliseconds{opts.think_ms};
    settings.think_jitter = std::chrono::milliseconds{opts.think_jitter_ms};
    settings.move_ms = opts.move_ms;
    settings.idle = opts.idle;
    settings.resume = opts.resume;
    settings.resume_timeout = std::chrono::milliseconds{static_cast<std::int64_t>(opts.resume_timeout_s * 1000)};
    settings.seed = opts.seed;

    std::atomic<int> ready{0};
    std::vector<std::unique_ptr<load::worker>> workers;
    for (int i = 0; i < opts.threads; ++i) workers.push_back(std::make_unique<load::worker>(settings, ready));
    std::vector<std::thread> threads;
    for (auto& w : workers) threads.emplace_back([&w] { w->run(); });

    // Set up: connections in room order at the connect rate (a room's joiner and spectators
    // wait, connected and greeted, for its creator's room id).
    const int per_room = 2 + opts.spectators;
    const int total = opts.rooms * per_room;
    std::vector<load::room_state*> rooms(static_cast<std::size_t>(opts.rooms));
    for (int r = 0; r < opts.rooms; ++r) {
        auto& w = *workers[static_cast<std::size_t>(r % opts.threads)];
        std::promise<load::room_state*> made;
        load::net::post(w.context(), [&] { made.set_value(&w.add_room(r)); });
        rooms[static_cast<std::size_t>(r)] = made.get_future().get();
    }
    const auto setup_start = std::chrono::steady_clock::now();
    std::size_t source_index = 0;
    for (int launched = 0; launched < total;) {
        const auto due = std::min<long long>(total, static_cast<long long>(seconds_since(setup_start) * opts.connect_rate) + 1);
        for (; launched < due; ++launched) {
            const int r = launched / per_room;
            const int role = launched % per_room;
            std::optional<address> source;
            if (!opts.sources.empty()) source = opts.sources[source_index++ % opts.sources.size()];
            auto& w = *workers[static_cast<std::size_t>(r % opts.threads)];
            load::room_state* room = rooms[static_cast<std::size_t>(r)];
            load::net::post(w.context(), [&w, room, role, launched, source] {
                w.launch(*room, std::min(role, 2), launched, source);
            });
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{2});
    }
    int last_shown = -1;
    while (ready.load() < total && seconds_since(setup_start) < opts.connect_timeout_s) {
        std::this_thread::sleep_for(std::chrono::milliseconds{50});
        const int now_ready = ready.load();
        if (now_ready / 5000 != last_shown / 5000) {
            std::cerr << "quarto-load: " << now_ready << "/" << total << " connections set up\n";
            last_shown = now_ready;
        }
    }
    const double setup_s = seconds_since(setup_start);
    std::cerr << "quarto-load: ready: " << ready.load() << "/" << total << " connections in " << fixed(setup_s, 1)
              << " s" << std::endl;

    on_every_worker(workers, [](load::worker& w) { w.start_play(); });
    std::this_thread::sleep_for(std::chrono::duration<double>(opts.warmup_s));

    // The measured window.
    const auto server_cpu_0 = server_pid ? load::read_cpu(server_pid) : std::nullopt;
    const auto server_threads_0 = server_pid ? load::read_thread_cpu(server_pid) : std::map<std::string, load::cpu_times>{};
    const auto self_cpu_0 = load::read_cpu(0);
    const auto server_wait_0 = server_pid ? load::read_run_delay(server_pid) : std::nullopt;
    const auto self_wait_0 = load::read_run_delay(0);
    const auto window_start = std::chrono::steady_clock::now();
    on_every_worker(workers, [](load::worker& w) { w.start_window(); });
    std::this_thread::sleep_for(std::chrono::duration<double>(opts.duration_s));
    on_every_worker(workers, [](load::worker& w) { w.stop_window(); });
    const double window_s = seconds_since(window_start);
    const auto server_cpu_1 = server_pid ? load::read_cpu(server_pid) : std::nullopt;
    const auto server_threads_1 = server_pid ? load::read_thread_cpu(server_pid) : std::map<std::string, load::cpu_times>{};
    const auto self_cpu_1 = load::read_cpu(0);
    const auto server_wait_1 = server_pid ? load::read_run_delay(server_pid) : std::nullopt;
    const auto self_wait_1 = load::read_run_delay(0);
    const auto server_memory = server_pid ? load::read_memory(server_pid) : load::memory_status{};

    load::load_stats window, totals;
    on_every_worker(workers, [](load::worker& w) { w.count_rooms_away(); });
    {
        std::mutex m;
        on_every_worker(workers, [&](load::worker& w) {
            const auto win = w.window();
            const auto all = w.totals();
            std::lock_guard lock{m};
            window.merge(win);
            totals.merge(all);
        });
    }
    for (auto& w : workers) w->stop();
    for (auto& t : threads) t.join();

    // ---- report ----
    const double moves = static_cast<double>(window.moves);
    // CPU µs per move: user + system, or one of them.
    enum class part { both, user, system };
    const auto per_move_us = [&](const std::optional<load::cpu_times>& a, const std::optional<load::cpu_times>& b,
                                 part which = part::both) -> std::optional<double> {
        if (!a || !b || window.moves == 0) return std::nullopt;
        const double spent = which == part::user     ? b->user_s - a->user_s
                           : which == part::system ? b->system_s - a->system_s
                                                   : b->total() - a->total();
        return spent * 1e6 / moves;
    };
    const auto server_us = per_move_us(server_cpu_0, server_cpu_1);
    const auto server_user_us = per_move_us(server_cpu_0, server_cpu_1, part::user);
    const auto server_sys_us = per_move_us(server_cpu_0, server_cpu_1, part::system);
    // Each server thread name's CPU µs per move over the window (a thread started during it
    // counts from zero).
    std::map<std::string, std::pair<double, double>> server_threads_us; // user, system
    if (window.moves > 0)
        for (const auto& [name, end] : server_threads_1) {
            const auto it = server_threads_0.find(name);
            const load::cpu_times begin = it == server_threads_0.end() ? load::cpu_times{} : it->second;
            server_threads_us[name] = {(end.user_s - begin.user_s) * 1e6 / moves, (end.system_s - begin.system_s) * 1e6 / moves};
        }
    const auto self_us = per_move_us(self_cpu_0, self_cpu_1);
    const auto self_user_us = per_move_us(self_cpu_0, self_cpu_1, part::user);
    const auto self_sys_us = per_move_us(self_cpu_0, self_cpu_1, part::system);
    const auto cpu_share = [&](const std::optional<load::cpu_times>& a, const std::optional<load::cpu_times>& b)
        -> std::optional<double> {
        if (!a || !b) return std::nullopt;
        return (b->total() - a->total()) / window_s;
    };
    // Seconds spent waiting for a CPU per second of the window (summed over threads).
    const auto wait_share = [&](const std::optional<double>& a, const std::optional<double>& b) -> std::optional<double> {
        if (!a || !b) return std::nullopt;
        return (*b - *a) / window_s;
    };
    const auto server_wait = wait_share(server_wait_0, server_wait_1);
    const auto self_wait = wait_share(self_wait_0, self_wait_1);
    std::optional<double> rss_per_room_kib, rss_per_connection_kib;
    if (server_memory.valid && server_memory_before.valid) {
        const double grown = static_cast<double>(server_memory.rss_kib) - static_cast<double>(server_memory_before.rss_kib);
        rss_per_room_kib = grown / opts.rooms;
        rss_per_connection_kib = grown / total;
    }
    const auto& lat = window.latency;
    const auto& arrival = window.arrival_latency;
    std::optional<double> rss_before_kib, rss_kib, peak_rss_kib;
    if (server_memory_before.valid) rss_before_kib = static_cast<double>(server_memory_before.rss_kib);
    if (server_memory.valid) {
        rss_kib = static_cast<double>(server_memory.rss_kib);
        peak_rss_kib = static_cast<double>(server_memory.hwm_kib);
    }

    std::ostringstream t;
    const auto opt = [](const std::optional<double>& v, int digits, const char* unit) {
        return v ? fixed(*v, digits) + unit : std::string{"n/a"};
    };
    t << "quarto-load " << opts.url << ": " << opts.rooms << " rooms x (2 bots + " << opts.spectators
      << " spectators) = " << total << " connections, " << opts.threads << " thread(s), think " << opts.think_ms
      << (opts.think_jitter_ms ? " ± " + std::to_string(opts.think_jitter_ms) : std::string{}) << " ms, move clock "
      << (opts.move_ms ? std::to_string(*opts.move_ms) + " ms" : std::string{"untimed"})
      << (opts.idle ? ", idle hold" : "") << "\n";
    t << "  set-up                  " << ready.load() << "/" << total << " connections in " << fixed(setup_s, 1)
      << " s; measured " << fixed(window_s, 2) << " s after " << fixed(opts.warmup_s, 1) << " s warm-up\n";
    t << "  moves                   " << window.moves << " (" << fixed(moves / window_s, 0) << " moves/s; "
      << window.gives << " gives, " << window.places << " places)\n";
    t << "  games finished          " << window.games_finished << " (" << fixed(static_cast<double>(window.games_finished) / window_s, 1)
      << "/s; " << window.wins_by_quarto << " quarto, " << window.draws << " draws, " << window.other_endings << " other)\n";
    t << "  latency action->opp.    p50 " << micros(lat.percentile(50)) << " us, p90 " << micros(lat.percentile(90))
      << " us, p99 " << micros(lat.percentile(99)) << " us, max " << micros(lat.max()) << " us (" << lat.count()
      << " samples)\n";
    t << "    at arrival            p50 " << micros(arrival.percentile(50)) << " us, p90 " << micros(arrival.percentile(90))
      << " us, p99 " << micros(arrival.percentile(99)) << " us, max " << micros(arrival.max()) << " us (the kernel's receipt)\n";
    t << "  server CPU              " << opt(server_us, 2, " us/move") << " (user " << opt(server_user_us, 2, "")
      << ", system " << opt(server_sys_us, 2, "") << "; "
      << opt(cpu_share(server_cpu_0, server_cpu_1), 2, " cores") << "; waited for a CPU " << opt(server_wait, 2, " s/s")
      << ")\n";
    if (!server_threads_us.empty()) {
        t << "  server CPU by thread    us/move user + system:";
        for (const auto& [name, us] : server_threads_us) t << " " << name << " " << fixed(us.first + us.second, 2);
        t << "\n";
    }
    t << "  load generator CPU      " << opt(self_us, 2, " us/move") << " (user " << opt(self_user_us, 2, "")
      << ", system " << opt(self_sys_us, 2, "") << "; " << opt(cpu_share(self_cpu_0, self_cpu_1), 2, " cores") << "; waited for a CPU "
      << opt(self_wait, 2, " s/s") << ")\n";
    if (server_memory.valid)
        t << "  server memory           RSS " << fixed(static_cast<double>(server_memory.rss_kib) / 1024.0, 1) << " MiB (peak VmHWM "
          << fixed(static_cast<double>(server_memory.hwm_kib) / 1024.0, 1) << " MiB), "
          << opt(rss_per_room_kib, 1, " KiB/room") << ", " << opt(rss_per_connection_kib, 1, " KiB/connection")
          << " (RSS before the run " << (server_memory_before.valid ? fixed(static_cast<double>(server_memory_before.rss_kib) / 1024.0, 1) : "?") << " MiB)\n";
    else t << "  server memory           n/a (no server pid)\n";
    t << "  spectator events        " << window.spectator_events << "\n";
    t << "  messages                " << window.messages_out << " sent, " << window.messages_in << " received\n";
    std::string errors;
    for (const auto& [code, n] : totals.errors) errors += (errors.empty() ? "" : ", ") + code + " x" + std::to_string(n);
    t << "  errors received         " << (errors.empty() ? "none" : errors) << "\n";
    t << "  anomalies               seq gaps " << totals.seq_gaps << ", desyncs " << totals.desyncs << ", unreadable "
      << totals.unreadable << ", creator not in seat 0 " << totals.seat_mismatches << ", connect failures " << totals.connect_failures << ", disconnects " << totals.disconnects
      << "\n";
    for (const auto& [why, n] : totals.closes) t << "    closed: " << why << " x" << n << "\n";
    if (opts.resume) {
        const auto& pause = totals.resume_pause;
        t << "  resumed                 reconnections " << totals.reconnections << " (failed " << totals.reconnect_failures
          << "), rooms back " << totals.rooms_back << " (pause p50 " << fixed(static_cast<double>(pause.percentile(50)) / 1e6, 0)
          << " ms, max " << fixed(static_cast<double>(pause.max()) / 1e6, 0) << " ms), rooms not back " << totals.rooms_not_back
          << ", snapshots on open connections " << totals.snapshots_unasked << ", actions sent twice and refused once "
          << totals.duplicates_refused << "\n";
    }
    std::cout << t.str() << std::flush;

    if (!opts.json_path.empty()) {
        nlohmann::ordered_json j;
        const auto maybe = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
        j["url"] = opts.url;
        j["rooms"] = opts.rooms;
        j["spectators_per_room"] = opts.spectators;
        j["connections"] = total;
        j["connections_ready"] = ready.load();
        j["threads"] = opts.threads;
        j["think_ms"] = opts.think_ms;
        j["think_jitter_ms"] = opts.think_jitter_ms;
        j["move_ms"] = opts.move_ms ? nlohmann::json(*opts.move_ms) : nlohmann::json(nullptr);
        j["idle"] = opts.idle;
        j["setup_s"] = setup_s;
        j["warmup_s"] = opts.warmup_s;
        j["window_s"] = window_s;
        j["moves"] = window.moves;
        j["moves_total"] = totals.moves; // warm-up and window: for CPU measured over the whole run
        j["moves_per_s"] = moves / window_s;
        j["gives"] = window.gives;
        j["places"] = window.places;
        j["games_finished"] = window.games_finished;
        j["games_finished_total"] = totals.games_finished;
        j["games"] = {{"quarto", window.wins_by_quarto}, {"draw", window.draws}, {"other", window.other_endings}};
        const auto in_us = [](const quarto::load::histogram& h) { // a latency histogram of nanoseconds
            return nlohmann::ordered_json{{"samples", h.count()},
                                          {"p50", static_cast<double>(h.percentile(50)) / 1000.0},
                                          {"p90", static_cast<double>(h.percentile(90)) / 1000.0},
                                          {"p99", static_cast<double>(h.percentile(99)) / 1000.0},
                                          {"max", static_cast<double>(h.max()) / 1000.0},
                                          {"mean", h.mean() / 1000.0}};
        };
        j["latency_us"] = in_us(lat);
        j["arrival_latency_us"] = in_us(arrival);
        j["server_pid"] = server_pid;
        j["server_cpu_us_per_move"] = maybe(server_us); // user + system
        j["server_cpu_user_us_per_move"] = maybe(server_user_us);
        j["server_cpu_sys_us_per_move"] = maybe(server_sys_us);
        j["server_cpu_cores"] = maybe(cpu_share(server_cpu_0, server_cpu_1));
        j["server_threads_cpu_us_per_move"] = nlohmann::json::object(); // by thread name: user, system
        for (const auto& [name, us] : server_threads_us)
            j["server_threads_cpu_us_per_move"][name] = {{"user", us.first}, {"system", us.second}};
        j["server_cpu_wait_s_per_s"] = maybe(server_wait);
        j["load_cpu_us_per_move"] = maybe(self_us);
        j["load_cpu_user_us_per_move"] = maybe(self_user_us);
        j["load_cpu_sys_us_per_move"] = maybe(self_sys_us);
        j["load_cpu_wait_s_per_s"] = maybe(self_wait);
        j["load_cpu_cores"] = maybe(cpu_share(self_cpu_0, self_cpu_1));
        j["server_rss_kib_before"] = maybe(rss_before_kib);
        j["server_rss_kib"] = maybe(rss_kib);
        j["server_peak_rss_kib"] = maybe(peak_rss_kib);
        j["server_rss_kib_per_room"] = maybe(rss_per_room_kib);
        j["server_rss_kib_per_connection"] = maybe(rss_per_connection_kib);
        j["spectator_events"] = window.spectator_events;
        j["messages_sent"] = window.messages_out;
        j["messages_received"] = window.messages_in;
        j["errors"] = totals.errors;
        j["errors_total"] = [&] {
            std::uint64_t n = 0;
            for (const auto& [code, count] : totals.errors) n += count;
            return n;
        }();
        j["seq_gaps"] = totals.seq_gaps;
        j["desyncs"] = totals.desyncs;
        j["unreadable"] = totals.unreadable;
        j["seat_mismatches"] = totals.seat_mismatches;
        j["connect_failures"] = totals.connect_failures;
        j["disconnects"] = totals.disconnects;
        j["closes"] = totals.closes;
        if (opts.resume) {
            const auto& pause = totals.resume_pause;
            j["resume"] = {{"reconnections", totals.reconnections},
                           {"reconnect_failures", totals.reconnect_failures},
                           {"rooms_back", totals.rooms_back},
                           {"rooms_not_back", totals.rooms_not_back},
                           {"snapshots_unasked", totals.snapshots_unasked},
                           {"duplicates_refused", totals.duplicates_refused},
                           {"pause_ms", {{"p50", static_cast<double>(pause.percentile(50)) / 1e6},
                                         {"p99", static_cast<double>(pause.percentile(99)) / 1e6},
                                         {"max", static_cast<double>(pause.max()) / 1e6}}}};
            // Over the whole run: a game lost to a restart ends by a timeout or a resignation.
            j["games_other_total"] = totals.other_endings;
        }
        j["machine"] = load::machine_summary();
        std::ofstream out{opts.json_path};
        out << j.dump(2) << "\n";
        if (!out) {
            std::cerr << "quarto-load: cannot write " << opts.json_path << "\n";
            return 1;
        }
    }
    return 0;
}
