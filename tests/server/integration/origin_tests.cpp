// The WebSocket Origin check: by default only pages served under the request's own Host;
// with --allowed-origin exactly the listed origins; handshakes without Origin always.
#include <sys/wait.h>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

std::string own(unsigned short port, const std::string& host = "127.0.0.1")
{
    return host + ":" + std::to_string(port);
}

// A real WebSocket with this Origin (and Host) that says hello: throws if the handshake fails.
void greet_with(const server_process& server, const header_list& headers)
{
    ws_client ws{server.port(), headers};
    hello(ws, "Ann");
}

} // namespace

TEST_CASE("origin: a handshake without Origin (bots, tools) is accepted")
{
    server_process server;
    ws_client ws{server.port()};
    CHECK(hello(ws, "Bot")["type"] == "welcome");
}

TEST_CASE("origin: by default a page from the server's own host is accepted, scheme and case aside")
{
    server_process server;
    const auto port = server.port();
    CHECK_NOTHROW(greet_with(server, {{"Origin", "http://" + own(port)}}));
    // Behind a TLS proxy the page is https but the Host is the same.
    CHECK_NOTHROW(greet_with(server, {{"Origin", "https://" + own(port)}}));
    CHECK_NOTHROW(greet_with(server, {{"Host", own(port, "LocalHost")}, {"Origin", "HTTP://localhost:" + std::to_string(port)}}));
    CHECK_NOTHROW(greet_with(server, {{"Host", "quarto.example.org"}, {"Origin", "https://quarto.example.org"}}));
}

TEST_CASE("origin: by default another site's page is refused with 403 and a clear body, and logged")
{
    server_process server;
    const auto port = server.port();
    const http_response other = http_get(port, "/ws", websocket_upgrade({{"Origin", "https://evil.example"}}));
    CHECK(other.status == 403);
    CHECK(other.body.find("'https://evil.example'") != std::string::npos);
    CHECK(other.body.find("--allowed-origin") != std::string::npos);
    CHECK(server.wait_log("Origin 'https://evil.example' is not allowed", in(default_wait)));

    // The same host on another port is another origin; so is a sandboxed page ("null").
    CHECK(http_get(port, "/ws", websocket_upgrade({{"Origin", "http://127.0.0.1:1"}})).status == 403);
    CHECK(http_get(port, "/ws", websocket_upgrade({{"Origin", "null"}})).status == 403);
    CHECK_THROWS(greet_with(server, {{"Origin", "https://evil.example"}}));
    // The check does not disturb the server: the own origin still works.
    CHECK(http_get(port, "/ws", websocket_upgrade({{"Origin", "http://" + own(port)}})).status == 101);
}

TEST_CASE("origin: --allowed-origin accepts exactly the listed origins (host case aside)")
{
    server_process server{{"--allowed-origin", "https://quarto.example.org", "--allowed-origin=http://localhost:3000"}};
    const auto port = server.port();
    CHECK_NOTHROW(greet_with(server, {{"Origin", "https://quarto.example.org"}}));
    CHECK_NOTHROW(greet_with(server, {{"Origin", "https://Quarto.EXAMPLE.org"}}));
    CHECK_NOTHROW(greet_with(server, {{"Origin", "http://localhost:3000"}}));
    // Not listed: another scheme, another port, a subdomain, and (the list replaces the
    // default) the server's own host.
    for (const std::string& origin : std::vector<std::string>{"http://quarto.example.org", "https://quarto.example.org:8443",
                                                              "https://www.quarto.example.org", "http://" + own(port)}) {
        CAPTURE(origin);
        CHECK(http_get(port, "/ws", websocket_upgrade({{"Origin", origin}})).status == 403);
    }
    // Without Origin: still accepted.
    ws_client bot{port};
    CHECK(hello(bot, "Bot")["type"] == "welcome");
}

TEST_CASE("origin: a malformed --allowed-origin is refused at start-up")
{
    for (const char* bad : {"quarto.example.org", "ftp://quarto.example.org", "https://quarto.example.org/play",
                                  "https://host:99999", "https://"}) {
        CAPTURE(bad);
        const finished_run run = run_to_exit({"--port", "0", "--allowed-origin", bad});
        REQUIRE(run.status.has_value());
        CHECK(WIFEXITED(*run.status));
        CHECK(WEXITSTATUS(*run.status) == 2);
        CHECK(run.output.find("--allowed-origin: origins like https://quarto.example.org") != std::string::npos);
    }
}
