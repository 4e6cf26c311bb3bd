// QUARTO_* environment variables stand in for long flags; the command line wins.
#include <sys/wait.h>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

// A ping padded with spaces to exactly `size` bytes.
std::string ping_of_size(std::size_t size)
{
    std::string text = R"({"type":"ping"})";
    text.insert(text.size() - 1, size - text.size(), ' ');
    return text;
}

} // namespace

TEST_CASE("environment: QUARTO_MAX_MESSAGE_BYTES sets --max-message-bytes")
{
    server_process server{{}, {"QUARTO_MAX_MESSAGE_BYTES=1000"}};
    player p = connect_player(server, "Ann");
    REQUIRE(p->send_text(ping_of_size(1000)));
    CHECK(must(p->next(), "pong")["type"] == "pong");
    p->send_text(ping_of_size(1001));
    REQUIRE(p->wait_closed());
    CHECK(p->close_code() == std::optional<std::uint16_t>{1009});
}

TEST_CASE("environment: the command line wins over the environment")
{
    server_process server{{"--max-message-bytes", "2000"}, {"QUARTO_MAX_MESSAGE_BYTES=1000"}};
    player p = connect_player(server, "Ann");
    REQUIRE(p->send_text(ping_of_size(1500)));
    CHECK(must(p->next(), "pong")["type"] == "pong");
}

TEST_CASE("environment: QUARTO_TRUST_PROXY and QUARTO_ALLOWED_ORIGIN (a list)")
{
    server_process server{{}, {"QUARTO_TRUST_PROXY=yes", "QUARTO_ALLOWED_ORIGIN=https://a.example, https://b.example"}};
    const auto port = server.port();
    CHECK(http_get(port, "/ws", websocket_upgrade({{"Origin", "https://a.example"}})).status == 101);
    CHECK(http_get(port, "/ws", websocket_upgrade({{"Origin", "https://b.example"}})).status == 101);
    CHECK(http_get(port, "/ws", websocket_upgrade({{"Origin", "https://c.example"}})).status == 403);
    ws_client ws{port, {{"X-Forwarded-For", "203.0.113.7"}}};
    hello(ws, "Ann");
    CHECK(server.wait_log("ws 203.0.113.7 via", in(default_wait)));
}

TEST_CASE("environment: a bad value is refused, naming the variable")
{
    const finished_run run = run_to_exit({"--port", "0"}, {"QUARTO_RATE_LIMIT=fast"});
    REQUIRE(run.status.has_value());
    CHECK(WIFEXITED(*run.status));
    CHECK(WEXITSTATUS(*run.status) == 2);
    CHECK(run.output.find("QUARTO_RATE_LIMIT: a positive number is required, got 'fast'") != std::string::npos);
}

TEST_CASE("environment: QUARTO_ variables that name no option are ignored, with a debug note")
{
    server_process server{{"--log-level", "debug"}, {"QUARTO_NO_SUCH_OPTION=1", "QUARTO_PORT="}};
    CHECK(http_get(server.port(), "/healthz").status == 200);
    CHECK(server.wait_log("QUARTO_NO_SUCH_OPTION names no option: ignored", in(default_wait)));
    CHECK(server.wait_log("QUARTO_PORT is empty: ignored", in(default_wait)));
}
