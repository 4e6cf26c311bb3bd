// Every error code of the contract, each echoing `req`, the connection staying open, and the
// game unchanged afterwards.
#include "helpers.hpp"

using namespace quarto_test;

namespace {

// Sends `message` with `req` and expects the next message to be error `code` echoing it.
void expect_error(ws_client& ws, json message, const std::string& code, const json& req)
{
    message["req"] = req;
    CAPTURE(message.dump());
    REQUIRE(ws.send(message));
    json e = must(ws.wait_for([](json m) { return m["type"] == "error"; }), "error " + code);
    CHECK(e["code"] == code);
    CHECK(e["req"] == req);
    CHECK(e["message"].is_string());
    CHECK(!ws.closed());
}

// A room id of the server's type that is not in use.
json unused_room_id(const json& example)
{
    if (example.is_number_integer()) return 987654321;
    return "no-such-room-zz9";
}

} // namespace

TEST_CASE("errors: bad_json keeps the connection open")
{
    server_process server;
    player p = connect_player(server, "Ann");
    for (const std::string& text : {std::string{"{not json"}, std::string{""}, std::string{"\"just a string\"x"},
                                    std::string{"{\"type\":\"ping\""}}) {
        CAPTURE(text);
        REQUIRE(p->send_text(text));
        json e = must(p->next(), "bad_json");
        CHECK(e["type"] == "error");
        CHECK(e["code"] == "bad_json");
        CHECK(!e.contains("req")); // nothing to echo
    }
    p->send({{"type", "ping"}, {"req", 1}});
    CHECK(must(p->next(), "pong")["type"] == "pong");
}

TEST_CASE("errors: text that is not UTF-8 closes the connection with 1007, after hello too")
{
    // RFC 6455 section 8.1 (conformance_tests.cpp writes more cases as raw frames).
    server_process server;
    // A lone continuation byte, an overlong encoding of '/', a surrogate, and a truncated
    // sequence at the end, each inside an otherwise valid message.
    for (const std::string& text : {std::string{"{\"type\":\"ping\",\"req\":\"\x80\"}"},
                                    std::string{"{\"type\":\"ping\",\"req\":\"\xC0\xAF\"}"},
                                    std::string{"{\"type\":\"ping\",\"req\":\"\xED\xA0\x80\"}"},
                                    std::string{"{\"type\":\"ping\",\"req\":\"\xE2\x82"}}) {
        player p = connect_player(server, "Ann");
        REQUIRE(p->send_text(text));
        REQUIRE(p->wait_closed());
        CHECK(p->close_code() == std::optional<std::uint16_t>{1007});
        CHECK(p->close_reason() == "invalid UTF-8");
    }
    // The server goes on.
    player q = connect_player(server, "Bob");
    q->send({{"type", "ping"}, {"req", "still here"}});
    CHECK(must(q->next(), "pong")["req"] == "still here");
}

TEST_CASE("errors: binary frames are answered bad_message and count against the rate limit")
{
    server_process server;
    const auto opened_before = steady::now();
    player p = connect_player(server, "Ann");
    // The bucket holds 40 (one spent on hello) and refills 20 a second: 60 binary frames in a
    // burst cannot all be answered bad_message; the rest are rate_limited, and the connection
    // stays open.
    for (int i = 0; i < 60; ++i) REQUIRE(p->send_binary(std::string(8, static_cast<char>(i))));
    int bad = 0, limited = 0;
    for (int i = 0; i < 60; ++i) {
        const json m = must(p->next(), "reply " + std::to_string(i));
        REQUIRE(m["type"] == "error");
        if (m["code"] == "bad_message") ++bad;
        else if (m["code"] == "rate_limited") ++limited;
    }
    const double elapsed = std::chrono::duration<double>(steady::now() - opened_before).count();
    INFO("the connection, hello and 60 frames took " << elapsed << " s");
    CHECK(bad + limited == 60);
    CHECK(1 + bad <= 40 + 20 * elapsed + 1e-6);
    if (elapsed < 1.0) CHECK(limited >= 1);
    CHECK_FALSE(p->closed());
}

TEST_CASE("errors: bad_json before hello")
{
    server_process server;
    ws_client ws{server.port()};
    ws.send_text("][");
    json e = must(ws.next(), "bad_json");
    CHECK(e["code"] == "bad_json");
}

TEST_CASE("errors: unknown_type and messages that are not objects")
{
    server_process server;
    player p = connect_player(server, "Ann");
    expect_error(*p.ws, {{"type", "teleport"}}, "unknown_type", 1);
    expect_error(*p.ws, {{"type", "hello2"}}, "unknown_type", "s");
    // A missing or mistyped type is a bad message (or unknown type), never a crash.
    for (json m : {json{{"req", 3}}, json{{"type", 5}, {"req", 4}}}) {
        p->send(m);
        json e = must(p->next(), "error");
        CHECK(e["type"] == "error");
        CHECK((e["code"] == "bad_message" || e["code"] == "unknown_type"));
        CHECK(e["req"] == m["req"]);
    }
    p->send_text("[1,2,3]");
    json e = must(p->next(), "error for an array");
    CHECK(e["type"] == "error");
    CHECK((e["code"] == "bad_message" || e["code"] == "bad_json"));
}

TEST_CASE("errors: bad_message for wrong types, out-of-range values and duplicate squares")
{
    server_process server;
    duel d = start_duel(server);
    const int f = d.first, s = 1 - f;
    ws_client& giver = *d.by_seat(f).ws;
    expect_error(giver, action("give", d.room, {{"piece", 16}}), "bad_message", 1);
    expect_error(giver, action("give", d.room, {{"piece", -1}}), "bad_message", 2);
    expect_error(giver, action("give", d.room, {{"piece", "3"}}), "bad_message", 3);
    expect_error(giver, action("give", d.room, {{"piece", 2.5}}), "bad_message", 4);
    expect_error(giver, action("give", d.room, json::object()), "bad_message", 5);
    expect_error(giver, {{"type", "give"}, {"piece", 3}}, "bad_message", 6); // no room
    expect_error(giver, action("give", d.room, {{"piece", nullptr}}), "bad_message", 7);

    d.act(f, "give", {{"piece", 3}});
    d.expect_all("given");
    ws_client& placer = *d.by_seat(s).ws;
    expect_error(placer, action("place", d.room, {{"square", -1}}), "bad_message", "a");
    expect_error(placer, action("place", d.room, {{"square", 16}}), "bad_message", "b");
    expect_error(placer, action("place", d.room, {{"square", true}}), "bad_message", "c");
    d.act(s, "place", {{"square", 0}});
    d.expect_all("placed");

    expect_error(placer, action("quarto", d.room, {{"line", {0, 0, 1, 2}}}), "bad_message", "dup");
    expect_error(placer, action("quarto", d.room, {{"line", {0, 1, 2}}}), "bad_message", "three");
    expect_error(placer, action("quarto", d.room, {{"line", {0, 1, 2, 3, 4}}}), "bad_message", "five");
    expect_error(placer, action("quarto", d.room, {{"line", {0, 1, 2, 16}}}), "bad_message", "range");
    expect_error(placer, action("quarto", d.room, {{"line", "0,1,2,3"}}), "bad_message", "str");

    // Lobby messages too.
    expect_error(placer, {{"type", "join"}, {"room", d.room}, {"as", "referee"}}, "bad_message", "as");
    expect_error(placer, {{"type", "create_room"}, {"rules", {{"attributes", json::array()}}}}, "bad_message", "attrs");
    expect_error(placer, {{"type", "create_room"}, {"rules", {{"attributes", {"colour"}}}}}, "bad_message", "attr");
    expect_error(placer, {{"type", "create_room"}, {"rules", {{"false_claim", "maybe"}}}}, "bad_message", "fc");
    expect_error(placer, {{"type", "create_room"}, {"clock", {{"move_ms", "fast"}}}}, "bad_message", "clk");
    expect_error(placer, {{"type", "create_room"}, {"clock", {{"move_ms", -5}}}}, "bad_message", "neg");
    expect_error(placer, {{"type", "sync"}, {"room", d.room}, {"since", "x"}}, "bad_message", "since");
    expect_error(placer, {{"type", "hello"}, {"name", 5}}, "bad_message", "name");

    // Unknown fields are ignored.
    d.act(s, "give", {{"piece", 4}, {"flourish", true}});
    CHECK(d.expect_all("given")["piece"] == 4);

    // Nothing above changed the game.
    player late = connect_player(server, "Late");
    json snap = join(*late.ws, d.room, "spectator");
    CHECK(snap["game"]["board"][0] == 3);
    CHECK(snap["game"]["in_hand"] == 4);
    CHECK(snap["game"]["available"].size() == 14);
    CHECK(snap["game"]["moves"].size() == 3);
}

TEST_CASE("errors: no_such_room, not_in_room, not_a_player")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    json nowhere = unused_room_id(d.room);
    ws_client& spectator = *d.watchers[0].ws;

    player out = connect_player(server, "Outsider");
    expect_error(*out.ws, {{"type", "join"}, {"room", nowhere}, {"as", "player"}}, "no_such_room", 1);
    expect_error(*out.ws, {{"type", "join"}, {"room", nowhere}, {"as", "spectator"}}, "no_such_room", 2);
    expect_error(*out.ws, action("give", nowhere, {{"piece", 1}}), "no_such_room", 3);
    expect_error(*out.ws, action("give", d.room, {{"piece", 1}}), "not_in_room", 4);
    expect_error(*out.ws, action("resign", d.room), "not_in_room", 5);
    expect_error(*out.ws, action("leave", d.room), "not_in_room", 6);

    expect_error(spectator, action("give", d.room, {{"piece", 1}}), "not_a_player", "w1");
    expect_error(spectator, action("resign", d.room), "not_a_player", "w2");
    expect_error(spectator, action("rematch", d.room), "not_a_player", "w3");
}

TEST_CASE("errors: not_your_turn, wrong_phase, square_taken, piece_unavailable, invalid_claim")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    json room = create_room(*ann.ws);
    // Before the game: every game action is wrong_phase.
    expect_error(*ann.ws, action("give", room, {{"piece", 1}}), "wrong_phase", "early");
    expect_error(*ann.ws, action("place", room, {{"square", 1}}), "wrong_phase", "early2");
    expect_error(*ann.ws, action("pass", room), "wrong_phase", "early3");
    expect_error(*ann.ws, action("rematch", room), "wrong_phase", "early4");
    player bob = connect_player(server, "Bob");
    join(*bob.ws, room, "player");
    must(ann->wait_type("game_started"), "game_started");
    json started = must(bob->wait_type("game_started"), "game_started");
    const int f = started["first"].get<int>();
    ws_client& F = f == 0 ? *ann.ws : *bob.ws;
    ws_client& S = f == 0 ? *bob.ws : *ann.ws;

    expect_error(S, action("give", room, {{"piece", 1}}), "not_your_turn", 1);
    expect_error(S, action("place", room, {{"square", 1}}), "not_your_turn", 2);
    expect_error(F, action("place", room, {{"square", 1}}), "wrong_phase", 3);
    expect_error(F, action("pass", room), "wrong_phase", 4);
    {
        // Nothing placed yet: nothing to judge (wrong_phase; invalid_claim is as fair).
        F.send(action("quarto", room, {{"line", {0, 1, 2, 3}}, {"req", 5}}));
        json e = must(F.wait_type("error"), "error");
        CHECK((e["code"] == "wrong_phase" || e["code"] == "invalid_claim"));
        CHECK(e["req"] == 5);
    }

    F.send(action("give", room, {{"piece", 1}}));
    must(F.wait_type("given"), "given");
    must(S.wait_type("given"), "given");
    expect_error(F, action("give", room, {{"piece", 2}}), "not_your_turn", 6);
    expect_error(S, action("give", room, {{"piece", 2}}), "wrong_phase", 7); // must place first
    S.send(action("place", room, {{"square", 5}}));
    must(F.wait_type("placed"), "placed");
    must(S.wait_type("placed"), "placed");
    expect_error(S, action("place", room, {{"square", 6}}), "wrong_phase", 8); // already placed
    expect_error(S, action("give", room, {{"piece", 1}}), "piece_unavailable", 9);
    S.send(action("give", room, {{"piece", 2}}));
    must(F.wait_type("given"), "given");
    must(S.wait_type("given"), "given");
    expect_error(F, action("place", room, {{"square", 5}}), "square_taken", 10);
    expect_error(F, action("quarto", room, {{"line", {0, 1, 2, 3}}}), "invalid_claim", 11); // window: empty squares
    expect_error(F, action("pass", room), "wrong_phase", 12);

    // After game over: wrong_phase.
    F.send(action("resign", room));
    must(F.wait_type("game_over"), "game_over");
    must(S.wait_type("game_over"), "game_over");
    expect_error(F, action("place", room, {{"square", 6}}), "wrong_phase", 13);
    expect_error(S, action("give", room, {{"piece", 3}}), "wrong_phase", 14);
    expect_error(S, action("resign", room), "wrong_phase", 15);
    expect_error(S, action("quarto", room, {{"line", {0, 1, 2, 3}}}), "wrong_phase", 16);
    expect_error(S, action("pass", room), "wrong_phase", 17);
}

TEST_CASE("errors: rate_limited echoes req")
{
    // A bucket of 3 that refills one token per 100 s: hello and two pings pass, the rest are
    // refused, however long sending them takes (at 1 token/s a slow machine refilled it).
    server_process server{{"--rate-limit", "0.01", "--rate-burst", "3"}};
    player p = connect_player(server, "Ann");
    for (int i = 0; i < 10; ++i) p->send({{"type", "ping"}, {"req", i}});
    int limited = 0;
    for (int i = 0; i < 10; ++i) {
        json m = must(p->next(), "reply");
        CHECK(m["req"] == i);
        CHECK(m["type"] == (i < 2 ? "pong" : "error"));
        if (m["type"] == "error") {
            CHECK(m["code"] == "rate_limited");
            ++limited;
        }
    }
    CHECK(limited == 8);
    CHECK(!p->closed());
}
