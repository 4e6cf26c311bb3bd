// X-Forwarded-For: believed only with --trust-proxy, and then only its last entry (the one our
// proxy appended); it names the client in logs and for --max-connections-per-address.
#include "helpers.hpp"

using namespace quarto_test;

namespace {

header_list forwarded_for(const std::string& value)
{
    return {{"X-Forwarded-For", value}};
}

} // namespace

TEST_CASE("proxy: without --trust-proxy, X-Forwarded-For is ignored")
{
    server_process server{{"--max-connections-per-address", "2"}};
    ws_client first{server.port(), forwarded_for("203.0.113.7")};
    ws_client second{server.port(), forwarded_for("203.0.113.8")};
    hello(first, "Ann");
    // The cap counts the TCP peer (127.0.0.1) whatever the header says.
    CHECK_THROWS(ws_client{server.port(), forwarded_for("203.0.113.9")});
    CHECK(server.wait_log("refused 127.0.0.1: --max-connections-per-address reached", in(default_wait)));
    CHECK(server.log().find("203.0.113.") == std::string::npos);
}

TEST_CASE("proxy: with --trust-proxy, the last X-Forwarded-For entry is the client")
{
    server_process server{{"--trust-proxy", "--max-connections-per-address", "1"}};
    const auto port = server.port();
    {
        // The client may send a header of its own: the proxy appends the address it saw.
        ws_client first{port, forwarded_for("198.51.100.1, 203.0.113.7")};
        hello(first, "Ann");
        CHECK(server.wait_log("ws 203.0.113.7 via 127.0.0.1:", in(default_wait)));

        // A second connection from the same client is over the cap: 429, with a clear body.
        const http_response over = http_get(port, "/ws", websocket_upgrade(forwarded_for("203.0.113.7")));
        CHECK(over.status == 429);
        CHECK(over.body.find("Too many connections") != std::string::npos);
        // Another client behind the same proxy is not.
        ws_client other{port, forwarded_for("203.0.113.8")};
        CHECK(hello(other, "Bob")["type"] == "welcome");
        // The earlier entry does not count as a client of its own.
        ws_client spoofed{port, forwarded_for("203.0.113.7, 198.51.100.1")};
        CHECK(hello(spoofed, "Cy")["type"] == "welcome");
        first.close();
    }
    // Its connection closed, the first client may connect again.
    const auto deadline = in(default_wait);
    bool reconnected = false;
    while (!reconnected && steady::now() < deadline) {
        reconnected = http_get(port, "/ws", websocket_upgrade(forwarded_for("203.0.113.7"))).status == 101;
        if (!reconnected) std::this_thread::sleep_for(milliseconds{20}); // the server notices the close asynchronously
    }
    CHECK(reconnected);
}

TEST_CASE("proxy: with --trust-proxy, a missing or unreadable X-Forwarded-For falls back to the TCP peer")
{
    server_process server{{"--trust-proxy"}};
    ws_client plain{server.port()};
    hello(plain, "Ann");
    ws_client garbage{server.port(), forwarded_for("203.0.113.7, not-an-address")};
    hello(garbage, "Bob");
    CHECK(server.wait_log("ws 127.0.0.1:", in(default_wait)));
    CHECK(server.log().find("203.0.113.7") == std::string::npos);
    CHECK(server.log().find(" via ") == std::string::npos);
}
