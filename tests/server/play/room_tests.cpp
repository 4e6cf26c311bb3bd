// The room's members and messages in process, on a fake host (duel.hpp): seats and joining,
// spectators, sync, leaving, names, and the seq every event carries.
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
using testing::json;
using testing::move_ms;
using testing::of_type;
using testing::row0;
using testing::types_of;
using quarto::instant;
using quarto::seat;
using strings = std::vector<std::string>;

} // namespace

// ---- seats and the start ---------------------------------------------------------------------

TEST_CASE("room: the creator gets the snapshot, the second player's join starts the game")
{
    duel d;
    const auto to_a = d.host.take(d.a);
    INFO(d.host.transcript());
    REQUIRE(types_of(to_a) == strings{"room"});
    CHECK(to_a[0]["seq"] == 1); // counts the creator's own joined, which she does not get
    CHECK(to_a[0]["you"]["seat"] == 0);
    CHECK(to_a[0]["status"] == "waiting");
    CHECK(to_a[0]["players"][0]["connected"] == true);
    CHECK(to_a[0]["players"][1].is_null());
    CHECK(d.host.in_room(d.a, d.id));
    CHECK(d.host.lobby_of(d.id)->status == model::room_status::waiting);

    const json snap = d.start();
    CHECK(snap["seq"] == 2);
    CHECK(snap["req"] == "j");
    CHECK(snap["you"]["seat"] == 1);
    CHECK(snap["status"] == "waiting"); // the game starts right after it
    const auto& a_frames = d.host.frames(d.a);
    const json joined = of_type(a_frames, "joined").at(0);
    CHECK(joined["seq"] == 2);
    CHECK(joined["as"] == "player");
    CHECK(joined["seat"] == 1);
    CHECK(joined["player"]["name"] == "Bo");
    const json started = of_type(a_frames, "game_started").at(0);
    CHECK(started["seq"] == 3);
    CHECK(started["players"][0]["id"] == d.ann->info.id);
    CHECK(started["players"][1]["id"] == d.bo->info.id);
    CHECK(started["clock"]["running"] == d.first);
    CHECK(d.host.in_room(d.b, d.id));
    CHECK(d.host.players().rooms_of(d.bo->info.id) == strings{d.id});

    const auto lobby = d.host.lobby_of(d.id);
    REQUIRE(lobby);
    CHECK(lobby->status == model::room_status::playing);
    CHECK(lobby->seats[1]->name == "Bo");
    CHECK(d.host.counters().games_started.load() == 1);
    // The first giver's move clock is armed.
    CHECK(d.host.next_alarm() == instant{move_ms});
}

TEST_CASE("room: joining when both seats are taken is room_full - a spectator stays one")
{
    duel d;
    d.start();
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(c, *cy, protocol::join{false}, 7);
    const json e = error_to(d.host, c, "room_full");
    CHECK(e["req"] == 7);
    CHECK_FALSE(d.host.in_room(c, d.id));
    CHECK(d.host.take(d.a).empty());

    d.act(c, *cy, protocol::join{true});
    CHECK(types_of(d.host.take(c)) == strings{"room"});
    d.act(c, *cy, protocol::join{false}, 8);
    error_to(d.host, c, "room_full");
    CHECK(d.host.in_room(c, d.id)); // still watching
    CHECK(d.peek()["spectators"] == 1);
}

TEST_CASE("room: joining a room one is in only sends the snapshot again")
{
    duel d;
    d.start();
    d.act(d.b, *d.bo, protocol::join{false}, "again");
    const json snap = d.only(d.b, "room");
    CHECK(snap["req"] == "again");
    CHECK(snap["you"]["seat"] == 1);
    // A seated player who joins as spectator stays seated.
    d.act(d.b, *d.bo, protocol::join{true}, "watch");
    CHECK(d.only(d.b, "room")["you"]["seat"] == 1);
    CHECK(d.host.take(d.a).empty());
    CHECK(d.peek()["spectators"] == 0);
}

TEST_CASE("room: a spectator who joins as player takes the free seat and starts the game")
{
    duel d;
    d.host.take(d.a);
    d.act(d.b, *d.bo, protocol::join{true});
    CHECK(d.only(d.b, "room")["you"]["seat"].is_null());
    CHECK(d.only(d.a, "joined")["as"] == "spectator");
    CHECK(d.host.lobby_of(d.id)->spectators == 1);

    d.act(d.b, *d.bo, protocol::join{false});
    const auto to_b = d.host.take(d.b);
    INFO(d.host.transcript());
    REQUIRE(types_of(to_b) == strings{"room", "game_started"});
    CHECK(to_b[0]["you"]["seat"] == 1);
    CHECK(to_b[0]["spectators"] == 0);
    CHECK(types_of(d.host.take(d.a)) == strings{"joined", "game_started"});
    CHECK(d.host.lobby_of(d.id)->spectators == 0);
}

// ---- spectators ---------------------------------------------------------------------------------

TEST_CASE("room: spectators see joined and left, get every event, and cannot act")
{
    duel d;
    d.start();
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(c, *cy, protocol::join{true}, "w");
    const json snap = d.only(c, "room");
    CHECK(snap["you"]["seat"].is_null());
    CHECK(snap["spectators"] == 1);
    CHECK(snap["req"] == "w");
    const json joined = d.both("joined");
    CHECK(joined["as"] == "spectator");
    CHECK_FALSE(joined.contains("seat"));
    CHECK(joined["seq"] == snap["seq"]);
    CHECK(d.host.lobby_of(d.id)->spectators == 1);

    // Every event reaches the spectator, as the players get it; the spectator's go as to a
    // watcher (they may wait to share a write), the players' do not.
    const std::size_t players_waited = d.host.sent_to_watcher(d.a) + d.host.sent_to_watcher(d.b);
    const std::size_t watcher_waited = d.host.sent_to_watcher(c);
    d.play(d.first, {{0, 0}});
    const auto seen = d.host.take(c);
    CHECK(types_of(seen) == strings{"given", "placed"});
    CHECK(d.host.payloads(c).back() == d.host.payloads(d.a).back());
    CHECK(d.host.sent_to_watcher(c) == watcher_waited + 2);
    CHECK(d.host.sent_to_watcher(d.a) + d.host.sent_to_watcher(d.b) == players_waited);

    // A spectator cannot act.
    d.act(c, *cy, protocol::give{quarto::piece{5}}, 1);
    CHECK(error_to(d.host, c, "not_a_player")["req"] == 1);
    d.act(c, *cy, protocol::resign{});
    error_to(d.host, c, "not_a_player");
    d.act(c, *cy, protocol::rematch{});
    error_to(d.host, c, "not_a_player");
    // Nor can someone who is not in the room.
    const auto e = d.host.connect();
    const auto eve = d.host.players().create("Eve");
    d.act(e, *eve, protocol::give{quarto::piece{5}});
    error_to(d.host, e, "not_in_room");
    d.act(e, *eve, protocol::leave{});
    error_to(d.host, e, "not_in_room");
    CHECK(d.host.take(d.a).empty());

    d.act(0, protocol::resign{});
    CHECK(d.only(c, "game_over") == d.both("game_over"));

    // Leaving: everyone, the leaver included, gets left; then nothing more.
    d.act(c, *cy, protocol::leave{});
    const json left = d.only(c, "left");
    CHECK(left["as"] == "spectator");
    CHECK(d.both("left") == left);
    CHECK_FALSE(d.host.in_room(c, d.id));
    CHECK(d.host.players().rooms_of(cy->info.id).empty());
    CHECK(d.host.lobby_of(d.id)->spectators == 0);
    d.act(0, protocol::rematch{});
    CHECK(d.host.take(c).empty());
    check_seq(d.host.frames(c), d.id);
}

TEST_CASE("room: a spectator whose connection closes leaves - on resume they watch again")
{
    duel d;
    d.start();
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(c, *cy, protocol::join{true});
    d.host.take(c);
    d.both("joined");

    d.room->detach(c);
    const json left = d.both("left");
    CHECK(left["as"] == "spectator");
    CHECK(left["player"]["id"] == cy->info.id);
    CHECK(d.host.lobby_of(d.id)->spectators == 0);

    const auto c2 = d.host.connect();
    d.room->resume(c2, *cy);
    const json joined = d.both("joined");
    CHECK(joined["as"] == "spectator");
    const json snap = d.only(c2, "room");
    CHECK(snap["seq"] == joined["seq"]);
    CHECK(snap["spectators"] == 1);
    CHECK(d.host.lobby_of(d.id)->spectators == 1);
}

// ---- sync ---------------------------------------------------------------------------------------

TEST_CASE("room: sync replays the kept events exactly as first sent, then synced")
{
    duel d;
    d.start();
    d.play(d.first, {{0, 0}, {1, 1}});
    const auto& sent_to_b = d.host.payloads(d.b);
    const std::uint64_t seq = d.peek()["seq"];
    REQUIRE(seq == 7);

    const auto a2 = d.host.connect(); // Ann again, after a short break
    d.act(a2, *d.ann, protocol::sync{3}, "s1");
    const auto got = d.host.take(a2);
    INFO(d.host.transcript(a2));
    REQUIRE(types_of(got) == strings{"given", "placed", "given", "placed", "synced"});
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(got[i]["seq"] == 4 + i);
        CHECK(d.host.payloads(a2)[i] == sent_to_b[sent_to_b.size() - 4 + i]);
    }
    CHECK(got[4]["seq"] == seq);
    CHECK(got[4]["req"] == "s1");
    CHECK(d.host.in_room(a2, d.id)); // attached from now on
    d.give(d.first, 2);
    CHECK(d.only(a2, "given")["seq"] == seq + 1);

    // Up to date: just synced.
    d.act(a2, *d.ann, protocol::sync{seq + 1}, "s2");
    const json synced = d.only(a2, "synced");
    CHECK(synced["seq"] == seq + 1);
    CHECK(synced["req"] == "s2");
    d.act(a2, *d.ann, protocol::sync{1'000'000}, "s3");
    CHECK(d.only(a2, "synced")["seq"] == seq + 1);

    // Someone not in the room.
    const auto e = d.host.connect();
    d.act(e, *d.host.players().create("Eve"), protocol::sync{0}, "s4");
    CHECK(error_to(d.host, e, "not_in_room")["req"] == "s4");
    CHECK_FALSE(d.host.in_room(e, d.id));
}

TEST_CASE("room: sync from before the kept events gets the snapshot, then synced")
{
    duel d;
    d.start();
    // 300 events: a spectator comes and goes.
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    for (int i = 0; i < 150; ++i) {
        d.act(c, *cy, protocol::join{true});
        d.act(c, *cy, protocol::leave{});
    }
    d.host.take(c);
    const std::uint64_t seq = d.peek()["seq"];
    REQUIRE(seq == 303);
    constexpr std::uint64_t kept = play::room::ring_capacity;

    const auto a2 = d.host.connect();
    SUBCASE("the oldest kept event is still replayed")
    {
        d.act(a2, *d.ann, protocol::sync{seq - kept}, "edge");
        const auto got = d.host.take(a2);
        REQUIRE(got.size() == kept + 1);
        CHECK(got.front()["seq"] == seq - kept + 1);
        CHECK(got[kept - 1]["seq"] == seq);
        CHECK(got.back()["type"] == "synced");
        CHECK(got.back()["req"] == "edge");
        check_seq(got, d.id);
    }
    SUBCASE("one older: the snapshot")
    {
        d.act(a2, *d.ann, protocol::sync{seq - kept - 1}, "old");
        const auto got = d.host.take(a2);
        INFO(d.host.transcript(a2));
        REQUIRE(types_of(got) == strings{"room", "synced"});
        CHECK(got[0]["seq"] == seq);
        CHECK_FALSE(got[0].contains("req"));
        CHECK(got[0]["you"]["seat"] == 0);
        CHECK(got[1]["seq"] == seq);
        CHECK(got[1]["req"] == "old");
    }
}

// ---- leaving ------------------------------------------------------------------------------------

TEST_CASE("room: leaving a game in progress resigns it")
{
    duel d;
    d.start();
    d.act(d.b, *d.bo, protocol::leave{}, "bye");
    for (const auto& c : {d.a, d.b}) {
        const auto got = d.host.take(c);
        INFO(d.host.transcript(c));
        REQUIRE(types_of(got) == strings{"game_over", "left"});
        CHECK(got[0]["reason"] == "resign");
        CHECK(got[0]["winner"] == 0);
        CHECK(got[1]["as"] == "player");
        CHECK(got[1]["seat"] == 1);
        CHECK_FALSE(got[1].contains("req")); // no direct reply
    }
    CHECK_FALSE(d.host.in_room(d.b, d.id));
    CHECK(d.host.players().rooms_of(d.bo->info.id).empty());
    REQUIRE(d.host.archived().size() == 1);
    CHECK(d.host.archived()[0].result.reason == quarto::end_reason::resign);
    CHECK(d.host.armed_alarms() == 0);

    // The room forgets the game and waits for the next opponent.
    const json snap = d.peek();
    CHECK(snap["status"] == "waiting");
    CHECK(snap["players"][1].is_null());
    CHECK(snap["game"]["phase"] == "waiting");
    const auto lobby = d.host.lobby_of(d.id);
    CHECK(lobby->status == model::room_status::waiting);
    CHECK_FALSE(lobby->seats[1].has_value());
    d.act(d.b, *d.bo, protocol::resign{});
    error_to(d.host, d.b, "not_in_room");

    // The next player starts a new game.
    const auto c = d.host.connect();
    d.act(c, *d.host.players().create("Cy"), protocol::join{false});
    CHECK(types_of(d.host.take(c)) == strings{"room", "game_started"});
    CHECK(types_of(d.host.take(d.a)) == strings{"joined", "game_started"});
}

TEST_CASE("room: a player leaving with two connections open leaves on both")
{
    duel d;
    d.start();
    const auto b2 = d.host.connect();
    d.room->resume(b2, *d.bo);
    d.host.take(b2);
    d.act(d.b, *d.bo, protocol::leave{});
    for (const auto& c : {d.b, b2}) {
        CHECK(types_of(d.host.take(c)) == strings{"game_over", "left"});
        CHECK_FALSE(d.host.in_room(c, d.id));
    }
    CHECK(types_of(d.host.take(d.a)) == strings{"game_over", "left"});
    // The connections closing later is no news.
    d.room->detach(d.b);
    d.room->detach(b2);
    CHECK(d.host.take(d.a).empty());
}

// ---- names --------------------------------------------------------------------------------------

TEST_CASE("room: a new name reaches everyone in the room, a seated player's in the lobby and the snapshot too")
{
    duel d;
    d.start();
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(c, *cy, protocol::join{true});
    for (const auto& x : {d.a, d.b, c}) d.host.take(x);
    const auto seq = d.peek()["seq"].get<std::uint64_t>();

    d.room->rename({d.bo->info.id, "Bobby"});
    const json to_a = d.only(d.a, "player_renamed");
    CHECK(to_a == d.only(d.b, "player_renamed"));
    CHECK(to_a == d.only(c, "player_renamed"));
    CHECK(to_a["seq"] == seq + 1);
    CHECK(to_a["player"] == json{{"id", d.bo->info.id}, {"name", "Bobby"}});
    CHECK(to_a["seat"] == 1);
    CHECK(d.peek()["players"][1]["name"] == "Bobby");
    CHECK(d.host.lobby_of(d.id)->seats[1]->name == "Bobby");

    d.room->rename({cy->info.id, "Cyrus"}); // a watcher: no seat
    const json watcher = d.only(d.a, "player_renamed");
    CHECK(watcher["seat"].is_null());
    CHECK(watcher["player"]["name"] == "Cyrus");

    d.room->rename({"pnobody12", "Zed"}); // not in the room: nothing
    CHECK(d.host.take(d.a).empty());
    d.act(0, protocol::resign{});
    REQUIRE(d.host.archived().size() == 1);
    CHECK(d.host.archived()[0].players[1].name == "Bobby");
}

// ---- seq ----------------------------------------------------------------------------------------

TEST_CASE("room: seq goes up by exactly 1 for every subscriber, through everything")
{
    duel d;
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(c, *cy, protocol::join{true});
    d.start();
    const seat placer = d.play(d.first, row0);
    d.give(placer, 4);
    d.room->detach(d.conn(placer));
    const auto back = d.host.connect();
    d.room->resume(back, d.player(placer));
    d.host.advance(claim_ms);
    d.call(quarto::opponent(placer), {0, 1, 2, 3}); // too late: an error, no event
    d.act(quarto::opponent(placer), protocol::resign{});
    d.act(back, d.player(placer), protocol::rematch{});
    d.act(d.conn(quarto::opponent(placer)), d.player(quarto::opponent(placer)), protocol::rematch{});
    d.host.advance(move_ms); // a timeout in the rematch
    d.act(c, *cy, protocol::leave{});

    const std::uint64_t last = d.peek()["seq"];
    CHECK(last == 21);
    for (const auto& x : {d.conn(quarto::opponent(placer)), back, c}) {
        INFO(d.host.transcript(x));
        CHECK(check_seq(d.host.frames(x), d.id) > 0);
    }
    // The one who stayed throughout saw every event from its join on.
    const auto& all = d.host.frames(d.conn(quarto::opponent(placer)));
    std::uint64_t events = 0;
    for (const auto& f : all)
        if (f.contains("seq") && f["type"] != "room" && f["type"] != "synced") ++events;
    // Ann got everything after her own joined (seq 1); Bo everything after his snapshot (seq 3).
    CHECK(events == last - (placer == 1 ? 1 : 3));
}
