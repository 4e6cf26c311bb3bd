#include "config/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <thread>

#include <unistd.h>

#include <boost/asio/ip/address.hpp>

#include "config/origin.hpp"
#include "config/redis_address.hpp"

namespace quarto::server {
namespace {

template <class Number>
std::optional<Number> number(const std::string& text)
{
    Number value{};
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

std::optional<bool> boolean(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (text == "1" || text == "true" || text == "yes" || text == "on") return true;
    if (text == "0" || text == "false" || text == "no" || text == "off") return false;
    return std::nullopt;
}

// Options that take no value on the command line (--flag, or --flag=BOOL).
bool is_switch(const std::string& flag) { return flag == "--trust-proxy"; }

// Splits "a, b c" into {"a", "b", "c"}: a list in one environment variable or flag value.
std::vector<std::string> words(const std::string& text)
{
    std::vector<std::string> out;
    std::string current;
    for (const char c : text) {
        if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
            if (!current.empty()) out.push_back(std::exchange(current, {}));
        } else {
            current += c;
        }
    }
    if (!current.empty()) out.push_back(std::move(current));
    return out;
}

// The options that set a cap: a count, 0 for none.
std::optional<std::size_t*> count_option(config& c, const std::string& flag)
{
    if (flag == "--max-connections-per-address") return &c.max_connections_per_address;
    if (flag == "--max-rooms-per-address") return &c.max_rooms_per_address;
    if (flag == "--max-tournaments-per-player") return &c.max_tournaments_per_player;
    if (flag == "--max-tournaments-per-address") return &c.max_tournaments_per_address;
    if (flag == "--max-guests-per-address") return &c.max_guests_per_address;
    return std::nullopt;
}

struct parse_state {
    bool from_command_line = false;
    bool origins_from_command_line = false; // the command line's list replaces the environment's
};

enum class flag_result { applied, unknown, invalid };

// Applies one option. `name` is how the user spelled it (the flag, or the environment
// variable) for error messages.
flag_result apply(config& c, const std::string& flag, const std::string& value, const std::string& name,
                  parse_state& state, config_error& error)
{
    const auto bad = [&](std::string_view what) {
        error = config_error{name + ": " + std::string{what} + ", got '" + value + "'"};
        return flag_result::invalid;
    };

    if (flag == "--host") {
        boost::system::error_code ec;
        boost::asio::ip::make_address(value, ec);
        if (ec) return bad("an IP address (IPv4 or IPv6) is required");
        c.host = value;
    } else if (flag == "--port") {
        const auto n = number<unsigned>(value);
        if (!n || *n > 65535) return bad("a port number 0..65535 is required");
        c.port = static_cast<std::uint16_t>(*n);
    } else if (flag == "--threads") {
        const auto n = number<unsigned>(value);
        if (!n || *n > 256) return bad("a thread count 0..256 is required");
        c.threads = *n;
    } else if (flag == "--bot-threads") {
        const auto n = number<unsigned>(value);
        if (!n || *n < 1 || *n > 64) return bad("a thread count 1..64 is required");
        c.bot_threads = *n;
    } else if (flag == "--password-threads") {
        const auto n = number<unsigned>(value);
        if (!n || *n < 1 || *n > 16) return bad("a thread count 1..16 is required");
        c.password_threads = *n;
    } else if (flag == "--password-queue") {
        const auto n = number<std::size_t>(value);
        if (!n || *n < 1 || *n > 4096) return bad("a count 1..4096 is required");
        c.password_queue = *n;
    } else if (flag == "--web-root") {
        // An empty root would make every path a path from the filesystem's root.
        if (value.empty()) return bad("a directory is required");
        c.web_root = value;
    } else if (flag == "--javascript-root") {
        if (value.empty()) return bad("a directory is required");
        c.javascript_root = value;
    } else if (flag == "--log-level") {
        const auto level = spdlog::level::from_str(value);
        if (level == spdlog::level::off && value != "off") return bad("a log level is required");
        c.log_level = level;
    } else if (flag == "--max-message-bytes") {
        const auto n = number<std::size_t>(value);
        if (!n || *n < 64 || *n > (16u << 20)) return bad("a size 64..16777216 is required");
        c.max_message_bytes = *n;
    } else if (flag == "--rate-limit") {
        const auto n = number<double>(value);
        if (!n || !(*n > 0) || *n > 1e9) return bad("a positive number is required");
        c.rate_limit = *n;
    } else if (flag == "--rate-burst") {
        // A bucket smaller than one message would refuse every message.
        const auto n = number<double>(value);
        if (!n || !(*n >= 1) || *n > 1e9) return bad("a number of messages >= 1 is required");
        c.rate_burst = *n;
    } else if (flag == "--join-rate") {
        const auto n = number<double>(value);
        if (!n || !(*n > 0) || *n > 1e9) return bad("a positive number is required");
        c.join_rate = *n;
    } else if (flag == "--join-burst") {
        const auto n = number<double>(value);
        if (!n || !(*n >= 1) || *n > 1e9) return bad("a number of joins >= 1 is required");
        c.join_burst = *n;
    } else if (flag == "--room-idle-seconds") {
        const auto n = number<unsigned>(value);
        if (!n || *n < 1) return bad("a number of seconds >= 1 is required");
        c.room_idle = std::chrono::seconds{*n};
    } else if (flag == "--abandon-seconds") {
        const auto n = number<unsigned>(value);
        if (!n || *n < 1 || *n > 3600) return bad("a number of seconds 1..3600 is required");
        c.abandon_after = std::chrono::seconds{*n};
    } else if (flag == "--max-rooms-per-player") {
        // Bounded: a resuming player gets every room's snapshot at once, which must fit the
        // connection's send queue (1024 messages).
        const auto n = number<std::size_t>(value);
        if (!n || *n < 1 || *n > max_rooms_per_player_cap) return bad("a count 1..500 is required");
        c.max_rooms_per_player = *n;
    } else if (const auto cap = count_option(c, flag)) {
        const auto n = number<std::size_t>(value);
        if (!n) return bad("a count is required (0: no cap)");
        **cap = *n;
    } else if (flag == "--db") {
        if (value.empty()) return bad("a file path or a postgresql:// address is required");
        c.db_path = std::string{value};
    } else if (flag == "--redis") {
        // Never echoed: the address may hold a password.
        const auto parsed = parse_redis_address(value);
        if (const auto* problem = std::get_if<std::string>(&parsed)) {
            error = config_error{name + ": " + problem->substr(problem->find(':') + 2)};
            return flag_result::invalid;
        }
        c.redis = value;
    } else if (flag == "--node-id") {
        if (!valid_node_id(value)) return bad("1 to 64 letters, digits, '.', '_' or '-' are required");
        c.node_id = value;
    } else if (flag == "--shutdown-grace") {
        const auto n = number<double>(value);
        if (!n || !(*n >= 0) || *n > 3600) return bad("a number of seconds 0..3600 is required");
        c.shutdown_grace = std::chrono::milliseconds{std::llround(*n * 1000)};
    } else if (flag == "--allowed-origin") {
        if (state.from_command_line && !std::exchange(state.origins_from_command_line, true)) c.allowed_origins.clear();
        const auto origins = words(value);
        if (origins.empty()) return bad("an origin like https://quarto.example.org is required");
        for (const auto& origin : origins) {
            const auto normalized = normalize_origin(origin);
            if (!normalized) return bad("origins like https://quarto.example.org or http://localhost:8080 are required");
            if (std::find(c.allowed_origins.begin(), c.allowed_origins.end(), *normalized) == c.allowed_origins.end())
                c.allowed_origins.push_back(*normalized);
        }
    } else if (flag == "--trust-proxy") {
        const auto on = boolean(value);
        if (!on) return bad("true or false (1/0, yes/no, on/off) is required");
        c.trust_proxy = *on;
    } else if (flag == "--shard-migration") {
        const auto on = boolean(value);
        if (!on) return bad("on or off (true/false, 1/0, yes/no) is required");
        c.shard_migration = *on;
    } else if (flag == "--journal") {
        const auto on = boolean(value);
        if (!on) return bad("on or off (true/false, 1/0, yes/no) is required");
        c.journal = *on;
    } else if (flag == "--journal-backlog-mib") {
        const auto n = number<double>(value);
        if (!n || !(*n >= 0.001) || *n > 65536) return bad("a number of MiB 0.001..65536 is required");
        c.journal_backlog_bytes = static_cast<std::size_t>(std::llround(*n * 1024 * 1024));
    } else {
        return flag_result::unknown;
    }
    return flag_result::applied;
}

// QUARTO_SHUTDOWN_GRACE -> --shutdown-grace
std::string flag_of_variable(const std::string& variable)
{
    std::string flag = "--";
    for (const char c : std::string_view{variable}.substr(std::string_view{"QUARTO_"}.size()))
        flag += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return flag;
}

} // namespace

std::string usage_text()
{
#ifdef QUARTO_DEFAULT_WEB_ROOT
    const std::string web_root = QUARTO_DEFAULT_WEB_ROOT;
#else
    const std::string web_root = "none";
#endif
    return R"(Usage: quarto-server [options]
  --host ADDR                  IP address to listen on, IPv4 or IPv6 (default 0.0.0.0)
  --port N                     port; 0 picks a free one (default 8080)
  --threads N                  event loops (shards), one thread each, 0..256; 0 or unset: the
                               number of cores
  --bot-threads N              threads that think for the computer opponents, 1..64 (default:
                               half the event loops, 1 to 4)
  --password-threads N         threads that hash and check passwords (Argon2id, 19 MiB each
                               while hashing), 1..16 (default 1)
  --password-queue N           password checks that may wait for those threads, 1..4096;
                               past it a login is refused at once as rate_limited (default 64)
  --web-root DIR               the browser client's files, an existing directory
                               (default )" + web_root + R"()
  --javascript-root DIR        the browser libraries served at /javascript/ (default
                               /usr/share/javascript, where Debian installs them)
  --log-level LEVEL            trace, debug, info, warn, error, critical, off (default info)
  --max-message-bytes N        largest WebSocket message accepted (default 4096)
  --rate-limit N               messages per second per connection (default 20)
  --rate-burst N               messages a connection may send at once, at least 1 (default 40)
  --join-rate N                joins, leaves, renames and new rooms or tournaments per second
                               per connection, on top of --rate-limit (default 2)
  --join-burst N               of those, how many a connection may send at once, at least 1
                               (default 10)
  --room-idle-seconds N        reclaim finished or deserted rooms idle this long (default 600)
  --abandon-seconds N          a seated player gone this long from a game in progress may
                               be claimed against: the opponent wins (default 30)
  --max-connections-per-address N   cap per client address; 0 = off (default 0)
  --max-rooms-per-player N     rooms one player may be in at once, seated or watching,
                               1..500 (default 32); as many tournaments too
  --max-rooms-per-address N    open rooms created from one address (default 1000; 0 = no cap)
  --max-tournaments-per-player N   unfinished tournaments one player may direct (default 5;
                               0 = no cap)
  --max-tournaments-per-address N  unfinished tournaments created from one address (default 50;
                               0 = no cap)
  --max-guests-per-address N   guests remembered per address: past it, a new guest makes the
                               address's longest-idle guest forgotten at once (default 200;
                               0 = no cap)
  --db PATH|URL                the SQLite file that archives finished games and journals the
                               live rooms; it and its directory are created if missing
                               (default data/quarto.db); one server a file (PATH.lock).
                               Or a PostgreSQL database: postgresql://user:password@host/db
  --shutdown-grace SECONDS     on SIGTERM, SIGINT or SIGHUP, how long to let clients receive
                               what is queued and close before exiting anyway (default 5)
  --allowed-origin ORIGIN      a web page origin (https://host[:port]) allowed to open a
                               WebSocket; repeatable (default: only the request's own Host)
  --trust-proxy                take the client address from the last X-Forwarded-For entry
                               (only behind a reverse proxy that sets it)
  --shard-migration on|off     move a client that joins a room on another shard, while it
                               is in nothing else, to that shard (default on; off keeps every
                               client where it was accepted: for measuring the cross-shard path)
  --journal on|off             keep a journal of every live room in the --db store, so that
                               games in progress survive a crash or a restart (default on;
                               off: for measuring what it costs)
  --journal-backlog-mib N      how much of the journal may wait in memory while its database
                               is out of reach (default 64): past half of it new games are
                               refused (`unavailable`), past all of it the oldest is dropped
  --redis URL                  make this server a node of a cluster sharing one Redis:
                               redis://[user:password@]host[:port][/db] or
                               unix:///path/to/redis.sock (default: none, a single server)
  --node-id ID                 this node's name in the cluster: letters, digits, . _ -
                               (default: the host's name and the port, as in web1-8080)
  --help, -h                   this text

Every option can also be set in the environment: QUARTO_PORT=9000 is --port 9000,
QUARTO_TRUST_PROXY=1 is --trust-proxy, QUARTO_ALLOWED_ORIGIN takes a list separated by
spaces or commas. The command line wins over the environment.
)";
}

bool valid_node_id(std::string_view id)
{
    if (id.empty() || id.size() > 64) return false;
    return std::all_of(id.begin(), id.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
               ch == '-';
    });
}

environment quarto_environment(char** envp)
{
    environment env;
    for (char** entry = envp; entry && *entry; ++entry) {
        const std::string_view text{*entry};
        if (!text.starts_with("QUARTO_")) continue;
        const auto eq = text.find('=');
        if (eq == std::string_view::npos) continue;
        env.emplace_back(std::string{text.substr(0, eq)}, std::string{text.substr(eq + 1)});
    }
    return env;
}

std::variant<config, usage_request, config_error> parse_command_line(const std::vector<std::string>& args,
                                                                     const environment& env,
                                                                     std::vector<std::string>* ignored)
{
    config c;
#ifdef QUARTO_DEFAULT_WEB_ROOT
    c.web_root = QUARTO_DEFAULT_WEB_ROOT;
#endif
    parse_state state;
    config_error error;
    const auto skip = [&](std::string note) {
        if (ignored) ignored->push_back(std::move(note));
    };

    for (const auto& [variable, value] : env) {
        const std::string flag = flag_of_variable(variable);
        if (flag == "--help") {
            skip(variable + " names no option: ignored");
            continue;
        }
        if (value.empty()) {
            skip(variable + " is empty: ignored");
            continue;
        }
        switch (apply(c, flag, value, variable, state, error)) {
        case flag_result::applied: break;
        case flag_result::unknown: skip(variable + " names no option: ignored"); break;
        case flag_result::invalid: return error;
        }
    }

    state.from_command_line = true;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::optional<std::string> value;
        if (const auto eq = flag.find('='); eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag.resize(eq);
        }
        if (flag == "--help" || flag == "-h") return usage_request{};
        if (!flag.starts_with("--")) {
            // A switch takes its value after '=': "--trust-proxy false" leaves "false" alone here.
            const bool after_switch = i > 0 && is_switch(args[i - 1]);
            return config_error{"unexpected argument '" + flag + "'" +
                                (after_switch ? " (a switch takes a value after '=', as in " + args[i - 1] + "=" + flag + ")" : "")};
        }
        if (!value && is_switch(flag)) value = "true";
        if (!value) {
            if (i + 1 >= args.size()) return config_error{flag + " needs a value"};
            value = args[++i];
        }
        switch (apply(c, flag, *value, flag, state, error)) {
        case flag_result::applied: break;
        case flag_result::unknown: return config_error{"unknown option " + flag};
        case flag_result::invalid: return error;
        }
    }
    if (c.threads == 0) c.threads = std::max(1u, std::thread::hardware_concurrency());
    if (c.node_id.empty()) {
        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        std::string id;
        for (const char ch : std::string_view{host}) id += valid_node_id(std::string(1, ch)) ? ch : '-';
        if (id.empty()) id = "node";
        c.node_id = id.substr(0, 50) + "-" + std::to_string(c.port);
    }
    // A few threads at most: a bot's search is bounded in time, and the shards come first.
    if (c.bot_threads == 0) c.bot_threads = std::clamp(c.threads / 2, 1u, 4u);
    return c;
}

} // namespace quarto::server
