// Transport: frame size limit, HTTP endpoints, clean shutdown.
#include <csignal>
#include <sys/wait.h>

#include "helpers.hpp"

using namespace quarto_test;

namespace {
// A ping padded with spaces to exactly `size` bytes of JSON text.
std::string padded_ping(std::size_t size)
{
    std::string text = R"({"type":"ping","req":"big"})";
    REQUIRE(text.size() <= size);
    text.insert(text.size() - 1, size - text.size(), ' ');
    REQUIRE(text.size() == size);
    return text;
}
} // namespace

TEST_CASE("frames: exactly 4096 bytes accepted, 4097 closes with 1009")
{
    server_process server;
    player p = connect_player(server, "Ann");

    REQUIRE(p->send_text(padded_ping(4096)));
    json pong = must(p->next(), "pong to a 4096-byte frame");
    CHECK(pong["type"] == "pong");
    CHECK(pong["req"] == "big");

    p->send_text(padded_ping(4097));
    REQUIRE(p->wait_closed());
    REQUIRE_MESSAGE(p->close_code().has_value(), p->close_error());
    CHECK(*p->close_code() == 1009);

    // The server is fine afterwards.
    player q = connect_player(server, "Bob");
    q->send({{"type", "ping"}});
    CHECK(must(q->next(), "pong")["type"] == "pong");
}

TEST_CASE("frames: --max-message-bytes sets the limit")
{
    server_process server{{"--max-message-bytes", "1000"}};
    player p = connect_player(server, "Ann");
    REQUIRE(p->send_text(padded_ping(1000)));
    CHECK(must(p->next(), "pong")["type"] == "pong");
    p->send_text(padded_ping(1001));
    REQUIRE(p->wait_closed());
    REQUIRE_MESSAGE(p->close_code().has_value(), p->close_error());
    CHECK(*p->close_code() == 1009);
}

TEST_CASE("frames: the limit applies before hello too")
{
    server_process server;
    ws_client ws{server.port()};
    ws.send_text(padded_ping(5000));
    REQUIRE(ws.wait_closed());
    REQUIRE_MESSAGE(ws.close_code().has_value(), ws.close_error());
    CHECK(*ws.close_code() == 1009);
}

TEST_CASE("http: /healthz, /api/rooms and /")
{
    server_process server;
    const http_response health = http_get(server.port(), "/healthz");
    CHECK(health.status == 200);

    // One public room, one private room: only the public one is listed.
    player ann = connect_player(server, "Ann");
    json pub = create_room(*ann.ws, {{"name", "Open table"}});
    json priv = create_room(*ann.ws, {{"name", "Secret"}, {"private", true}});

    const http_response rooms = http_get(server.port(), "/api/rooms");
    CHECK(rooms.status == 200);
    CHECK(rooms.content_type.find("application/json") != std::string::npos);
    json body = json::parse(rooms.body, nullptr, false);
    REQUIRE_MESSAGE(!body.is_discarded(), rooms.body);
    // "the rooms list as JSON": a bare array or the `rooms` message.
    json list = body.is_array() ? body : body.value("rooms", json{});
    REQUIRE_MESSAGE(list.is_array(), rooms.body);
    bool saw_public = false;
    for (json r : list) {
        if (r.value("id", json{}) == pub) saw_public = true;
        CHECK(r.value("id", json{}) != priv);
    }
    CHECK_MESSAGE(saw_public, rooms.body);

    const http_response index = http_get(server.port(), "/");
    CHECK(index.status == 200);
    CHECK_MESSAGE(index.content_type.find("text/html") != std::string::npos, index.content_type);
    CHECK(!index.body.empty());

    const http_response missing = http_get(server.port(), "/no/such/file.txt");
    CHECK(missing.status == 404);
}

TEST_CASE("http: a directory of the web root is 404, and the connection serves the next request")
{
    server_process server;
    http_connection c{server.port()};
    for (const std::string target : {"/js", "/js?x=1", "/js/"}) {
        CAPTURE(target);
        const http_response dir = c.get(target);
        CHECK(dir.status == 404);
        // Kept alive: the same connection still answers.
        CHECK(c.get("/").status == 200);
    }
}

TEST_CASE("http: /ws upgrades, other paths do not")
{
    server_process server;
    CHECK_THROWS(ws_client{server.port(), "/not-ws"});
    ws_client ok{server.port(), "/ws"};
    CHECK(!ok.closed());
}

TEST_CASE("shutdown: SIGTERM closes clients with 1012 and exits 0")
{
    server_process server;
    player p = connect_player(server, "Ann");
    ::kill(server.pid(), SIGTERM);
    REQUIRE(p->wait_closed(in(milliseconds{5000})));
    CHECK(p->close_code() == std::optional<std::uint16_t>{1012});
    const std::optional<int> status = server.wait_exit();
    REQUIRE_MESSAGE(status.has_value(), "server did not exit within the grace period");
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 0);
}
