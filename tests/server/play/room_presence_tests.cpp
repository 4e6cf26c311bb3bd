// Who is in a room and who has gone, in process on a fake host (duel.hpp): a player's
// connections, a player away and the claim against them, a waiting room whose player has gone,
// and a room nobody is left in.
#include <doctest/doctest.h>

#include "duel.hpp"

namespace {

using namespace quarto::server;
namespace model = quarto::model;
namespace protocol = quarto::protocol;
using testing::check_seq;
using testing::claim_ms;
using testing::duel;
using testing::error_to;
using testing::fake_host;
using testing::idle;
using testing::json;
using testing::move_ms;
using testing::settings_with;
using testing::types_of;
using quarto::milliseconds;
using quarto::seat;
using strings = std::vector<std::string>;

} // namespace

// ---- who is connected ---------------------------------------------------------------------------

TEST_CASE("room: a second connection of a seated player gets the snapshot, and nobody an event")
{
    duel d;
    d.start();
    const auto a2 = d.host.connect();
    d.room->resume(a2, *d.ann);
    const json snap = d.only(a2, "room");
    CHECK(snap["you"]["seat"] == 0);
    CHECK(snap["seq"] == 3);
    CHECK_FALSE(snap.contains("req"));
    CHECK(d.host.take(d.a).empty());
    CHECK(d.host.take(d.b).empty());
    CHECK(d.host.in_room(a2, d.id));

    // Both of Ann's connections get the events.
    d.give(d.first, 0);
    CHECK(d.only(a2, "given") == d.only(d.a, "given"));
    d.host.take(d.b);

    // One of them closes: she is still there.
    d.room->detach(d.a);
    CHECK(d.host.take(d.b).empty());
    CHECK(d.peek()["players"][0]["connected"] == true);
}

TEST_CASE("room: a seated player's last connection closing is disconnected - coming back is reconnected")
{
    duel d;
    d.start();
    // The player who does not give first goes: the other can still move (an action on a
    // connection the room does not know would bring its player back).
    const seat away = quarto::opponent(d.first);
    const auto& here = d.conn(d.first);
    d.room->detach(d.conn(away));
    const json gone = d.only(here, "disconnected");
    CHECK(gone["player"]["id"] == d.player(away).info.id);
    CHECK(gone["seq"] == 4);
    CHECK(d.host.take(d.conn(away)).empty());
    CHECK(d.peek(d.first)["players"][away]["connected"] == false);
    // Detaching a connection the room does not know changes nothing.
    d.room->detach(d.host.connect());
    CHECK(d.host.take(here).empty());

    // The absent player's events stop; the seat and clock stay.
    d.give(d.first, 0);
    d.only(here, "given");
    CHECK(d.host.take(d.conn(away)).empty());

    const auto back_again = d.host.connect();
    d.room->resume(back_again, d.player(away));
    const json back = d.only(here, "reconnected");
    CHECK(back["player"]["id"] == d.player(away).info.id);
    const json snap = d.only(back_again, "room"); // not the reconnected event: the snapshot counts it
    CHECK(snap["seq"] == back["seq"]);
    CHECK(snap["you"]["seat"] == away);
    CHECK(snap["players"][away]["connected"] == true);
    CHECK(snap["game"]["moves"].size() == 1);
    check_seq(d.host.frames(here), d.id);
    check_seq(d.host.frames(back_again), d.id);
}

TEST_CASE("room: a disconnected player's clock keeps running")
{
    duel d;
    d.start();
    d.room->detach(d.conn(d.first));
    d.host.take(d.conn(quarto::opponent(d.first)));
    d.host.advance(move_ms);
    const json over = d.only(d.conn(quarto::opponent(d.first)), "game_over");
    CHECK(over["reason"] == "timeout");
    CHECK(over["winner"] == quarto::opponent(d.first));
}

TEST_CASE("room: a player gone from a game for --abandon-seconds may be claimed against, and loses")
{
    duel d{settings_with({std::nullopt, claim_ms})}; // untimed: the game would wait for ever
    d.start();
    d.room->detach(d.b);
    const json gone = d.only(d.a, "disconnected");
    CHECK(gone["claim_victory_in_ms"] == 30'000);
    d.host.advance(milliseconds{12'000});
    CHECK(d.peek()["players"][1]["claim_victory_in_ms"] == 18'000);
    CHECK_FALSE(d.peek()["players"][0].contains("claim_victory_in_ms")); // Ann is here

    d.act(0, protocol::claim_victory{}, "early");
    const json early = error_to(d.host, d.a, "wrong_phase");
    CHECK(early["req"] == "early");
    CHECK(early["message"].get<std::string>().find("18 s") != std::string::npos);
    d.host.advance(milliseconds{18'000});
    CHECK(d.peek()["players"][1]["claim_victory_in_ms"] == 0);
    d.act(0, protocol::claim_victory{}, "now");
    const json over = d.only(d.a, "game_over");
    CHECK(over["result"] == "win");
    CHECK(over["winner"] == 0);
    CHECK(over["reason"] == "abandoned");
    REQUIRE(d.host.archived().size() == 1);
    CHECK(d.host.archived()[0].result.reason == quarto::end_reason::abandoned);
    CHECK(d.host.archived()[0].result.winner == seat{0});
    // Over: nothing more to claim, and the lobby shows it finished.
    d.act(0, protocol::claim_victory{});
    error_to(d.host, d.a, "wrong_phase");
    CHECK(d.room->lobby().status == model::room_status::finished);
}

TEST_CASE("room: coming back in time keeps the game - and spectators and the present player cannot claim")
{
    duel d;
    d.start();
    d.act(1, protocol::claim_victory{});
    CHECK(error_to(d.host, d.b, "wrong_phase")["message"] == "Your opponent is still here.");
    const auto watcher = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(watcher, *cy, protocol::join{true});
    d.host.take(watcher);
    d.act(watcher, *cy, protocol::claim_victory{});
    error_to(d.host, watcher, "not_a_player");

    d.room->detach(d.b);
    d.host.take(d.a);
    d.host.advance(milliseconds{29'000});
    const auto b2 = d.host.connect();
    d.act(b2, *d.bo, protocol::join{false}); // back through join: announced as reconnected
    CHECK(types_of(d.host.take(d.a)) == strings{"reconnected"});
    d.host.advance(milliseconds{5'000});
    d.act(0, protocol::claim_victory{});
    CHECK(error_to(d.host, d.a, "wrong_phase")["message"] == "Your opponent is still here.");
    CHECK(d.room->lobby().status == model::room_status::playing);
}

TEST_CASE("room: a game started opposite a player with no connection may be claimed at once")
{
    duel d;
    d.room->detach(d.a); // Ann's page has gone; her seat stays
    d.host.take(d.a);
    d.act(d.b, *d.bo, protocol::join{false});
    const auto to_b = d.host.take(d.b);
    INFO(d.host.transcript(d.b));
    REQUIRE(types_of(to_b) == strings{"room", "game_started", "disconnected"});
    CHECK(to_b[0]["players"][0]["connected"] == false);
    CHECK(to_b[2]["player"]["name"] == "Ann");
    CHECK(to_b[2]["claim_victory_in_ms"] == 0);
    CHECK(d.peek(1)["players"][0]["claim_victory_in_ms"] == 0);

    SUBCASE("claimed at once")
    {
        d.act(1, protocol::claim_victory{}, "now");
        const json over = d.only(d.b, "game_over");
        CHECK(over["winner"] == 1);
        CHECK(over["reason"] == "abandoned");
    }
    SUBCASE("once she is back, a later absence gets the usual wait")
    {
        const auto a2 = d.host.connect();
        d.room->resume(a2, *d.ann);
        CHECK(types_of(d.host.take(d.b)) == strings{"reconnected"});
        d.act(1, protocol::claim_victory{});
        CHECK(error_to(d.host, d.b, "wrong_phase")["message"] == "Your opponent is still here.");
        d.room->detach(a2);
        CHECK(d.only(d.b, "disconnected")["claim_victory_in_ms"] == 30'000);
        d.act(1, protocol::claim_victory{});
        CHECK(error_to(d.host, d.b, "wrong_phase")["message"].get<std::string>().find("30 s") != std::string::npos);
    }
}

TEST_CASE("room: a tournament game's player who has not arrived yet keeps the usual wait")
{
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    play::room_settings s = settings_with();
    s.tournament = play::tournament_link{"tclub", seat{0}, nullptr};
    play::room& r = host.open_game_room(std::move(s), *ann, *bo);
    host.run_deferred();
    const auto a = host.connect();
    r.resume(a, *ann);
    const json snap = host.take(a).at(0);
    CHECK(snap["players"][1]["claim_victory_in_ms"] == 30'000);
    r.handle(a, *ann, protocol::claim_victory{}, nullptr);
    host.run_deferred();
    CHECK(error_to(host, a, "wrong_phase")["message"].get<std::string>().find("30 s") != std::string::npos);
}

TEST_CASE("room: a waiting room whose player has gone is not offered, and closes after --abandon-seconds")
{
    duel d;
    CHECK_FALSE(d.host.lobby_of(d.id)->host_away());
    d.room->detach(d.a);
    CHECK(d.host.lobby_of(d.id)->host_away());
    CHECK(d.host.lobby_of(d.id)->connected[0] == false);

    // A reload: gone for a moment, back long before the grace is over.
    d.host.advance(milliseconds{29'999});
    CHECK(d.host.sweep(idle).empty());
    const auto a2 = d.host.connect();
    d.room->resume(a2, *d.ann);
    CHECK_FALSE(d.host.lobby_of(d.id)->host_away());
    d.host.advance(milliseconds{60'000});
    CHECK(d.host.sweep(idle).empty());

    // Gone for good: closed once she has been away --abandon-seconds, a watcher told so.
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(c, *cy, protocol::join{true});
    d.room->detach(a2);
    d.host.take(c);
    d.host.advance(milliseconds{29'999});
    CHECK(d.host.sweep(idle).empty());
    d.host.advance(milliseconds{1});
    CHECK(d.host.sweep(idle) == strings{d.id});
    CHECK(types_of(d.host.take(c)) == strings{"room_closed"});
    CHECK(d.host.players().rooms_of(d.ann->info.id).empty());
}

// ---- deserted rooms -----------------------------------------------------------------------------

TEST_CASE("room: a deserted room closes after the idle time - a game both players left first ends as abandoned")
{
    SUBCASE("waiting, nobody connected: once its player has been gone --abandon-seconds, before the idle time")
    {
        duel d;
        d.room->detach(d.a);
        d.host.advance(milliseconds{30'000} - milliseconds{1});
        CHECK(d.host.sweep(idle).empty());
        d.host.advance(milliseconds{1});
        CHECK(d.host.sweep(idle) == strings{d.id});
    }
    SUBCASE("waiting, the creator still connected")
    {
        duel d;
        d.host.advance(10 * idle);
        CHECK(d.host.sweep(idle).empty());
    }
    SUBCASE("an untimed game in progress, nobody connected: whoever left first loses")
    {
        duel d{settings_with({std::nullopt, claim_ms})};
        d.start();
        d.room->detach(d.b);
        d.host.advance(milliseconds{5'000});
        d.room->detach(d.a);
        d.host.advance(idle - milliseconds{1}); // Ann has been gone for one ms less than the idle time
        CHECK(d.host.sweep(idle).empty());
        CHECK(d.host.archived().empty());
        d.host.advance(milliseconds{1});
        CHECK(d.host.sweep(idle) == strings{d.id});
        REQUIRE(d.host.archived().size() == 1);
        CHECK(d.host.archived()[0].result.reason == quarto::end_reason::abandoned);
        CHECK(d.host.archived()[0].result.winner == seat{0});
        for (const auto& p : {d.ann, d.bo}) CHECK(d.host.players().rooms_of(p->info.id).empty());
    }
    SUBCASE("a game in progress with one player or a spectator still there goes on")
    {
        duel d{settings_with({std::nullopt, claim_ms})};
        d.start();
        d.room->detach(d.b);
        d.host.advance(10 * idle);
        CHECK(d.host.sweep(idle).empty()); // Ann is here: she may claim the win, or wait

        const auto c = d.host.connect();
        const auto cy = d.host.players().create("Cy");
        d.act(c, *cy, protocol::join{true});
        d.room->detach(d.a);
        d.host.advance(10 * idle);
        CHECK(d.host.sweep(idle).empty());
        CHECK(d.peek()["status"] == "playing");
        CHECK(d.host.archived().empty());
    }
}
