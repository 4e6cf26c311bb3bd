// Reading server messages without a DOM, and writing client messages without a library.
#include <doctest/doctest.h>

#include "client_messages.hpp"
#include "message_scan.hpp"

using namespace quarto;
using namespace quarto::load;

TEST_CASE("the scanner reads the top-level fields of room events")
{
    server_message m;
    REQUIRE(scan_message(
        R"({"claim":{"remaining_ms":10000,"seat":0},"clock":{"remaining_ms":[null,null],"running":0},"piece":10,"room":"k3x9abqz","seat":1,"seq":8,"type":"given"})",
        m));
    CHECK(m.type == "given");
    CHECK(m.room == "k3x9abqz");
    CHECK(m.seat == 1); // not the nested claim.seat
    CHECK(m.piece == 10);
    CHECK(m.seq == 8);
    CHECK(m.square == -1);

    REQUIRE(scan_message(R"( { "type" : "placed", "seq":5, "seat":1, "square":6, "piece":5,
        "clock":{"remaining_ms":[60000,57200],"running":1} } )", m));
    CHECK(m.type == "placed");
    CHECK(m.square == 6);
    CHECK(m.piece == 5);

    REQUIRE(scan_message(R"({"type":"game_over","room":"r","seq":12,"result":"win","winner":0,"reason":"quarto","line":[0,1,2,3],"clock":{"remaining_ms":[1,2],"running":null}})", m));
    CHECK(m.reason == "quarto");
    CHECK(m.seat == -1);

    REQUIRE(scan_message(R"({"type":"game_started","room":"r","seq":3,"first":1,"players":[{"id":"p1","name":"a \"}\" b"},{"id":"p2","name":"x]"}],"clock":{"remaining_ms":[null,null],"running":1}})", m));
    CHECK(m.type == "game_started");
    CHECK(m.first == 1);

    REQUIRE(scan_message(R"({"type":"room","room":"r","seq":2,"players":[{"seat":0,"id":"p1"},null],"you":{"seat":1},"game":{"first":0,"turn":1}})", m));
    CHECK(m.type == "room");
    CHECK(m.you_seat == 1);
    CHECK(m.seat == -1);
    CHECK(m.first == -1); // game.first is nested
    REQUIRE(scan_message(R"({"type":"room","you":{"seat":null}})", m));
    CHECK(m.you_seat == -1);

    // What a reconnection needs: the token of a welcome, a snapshot's status and game.
    REQUIRE(scan_message(R"({"type":"welcome","player":"pk3x9abqz","name":"a1","token":"5f0c1d2e","protocol":1})", m));
    CHECK(m.token == "5f0c1d2e");
    REQUIRE(scan_message(R"({"type":"room","room":"r","seq":9,"status":"playing","you":{"seat":0},"game":{"moves":[{"type":"give","seat":0,"piece":5}],"first":0,"status":"x"}})", m));
    CHECK(m.status == "playing"); // not the nested one
    CHECK(m.game == R"({"moves":[{"type":"give","seat":0,"piece":5}],"first":0,"status":"x"})");
    REQUIRE(scan_message(R"({"type":"error","code":"not_your_turn","message":"It is not your turn.","req":7})", m));
    CHECK(m.code == "not_your_turn");

    REQUIRE(scan_message(R"({"type":"passed","seat":null,"x":1.5e3,"y":true,"z":false})", m));
    CHECK(m.seat == -1);
    REQUIRE(scan_message("{}", m));
    CHECK(m.type.empty());
}

TEST_CASE("the scanner refuses what is not one JSON object")
{
    server_message m;
    CHECK_FALSE(scan_message("", m));
    CHECK_FALSE(scan_message("[1,2]", m));
    CHECK_FALSE(scan_message(R"({"type":"given")", m));
    CHECK_FALSE(scan_message(R"({"type":"given"} x)", m));
    CHECK_FALSE(scan_message(R"({"type" "given"})", m));
    CHECK_FALSE(scan_message(R"({"a":{"b":[1,2}})", m));
    CHECK_FALSE(scan_message(R"({"a":nope})", m));
    CHECK_FALSE(scan_message(R"({"a":"unterminated})", m));
}

TEST_CASE("client messages")
{
    CHECK(hello_message("a1") == R"({"type":"hello","name":"a1"})");
    CHECK(resume_message("5f0c1d2e") == R"({"type":"hello","token":"5f0c1d2e"})");
    CHECK(create_room_message("load 3") ==
          R"({"type":"create_room","name":"load 3","clock":{"move_ms":null},"private":true})");
    CHECK(create_room_message("load 3", 60000) ==
          R"({"type":"create_room","name":"load 3","clock":{"move_ms":60000},"private":true})");
    CHECK(join_message("k3x9", false) == R"({"type":"join","room":"k3x9","as":"player"})");
    CHECK(join_message("k3x9", true) == R"({"type":"join","room":"k3x9","as":"spectator"})");
    CHECK(action_message("r", action{.kind = move_kind::give, .by = 0, .value = 15}) ==
          R"({"type":"give","room":"r","piece":15})");
    CHECK(action_message("r", action{.kind = move_kind::place, .by = 1, .value = 0}) ==
          R"({"type":"place","room":"r","square":0})");
    CHECK(action_message("r", action{.kind = move_kind::call, .by = 1, .line = 0x8421}) ==
          R"({"type":"quarto","room":"r","line":[0,5,10,15]})");
    CHECK(action_message("r", action{.kind = move_kind::pass, .by = 1}) == R"({"type":"pass","room":"r"})");
    CHECK(action_message("r", action{.kind = move_kind::give, .by = 0, .value = 3}, 42) ==
          R"({"type":"give","room":"r","piece":3,"req":42})");
    server_message m;
    REQUIRE(scan_message(R"({"type":"error","code":"wrong_phase","message":"x","req":42})", m));
    CHECK(m.req == 42);
    REQUIRE(scan_message(R"({"type":"error","code":"wrong_phase","message":"x","req":"a"})", m));
    CHECK(m.req == -1);
    CHECK(rematch_message("r\"") == R"({"type":"rematch","room":"r\""})");
}
