// Session: hello/welcome, ping/pong, req echo, hello_required, unknown_token, rate limiting.
#include <chrono>

#include "helpers.hpp"

using namespace quarto_test;

TEST_CASE("session: hello gets welcome with id, name, secret token, protocol 1 and req")
{
    server_process server;
    ws_client ws{server.port()};
    ws.send({{"type", "hello"}, {"name", "Ann"}, {"req", 7}});
    json w = must(ws.next(), "welcome");
    CHECK(w["type"] == "welcome");
    CHECK(w["name"] == "Ann");
    CHECK(w["protocol"] == 1);
    CHECK(w["req"] == 7);
    CHECK((w["player"].is_string() || w["player"].is_number_integer()));
    REQUIRE(w["token"].is_string());
    // 128 bits or more: at least 22 characters even in base64.
    CHECK(w["token"].get<std::string>().size() >= 22);

    ws_client other{server.port()};
    other.send({{"type", "hello"}, {"name", "Bob"}});
    json w2 = must(other.next(), "welcome");
    CHECK(w2["player"] != w["player"]);
    CHECK(w2["token"] != w["token"]);
    CHECK(!w2.contains("req"));
}

TEST_CASE("session: ping gets pong with the server's epoch time and req")
{
    server_process server;
    player p = connect_player(server, "Ann");
    p->send({{"type", "ping"}, {"req", "p1"}});
    json pong = must(p->next(), "pong");
    CHECK(pong["type"] == "pong");
    CHECK(pong["req"] == "p1");
    REQUIRE(pong["time_ms"].is_number());
    const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    const auto server_ms = pong["time_ms"].get<long long>();
    CHECK(server_ms > now_ms - 60'000);
    CHECK(server_ms < now_ms + 60'000);
}

TEST_CASE("session: anything but hello first is hello_required, with req, and the connection stays")
{
    server_process server;
    ws_client ws{server.port()};
    for (json m : {json{{"type", "list_rooms"}, {"req", 1}}, json{{"type", "ping"}, {"req", 2}},
                          json{{"type", "create_room"}, {"req", 3}},
                          json{{"type", "join"}, {"room", "x"}, {"as", "player"}, {"req", 4}}}) {
        CAPTURE(m.dump());
        ws.send(m);
        json e = must(ws.next(), "error");
        CHECK(e["type"] == "error");
        CHECK(e["code"] == "hello_required");
        CHECK(e["req"] == m["req"]);
        CHECK(e["message"].is_string());
    }
    CHECK(!ws.closed());
    CHECK(hello(ws, "Ann")["type"] == "welcome");
}

TEST_CASE("session: before hello, the checks run in PROTOCOL.md's order: what is not a message is bad_message")
{
    server_process server;
    ws_client ws{server.port()};
    struct expected {
        json sent;
        std::string code;
        json req;
    };
    const std::vector<expected> cases{
        {json::array({1}), "bad_message", nullptr},                                         // not an object
        {{{"type", "ping"}, {"req", true}}, "bad_message", nullptr},                         // a bad req
        {{{"type", "hello"}, {"name", "x"}, {"req", json::object()}}, "bad_message", nullptr}, // a hello's bad req
        {{{"req", 3}}, "bad_message", 3},                                                    // no type
        {{{"type", 7}, {"req", "t"}}, "bad_message", "t"},                                   // a type not a string
        {{{"type", "hello"}, {"name", ""}, {"req", 4}}, "bad_message", 4},                   // a hello's bad field
        {{{"type", "no_such_type"}, {"req", 5}}, "hello_required", 5},                       // then hello first
        {{{"type", "join"}, {"req", 6}}, "hello_required", 6},                               // before its fields
    };
    for (const auto& c : cases) {
        CAPTURE(c.sent.dump());
        ws.send(c.sent);
        const json e = must(ws.next(), "error");
        CHECK(e["code"] == c.code);
        CHECK(e.value("req", json{}) == c.req);
    }
    CHECK(!ws.closed());
    CHECK(hello(ws, "Ann")["type"] == "welcome");
}

TEST_CASE("session: hello with an unknown token is unknown_token")
{
    server_process server;
    ws_client ws{server.port()};
    ws.send({{"type", "hello"}, {"token", "00000000000000000000000000000000"}, {"req", "t"}});
    json e = must(ws.next(), "error");
    CHECK(e["type"] == "error");
    CHECK(e["code"] == "unknown_token");
    CHECK(e["req"] == "t");
    CHECK(!ws.closed());
}

TEST_CASE("session: hello with the token resumes the same player")
{
    server_process server;
    player p = connect_player(server, "Ann");
    p->close();
    ws_client again{server.port()};
    again.send({{"type", "hello"}, {"token", p.token}, {"req", 1}});
    json w = must(again.next(), "welcome");
    CHECK(w["type"] == "welcome");
    CHECK(w["player"] == p.id);
    CHECK(w["name"] == "Ann");
    CHECK(w["req"] == 1);
}

TEST_CASE("session: a burst of 60 messages gets some rate_limited and the connection stays open")
{
    server_process server;
    // The bucket (burst 40, 20 tokens/s) starts full when the connection opens, after this.
    const auto opened_before = steady::now();
    player p = connect_player(server, "Ann");
    for (int i = 0; i < 60; ++i) REQUIRE(p->send({{"type", "ping"}, {"req", i}}));
    int pongs = 0, limited = 0;
    for (int i = 0; i < 60; ++i) {
        json m = must(p->next(), "reply " + std::to_string(i));
        CHECK(m["req"] == i); // replies come in order, each echoing its req
        if (m["type"] == "pong") ++pongs;
        if (m["type"] == "error") {
            CHECK(m["code"] == "rate_limited");
            ++limited;
        }
    }
    // The server judged every message within `elapsed`: it can have accepted at most the 40
    // tokens it started with plus 20 per second since, hello included. How many that is
    // depends on the machine's speed, so the bound is computed, not assumed: under a second
    // (any unloaded machine) it leaves at least one message refused.
    const double elapsed = std::chrono::duration<double>(steady::now() - opened_before).count();
    INFO("the connection, hello and 60 pings took " << elapsed << " s");
    CHECK(pongs >= 39);                        // the burst: 40 tokens, one spent on hello
    CHECK(1 + pongs <= 40 + 20 * elapsed + 1e-6); // and no more than the refill since
    CHECK(pongs + limited == 60);
    if (elapsed < 1.0) CHECK(limited >= 1);
    CHECK(!p->closed());
    // The bucket refills at 20/s: 250 ms later there are tokens again.
    p->pump(milliseconds{250});
    CHECK(p->pending().empty());
    p->send({{"type", "ping"}, {"req", "after"}});
    json later = must(p->next(), "pong after refill");
    CHECK(later["type"] == "pong");
    CHECK(later["req"] == "after");
}

TEST_CASE("session: --rate-limit and --rate-burst raise the bucket")
{
    server_process server{{"--rate-limit", "1000", "--rate-burst", "1000"}};
    player p = connect_player(server, "Bot");
    for (int i = 0; i < 100; ++i) REQUIRE(p->send({{"type", "ping"}, {"req", i}}));
    for (int i = 0; i < 100; ++i) {
        json m = must(p->next(), "pong " + std::to_string(i));
        CHECK(m["type"] == "pong");
        CHECK(m["req"] == i);
    }
}

TEST_CASE("session: sustained flooding (thousands of rejected messages) closes with 1008")
{
    server_process server;
    player p = connect_player(server, "Flood");
    int sent = 0;
    for (; sent < 20000 && !p->closed(); ++sent)
        if (!p->send({{"type", "ping"}})) break;
    REQUIRE_MESSAGE(p->wait_closed(in(milliseconds{5000})), "still open after " << sent << " messages");
    CHECK_MESSAGE(p->close_code() == std::optional<std::uint16_t>{1008}, p->close_error());
    MESSAGE("closed after " << sent << " messages");
}

TEST_CASE("session: rename keeps the player - same id, token, seat and tournament - and everyone sees the new name")
{
    server_process server{{"--threads", "4"}}; // the room and the tournament may live on other shards
    duel d = start_duel(server);
    player& ann = d.creator;
    ann->send({{"type", "create_tournament"}, {"name", "Ann's cup"}, {"format", "round_robin"}});
    const json tournament = must(ann->wait_type("tournament_created"), "tournament_created")["tournament"];
    must(ann->wait_type("tournament"), "tournament");
    // A second tab of Ann's, open before the rename.
    ws_client tab{server.port()};
    tab.send({{"type", "hello"}, {"token", ann.token}});
    must(tab.wait_type("welcome"), "welcome");
    must(tab.wait_type("tournament"), "tournament");

    ann->send({{"type", "rename"}, {"name", " Annabel "}, {"req", "n1"}});
    const json reply = must(ann->wait_type("renamed"), "renamed");
    CHECK(reply["player"] == ann.id);
    CHECK(reply["name"] == "Annabel");
    CHECK(reply["req"] == "n1");
    const json seen = must(d.joiner->wait_type("player_renamed"), "player_renamed");
    CHECK(seen["room"] == d.room);
    CHECK(seen["seat"] == 0);
    CHECK(seen["player"] == json{{"id", ann.id}, {"name", "Annabel"}});
    const json table = must(ann->wait_type("tournament"), "tournament");
    CHECK(table["tournament"] == tournament);
    CHECK(table["director_name"] == "Annabel");

    d.joiner->send({{"type", "list_rooms"}});
    const json rooms = must(d.joiner->wait_type("rooms"), "rooms");
    REQUIRE(rooms["rooms"].size() == 1);
    CHECK(rooms["rooms"][0]["players"][0] == "Annabel");

    // The other tab makes a room: it bears the new name.
    tab.send({{"type", "create_room"}, {"req", "c"}});
    must(tab.wait_type("room_created"), "room_created");
    const json made = must(tab.wait_type("room"), "room");
    CHECK(made["name"] == "Annabel's room");
    CHECK(made["players"][0]["name"] == "Annabel");

    // The token is the same player, with the new name.
    ws_client later{server.port()};
    later.send({{"type", "hello"}, {"token", ann.token}});
    const json welcome = must(later.wait_type("welcome"), "welcome");
    CHECK(welcome["player"] == ann.id);
    CHECK(welcome["name"] == "Annabel");

    ann->send({{"type", "rename"}, {"name", ""}, {"req", "bad"}});
    const json error = must(ann->wait_type("error"), "error");
    CHECK(error["code"] == "bad_message");
    CHECK(error["req"] == "bad");
}
