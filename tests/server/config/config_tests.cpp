// The command line and its QUARTO_* environment twins.
#include <doctest/doctest.h>

#include "config/config.hpp"

using namespace quarto::server;

namespace {

config parsed(const std::vector<std::string>& args, const environment& env = {},
              std::vector<std::string>* ignored = nullptr)
{
    auto result = parse_command_line(args, env, ignored);
    if (const auto* error = std::get_if<config_error>(&result)) FAIL("unexpected error: " << error->message);
    REQUIRE(std::holds_alternative<config>(result));
    return std::get<config>(result);
}

std::string error_of(const std::vector<std::string>& args, const environment& env = {})
{
    auto result = parse_command_line(args, env);
    REQUIRE(std::holds_alternative<config_error>(result));
    return std::get<config_error>(result).message;
}

} // namespace

TEST_CASE("config: defaults of the deployment options")
{
    const config c = parsed({});
    CHECK(c.shutdown_grace == std::chrono::milliseconds{5000});
    CHECK(c.allowed_origins.empty());
    CHECK_FALSE(c.trust_proxy);
}

TEST_CASE("config: the caps on what a player or an address holds")
{
    const config defaults = parsed({});
    CHECK(defaults.max_rooms_per_player == 32);
    CHECK(defaults.max_rooms_per_address == 1000);
    CHECK(defaults.max_tournaments_per_player == 5);
    CHECK(defaults.max_tournaments_per_address == 50);
    CHECK(defaults.max_guests_per_address == 200);
    const config c = parsed({"--max-rooms-per-player", "500", "--max-rooms-per-address", "0", "--max-tournaments-per-player",
                             "1", "--max-tournaments-per-address=2", "--max-guests-per-address", "0"});
    CHECK(c.max_rooms_per_player == 500);
    CHECK(c.max_rooms_per_address == 0);
    CHECK(c.max_tournaments_per_player == 1);
    CHECK(c.max_tournaments_per_address == 2);
    CHECK(c.max_guests_per_address == 0);
    CHECK(parsed({}, {{"QUARTO_MAX_ROOMS_PER_ADDRESS", "9"}}).max_rooms_per_address == 9);
    // A player's rooms must all fit one resume: never uncapped.
    CHECK(error_of({"--max-rooms-per-player", "0"}) == "--max-rooms-per-player: a count 1..500 is required, got '0'");
    CHECK(error_of({"--max-rooms-per-player", "501"}).starts_with("--max-rooms-per-player:"));
    CHECK(error_of({"--max-guests-per-address", "-1"}).starts_with("--max-guests-per-address: a count is required"));
    // Every snapshot, the welcome and resumed_all, in one send queue.
    CHECK(max_rooms_per_player_cap * 2 + 2 <= 1024);
}

TEST_CASE("config: --journal-backlog-mib takes MiB, fractions included, 64 by default")
{
    CHECK(parsed({}).journal_backlog_bytes == std::size_t{64} << 20);
    CHECK(parsed({"--journal-backlog-mib", "1"}).journal_backlog_bytes == std::size_t{1} << 20);
    CHECK(parsed({"--journal-backlog-mib", "0.5"}).journal_backlog_bytes == std::size_t{512} << 10);
    CHECK(error_of({"--journal-backlog-mib", "0"}) == "--journal-backlog-mib: a number of MiB 0.001..65536 is required, got '0'");
    CHECK(error_of({"--journal-backlog-mib", "lots"}) ==
          "--journal-backlog-mib: a number of MiB 0.001..65536 is required, got 'lots'");
}

TEST_CASE("config: --shutdown-grace takes seconds, fractions included, 0..3600")
{
    CHECK(parsed({"--shutdown-grace", "0"}).shutdown_grace == std::chrono::milliseconds{0});
    CHECK(parsed({"--shutdown-grace", "1.5"}).shutdown_grace == std::chrono::milliseconds{1500});
    CHECK(parsed({"--shutdown-grace=3600"}).shutdown_grace == std::chrono::milliseconds{3'600'000});
    CHECK(error_of({"--shutdown-grace", "-1"}) == "--shutdown-grace: a number of seconds 0..3600 is required, got '-1'");
    CHECK(error_of({"--shutdown-grace", "3601"}).starts_with("--shutdown-grace:"));
    CHECK(error_of({"--shutdown-grace", "soon"}).starts_with("--shutdown-grace:"));
    CHECK(error_of({"--shutdown-grace"}) == "--shutdown-grace needs a value");
}

TEST_CASE("config: --trust-proxy is a switch, or takes a boolean after '='")
{
    CHECK(parsed({"--trust-proxy"}).trust_proxy);
    CHECK(parsed({"--trust-proxy", "--port", "9000"}).trust_proxy);
    CHECK(parsed({"--trust-proxy", "--port", "9000"}).port == 9000);
    CHECK_FALSE(parsed({"--trust-proxy=no"}).trust_proxy);
    CHECK(parsed({"--trust-proxy=ON"}).trust_proxy);
    CHECK(error_of({"--trust-proxy=maybe"}).starts_with("--trust-proxy: true or false"));
    // Its value after a space is no value of it, and says how to give one.
    CHECK(error_of({"--trust-proxy", "false"}) ==
          "unexpected argument 'false' (a switch takes a value after '=', as in --trust-proxy=false)");
    CHECK(error_of({"--port", "9000", "extra"}) == "unexpected argument 'extra'");
}

TEST_CASE("config: values that would leave the server serving or answering nothing sensible are refused")
{
    // An empty root would make every path one from the filesystem's root.
    CHECK(error_of({"--web-root", ""}) == "--web-root: a directory is required, got ''");
    CHECK(error_of({"--web-root="}) == "--web-root: a directory is required, got ''");
    CHECK(error_of({"--javascript-root", ""}) == "--javascript-root: a directory is required, got ''");
    CHECK(parsed({"--javascript-root", "/opt/js"}).javascript_root == "/opt/js");
    CHECK(parsed({"--port", "9000"}).javascript_root == "/usr/share/javascript");
    // A bucket of less than one message refuses every message.
    CHECK(error_of({"--rate-burst", "0.5"}) == "--rate-burst: a number of messages >= 1 is required, got '0.5'");
    CHECK(parsed({"--rate-burst", "1"}).rate_burst == 1);
    CHECK(parsed({"--rate-limit", "0.5"}).rate_limit == 0.5);
    // A host name is not resolved: the address to listen on is one of the machine's.
    CHECK(error_of({"--host", "localhost"}) == "--host: an IP address (IPv4 or IPv6) is required, got 'localhost'");
    CHECK(error_of({"--host", "999.1.1.1"}).starts_with("--host: an IP address"));
    CHECK(parsed({"--host", "::1"}).host == "::1");
    CHECK(parsed({"--host", "127.0.0.1"}).host == "127.0.0.1");
}

TEST_CASE("config: --join-rate and --join-burst, 2 a second and 10 by default, validated as the message rate")
{
    const config defaults = parsed({});
    CHECK(defaults.join_rate == 2);
    CHECK(defaults.join_burst == 10);
    const config raised = parsed({"--join-rate", "50", "--join-burst=200"});
    CHECK(raised.join_rate == 50);
    CHECK(raised.join_burst == 200);
    CHECK(parsed({"--join-rate", "0.25"}).join_rate == 0.25);
    CHECK(parsed({"--join-burst", "1"}).join_burst == 1);
    const config from_env = parsed({}, {{"QUARTO_JOIN_RATE", "7.5"}, {"QUARTO_JOIN_BURST", "30"}});
    CHECK(from_env.join_rate == 7.5);
    CHECK(from_env.join_burst == 30);
    CHECK(parsed({"--join-burst", "12"}, {{"QUARTO_JOIN_BURST", "30"}}).join_burst == 12);
    CHECK(error_of({"--join-rate", "0"}) == "--join-rate: a positive number is required, got '0'");
    CHECK(error_of({"--join-rate", "-1"}).starts_with("--join-rate: a positive number is required"));
    CHECK(error_of({"--join-rate", "fast"}).starts_with("--join-rate: a positive number is required"));
    // A bucket of less than one join refuses every join.
    CHECK(error_of({"--join-burst", "0.5"}) == "--join-burst: a number of joins >= 1 is required, got '0.5'");
    CHECK(error_of({}, {{"QUARTO_JOIN_BURST", "0"}}) == "QUARTO_JOIN_BURST: a number of joins >= 1 is required, got '0'");
    const std::string help = usage_text();
    CHECK(help.find("--join-rate N") != std::string::npos);
    CHECK(help.find("--join-burst N") != std::string::npos);
}

TEST_CASE("config: --allowed-origin is repeatable, normalized, deduplicated")
{
    const config c = parsed({"--allowed-origin", "HTTPS://Quarto.Example.org/", "--allowed-origin",
                             "http://localhost:3000,https://quarto.example.org"});
    CHECK(c.allowed_origins == std::vector<std::string>{"https://quarto.example.org", "http://localhost:3000"});
    CHECK(error_of({"--allowed-origin", "quarto.example.org"})
              .starts_with("--allowed-origin: origins like https://quarto.example.org"));
    CHECK(error_of({"--allowed-origin", ""}).starts_with("--allowed-origin: an origin"));
}

TEST_CASE("config: QUARTO_SOME_FLAG is --some-flag")
{
    const config c = parsed({}, {{"QUARTO_PORT", "9000"},
                                 {"QUARTO_SHUTDOWN_GRACE", "2"},
                                 {"QUARTO_MAX_CONNECTIONS_PER_ADDRESS", "7"},
                                 {"QUARTO_TRUST_PROXY", "1"},
                                 {"QUARTO_ALLOWED_ORIGIN", "https://a.example https://b.example"}});
    CHECK(c.port == 9000);
    CHECK(c.shutdown_grace == std::chrono::milliseconds{2000});
    CHECK(c.max_connections_per_address == 7);
    CHECK(c.trust_proxy);
    CHECK(c.allowed_origins == std::vector<std::string>{"https://a.example", "https://b.example"});
}

TEST_CASE("config: the command line wins, and its origin list replaces the environment's")
{
    const config c = parsed({"--port", "9001", "--allowed-origin", "https://c.example", "--trust-proxy=false"},
                            {{"QUARTO_PORT", "9000"}, {"QUARTO_ALLOWED_ORIGIN", "https://a.example"}, {"QUARTO_TRUST_PROXY", "true"}});
    CHECK(c.port == 9001);
    CHECK(c.allowed_origins == std::vector<std::string>{"https://c.example"});
    CHECK_FALSE(c.trust_proxy);
}

TEST_CASE("config: a bad environment value is an error naming the variable")
{
    CHECK(error_of({}, {{"QUARTO_PORT", "eighty"}}) == "QUARTO_PORT: a port number 0..65535 is required, got 'eighty'");
    CHECK(error_of({}, {{"QUARTO_TRUST_PROXY", "sure"}}).starts_with("QUARTO_TRUST_PROXY: true or false"));
}

TEST_CASE("config: unknown or empty QUARTO_ variables are ignored and reported")
{
    std::vector<std::string> ignored;
    const config c = parsed({}, {{"QUARTO_SERVER_BIN", "/x"}, {"QUARTO_HELP", "1"}, {"QUARTO_PORT", ""}}, &ignored);
    CHECK(c.port == 8080);
    CHECK(ignored == std::vector<std::string>{"QUARTO_SERVER_BIN names no option: ignored",
                                              "QUARTO_HELP names no option: ignored", "QUARTO_PORT is empty: ignored"});
    // On the command line an unknown option is still an error.
    CHECK(error_of({"--server-bin", "/x"}) == "unknown option --server-bin");
}

TEST_CASE("config: quarto_environment picks the QUARTO_ variables")
{
    std::string a = "QUARTO_PORT=1", b = "HOME=/root", c = "QUARTO_EMPTY=", d = "QUARTO_X=a=b";
    char* envp[] = {a.data(), b.data(), c.data(), d.data(), nullptr};
    CHECK(quarto_environment(envp) == environment{{"QUARTO_PORT", "1"}, {"QUARTO_EMPTY", ""}, {"QUARTO_X", "a=b"}});
}

TEST_CASE("config: --help lists the deployment options and the environment")
{
    const std::string text = usage_text();
    for (const char* flag : {"--shutdown-grace", "--allowed-origin", "--trust-proxy", "QUARTO_PORT"}) {
        CAPTURE(flag);
        CHECK(text.find(flag) != std::string::npos);
    }
}

TEST_CASE("config: --bot-threads, 1..64, by default half the event loops from 1 to 4")
{
    CHECK(parsed({"--threads", "2"}).bot_threads == 1);
    CHECK(parsed({"--threads", "8"}).bot_threads == 4);
    CHECK(parsed({"--threads", "16"}).bot_threads == 4);
    CHECK(parsed({"--threads", "1"}).bot_threads == 1);
    CHECK(parsed({"--threads", "2", "--bot-threads", "3"}).bot_threads == 3);
    CHECK(parsed({}, {{"QUARTO_BOT_THREADS", "2"}}).bot_threads == 2);
    CHECK(error_of({"--bot-threads", "0"}) == "--bot-threads: a thread count 1..64 is required, got '0'");
    CHECK(error_of({"--bot-threads", "65"}).starts_with("--bot-threads:"));
}

TEST_CASE("config: --password-threads 1..16 (default 1) and --password-queue 1..4096 (default 64)")
{
    const config defaults = parsed({});
    CHECK(defaults.password_threads == 1);
    CHECK(defaults.password_queue == 64);
    CHECK(parsed({"--password-threads", "16"}).password_threads == 16);
    CHECK(parsed({"--password-threads=2"}).password_threads == 2);
    CHECK(parsed({}, {{"QUARTO_PASSWORD_THREADS", "3"}}).password_threads == 3);
    CHECK(parsed({"--password-queue", "1"}).password_queue == 1);
    CHECK(parsed({}, {{"QUARTO_PASSWORD_QUEUE", "4096"}}).password_queue == 4096);
    CHECK(error_of({"--password-threads", "0"}) == "--password-threads: a thread count 1..16 is required, got '0'");
    CHECK(error_of({"--password-threads", "17"}).starts_with("--password-threads:"));
    CHECK(error_of({"--password-threads", "two"}).starts_with("--password-threads:"));
    CHECK(error_of({"--password-queue", "0"}) == "--password-queue: a count 1..4096 is required, got '0'");
    CHECK(error_of({"--password-queue", "4097"}).starts_with("--password-queue:"));
    const std::string text = usage_text();
    CHECK(text.find("--password-threads N") != std::string::npos);
    CHECK(text.find("--password-queue N") != std::string::npos);
}

TEST_CASE("config: --redis makes a node, --node-id names it, by default after the host and the port")
{
    const config single = parsed({"--port", "9000"});
    CHECK(single.redis.empty());
    CHECK(single.node_id.ends_with("-9000"));
    CHECK(valid_node_id(single.node_id));

    const config node = parsed({"--redis", "redis://:pw@cache:6380/1", "--node-id", "web-1.eu_west"});
    CHECK(node.redis == "redis://:pw@cache:6380/1");
    CHECK(node.node_id == "web-1.eu_west");
    CHECK(parsed({}, {{"QUARTO_REDIS", "unix:///run/redis.sock"}, {"QUARTO_NODE_ID", "n2"}}).node_id == "n2");

    // The address's problem, never the address (it may hold a password).
    const std::string bad = error_of({"--redis", "redis://:hunter2@cache:70000"});
    CHECK(bad == "--redis: the port is a number from 1 to 65535");
    CHECK(error_of({}, {{"QUARTO_REDIS", "memcached://x"}}).starts_with("QUARTO_REDIS: expected redis://"));

    CHECK(error_of({"--node-id", "a/b"}).starts_with("--node-id: 1 to 64 letters"));
    CHECK(error_of({"--node-id", std::string(65, 'n')}).starts_with("--node-id:"));
    CHECK(valid_node_id(std::string(64, 'n')));
}
