// The tournament in process, with the rooms of its games, on a fake host: games are finished by
// a resignation through the room, and the deferred tasks carry the result back, as on a shard.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "tournament_event.hpp"

namespace {

using namespace quarto::server;
namespace model = quarto::model;
namespace protocol = quarto::protocol;
using testing::check_seq;
using testing::error_to;
using testing::event;
using testing::fake_host;
using testing::json;
using testing::last_of;
using testing::of_type;
using testing::reload;
using testing::settings_of;
using testing::strings;
using testing::tid;
using testing::types_of;
using quarto::milliseconds;

} // namespace

// ---- registration and the director's controls --------------------------------------------------

TEST_CASE("tournament: creation subscribes the director and stores the record")
{
    event e{settings_of(model::tournament_format::round_robin)};
    CHECK(e.host.in_tournament(e.dc, tid));
    const auto got = e.host.take(e.dc);
    REQUIRE(types_of(got) == strings{"tournament"});
    CHECK(got[0]["seq"] == 1);
    CHECK(got[0]["status"] == "registering");
    CHECK(got[0]["director"] == e.dee->info.id);
    REQUIRE(e.host.stored().size() == 1);
    CHECK(e.host.stored()[0].id == tid);
    CHECK(e.host.stored()[0].name == "Club night");
    CHECK(e.host.stored()[0].status == "registering");
    CHECK(e.host.stored()[0].state["people"][0]["token_hash"] == e.dee->token_hash);
    CHECK_FALSE(e.host.stored()[0].state["people"][0].contains("token"));
    CHECK(e.host.players().tournaments_of(e.dee->info.id) == strings{tid});
    CHECK(e.views->summary()["status"] == "registering");
}

TEST_CASE("tournament: joining, withdrawing and their refusals")
{
    auto s = settings_of(model::tournament_format::round_robin);
    s.max_players = 3;
    event e{s, 4};
    e.host.take(e.dc);

    e.as(0, protocol::join_tournament{}, "j0");
    const auto to_ann = e.host.take(e.conns[0]);
    REQUIRE(types_of(to_ann) == strings{"tournament"});
    CHECK(to_ann[0]["req"] == "j0");
    CHECK(to_ann[0]["players"][0]["id"] == e.id(0));
    const json to_dee = e.host.take(e.dc).at(0); // the others get it without req
    CHECK_FALSE(to_dee.contains("req"));
    CHECK(to_dee["seq"] == to_ann[0]["seq"]);
    CHECK(e.host.in_tournament(e.conns[0], tid));
    CHECK(e.host.players().tournaments_of(e.id(0)) == strings{tid});

    // Joining again: the snapshot, no change.
    const auto stored = e.host.stored().size();
    e.as(0, protocol::join_tournament{}, "again");
    CHECK(e.host.take(e.conns[0]).at(0)["req"] == "again");
    CHECK(e.host.take(e.dc).empty());
    CHECK(e.host.stored().size() == stored);

    e.as(1, protocol::join_tournament{});
    e.as(2, protocol::join_tournament{});
    e.as(3, protocol::join_tournament{}, "full");
    CHECK(error_to(e.host, e.conns[3], "tournament_full")["req"] == "full");
    CHECK_FALSE(e.host.in_tournament(e.conns[3], tid));

    e.as(3, protocol::withdraw_tournament{}, "w");
    error_to(e.host, e.conns[3], "not_registered");
    e.host.take(e.conns[2]);
    e.as(2, protocol::withdraw_tournament{}, "w2");
    const json after = e.host.take(e.conns[2]).at(0);
    CHECK(after["req"] == "w2");
    CHECK(after["players"].size() == 2);
    CHECK(e.host.players().tournaments_of(e.id(2)).empty());
    // Now there is room.
    e.as(3, protocol::join_tournament{});
    CHECK(e.snapshot()["players"].size() == 3);
}

TEST_CASE("tournament: the director's controls and their refusals")
{
    event e{settings_of(model::tournament_format::round_robin), 3};
    const auto refused = [&](const play::client_ref& c, const std::string& code, const std::string& req) {
        const auto stored = e.host.stored().size();
        const json err = error_to(e.host, c, code);
        CHECK(err["req"] == req);
        CHECK(e.host.stored().size() == stored);
    };

    e.host.take(e.dc);
    e.director(protocol::start_tournament{}, "s0");
    refused(e.dc, "not_enough_players", "s0");
    e.as(0, protocol::join_tournament{});
    e.host.take(e.dc);
    e.director(protocol::start_tournament{}, "s1");
    refused(e.dc, "not_enough_players", "s1");
    e.as(1, protocol::join_tournament{});
    e.as(2, protocol::join_tournament{});
    for (auto& c : e.conns) e.host.take(c);
    e.host.take(e.dc);

    // Not the director.
    e.as(0, protocol::start_tournament{}, "a");
    refused(e.conns[0], "not_director", "a");
    e.as(0, protocol::pause_tournament{}, "b");
    refused(e.conns[0], "not_director", "b");
    e.as(0, protocol::resume_tournament{}, "c");
    refused(e.conns[0], "not_director", "c");
    e.as(0, protocol::remove_player{e.id(1)}, "d");
    refused(e.conns[0], "not_director", "d");

    e.director(protocol::resume_tournament{}, "r0");
    refused(e.dc, "wrong_status", "r0");
    e.director(protocol::pause_tournament{}, "p0");
    refused(e.dc, "wrong_status", "p0");
    e.director(protocol::remove_player{"pnobody"}, "x");
    refused(e.dc, "not_registered", "x");

    e.director(protocol::start_tournament{}, "go");
    const json started = of_type(e.host.take(e.dc), "tournament").at(0);
    CHECK(started["req"] == "go");
    CHECK(started["status"] == "running");
    CHECK(e.host.stored().back().status == "running");
    for (auto& c : e.conns) {
        const auto got = of_type(e.host.take(c), "tournament");
        REQUIRE(got.size() == 1);
        CHECK_FALSE(got[0].contains("req"));
        CHECK(got[0]["seq"] == started["seq"]);
    }

    e.director(protocol::start_tournament{}, "s2");
    refused(e.dc, "wrong_status", "s2");
    e.director(protocol::resume_tournament{}, "r1");
    refused(e.dc, "wrong_status", "r1");
    e.as(0, protocol::join_tournament{}, "j"); // registered: just the snapshot
    CHECK(e.host.take(e.conns[0]).at(0)["type"] == "tournament");
    const auto late = e.host.players().create("Late");
    const auto lc = e.host.connect();
    e.as(lc, *late, protocol::join_tournament{}, "late");
    refused(lc, "registration_closed", "late");
    e.as(0, protocol::withdraw_tournament{}, "w");
    refused(e.conns[0], "registration_closed", "w");

    e.director(protocol::pause_tournament{}, "p1");
    CHECK(e.host.take(e.dc).at(0)["status"] == "paused");
    CHECK(e.host.stored().back().status == "paused");
    e.director(protocol::pause_tournament{}, "p2");
    refused(e.dc, "wrong_status", "p2");
    e.director(protocol::resume_tournament{}, "r2");
    CHECK(e.host.take(e.dc).at(0)["status"] == "running");
    CHECK(e.host.stored().back().status == "running");
}

TEST_CASE("tournament: watchers get every snapshot until they unwatch or their connection closes")
{
    event e{settings_of(model::tournament_format::round_robin), 2};
    const auto eve = e.host.players().create("Eve");
    const auto w = e.host.connect();
    e.as(w, *eve, protocol::watch_tournament{}, "w");
    const auto first = e.host.take(w);
    REQUIRE(types_of(first) == strings{"tournament"});
    CHECK(first[0]["req"] == "w");
    CHECK(e.host.in_tournament(w, tid));

    e.as(0, protocol::join_tournament{});
    CHECK(types_of(e.host.take(w)) == strings{"tournament"});
    e.as(w, *eve, protocol::unwatch_tournament{});
    CHECK_FALSE(e.host.in_tournament(w, tid));
    e.as(1, protocol::join_tournament{});
    CHECK(e.host.take(w).empty());

    // A connection that closes gets nothing more; a new one of the same player is subscribed
    // again (hello with token) and gets the snapshot.
    e.t->detach(e.conns[1]);
    e.host.take(e.conns[1]);
    e.director(protocol::start_tournament{});
    CHECK(e.host.take(e.conns[1]).empty());
    const auto again = e.host.connect();
    e.t->resubscribe(again, *e.people[1]);
    const auto got = e.host.take(again);
    REQUIRE(types_of(got) == strings{"tournament"});
    CHECK(got[0]["status"] == "running");
    CHECK(got[0]["seq"] == e.snapshot()["seq"]);
}

// ---- rounds and games ----------------------------------------------------------------------------

TEST_CASE("tournament: a round robin of four, from the start to the final standings")
{
    event e{settings_of(model::tournament_format::round_robin)};
    e.join_all();
    for (auto& c : e.conns) e.host.take(c);
    e.host.take(e.dc);
    e.director(protocol::start_tournament{});

    json snap = e.snapshot();
    CHECK(snap["status"] == "running");
    CHECK(snap["settings"]["rounds"] == 3);
    REQUIRE(snap["rounds"].size() == 1);
    const json round1 = snap["rounds"][0];
    REQUIRE(round1["pairings"].size() == 2);
    REQUIRE(e.host.game_rooms().size() == 2);

    // Each player: the pairing, the room's snapshot right after it, then the tournament's.
    std::set<std::size_t> paired;
    for (const auto& p : round1["pairings"]) {
        const std::string room_id = p["room"];
        play::room* r = e.host.find_room(room_id);
        REQUIRE(r);
        const auto lobby = r->lobby();
        CHECK(lobby.status == model::room_status::playing);
        for (int side = 0; side < 2; ++side) {
            const std::size_t me = e.index_of(p["players"][side]);
            const std::size_t them = e.index_of(p["players"][1 - side]);
            paired.insert(me);
            CHECK(lobby.seats[static_cast<std::size_t>(side)]->id == e.id(me)); // seat 0: the pairing's first player
            const auto got = e.host.take(e.conns[me]);
            INFO(e.host.transcript(e.conns[me]));
            const auto types = types_of(got);
            const auto at = std::find(types.begin(), types.end(), "tournament_pairing");
            REQUIRE(at != types.end());
            CHECK(std::count(types.begin(), types.end(), "tournament_pairing") == 1);
            const std::size_t i = static_cast<std::size_t>(at - types.begin());
            const json pairing = got[i];
            CHECK(pairing["tournament"] == tid);
            CHECK(pairing["round"] == 1);
            CHECK(pairing["room"] == room_id);
            CHECK(pairing["opponent"] == e.id(them));
            CHECK(pairing["game"] == 1);
            REQUIRE(i + 1 < got.size());
            const json room_snap = got[i + 1];
            CHECK(room_snap["type"] == "room");
            CHECK(room_snap["room"] == room_id);
            CHECK(room_snap["status"] == "playing");
            CHECK(room_snap["tournament"] == tid);
            CHECK(room_snap["you"]["seat"] == side);
            // you_start agrees with the room's coin.
            CHECK(pairing["you_start"] == (room_snap["game"]["first"] == side));
            CHECK(types.back() == "tournament");
            CHECK(e.host.in_room(e.conns[me], room_id));
            CHECK(e.host.players().rooms_of(e.id(me)) == strings{room_id});
            // The result's `first` is who gives first.
            CHECK(p["results"].empty());
        }
    }
    CHECK(paired.size() == 4);
    CHECK(e.host.take(e.dc).size() == 1); // the director plays no game: just the snapshot

    // The lower registration index wins every game.
    for (int round = 1; round <= 3; ++round) {
        CAPTURE(round);
        REQUIRE(e.current_round()["round"] == round);
        e.finish_round();
    }
    snap = e.snapshot();
    CHECK(snap["status"] == "finished");
    REQUIRE(snap["rounds"].size() == 3);
    CHECK(e.host.game_rooms().size() == 6);
    CHECK(e.host.archived().size() == 6);
    std::set<std::pair<std::size_t, std::size_t>> met;
    for (const auto& round : snap["rounds"]) {
        for (const auto& p : round["pairings"]) {
            const std::size_t a = e.index_of(p["players"][0]), b = e.index_of(p["players"][1]);
            met.insert({std::min(a, b), std::max(a, b)});
            REQUIRE(p["results"].size() == 1);
            const json result = p["results"][0];
            CHECK(result["winner"] == e.id(std::min(a, b)));
            CHECK(result["reason"] == "resign");
            CHECK(result["room"] == p["room"]);
            // The archive's id of that game.
            const auto archived = std::find_if(e.host.archived().begin(), e.host.archived().end(),
                                               [&](const auto& g) { return g.id == result["game"]; });
            REQUIRE(archived != e.host.archived().end());
            CHECK(archived->room == p["room"]);
            CHECK(result["first"] == archived->players[archived->first].id);
            CHECK(p["score"] == (a < b ? json::array({1, 0}) : json::array({0, 1})));
        }
    }
    CHECK(met.size() == 6); // everyone met everyone once
    CHECK(e.points() == std::map<std::size_t, double>{{0, 3.0}, {1, 2.0}, {2, 1.0}, {3, 0.0}});
    const json standings = snap["standings"];
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(standings[i]["rank"] == i + 1);
        CHECK(standings[i]["player"] == e.id(i));
    }
    CHECK(e.host.stored().back().status == "finished");
    CHECK(e.views->summary()["status"] == "finished");
    // Every player got every snapshot from their join on, one seq at a time, the last the final.
    for (const auto& c : e.conns) {
        INFO(e.host.transcript(c));
        const auto mine = of_type(e.host.frames(c), "tournament");
        for (std::size_t i = 1; i < mine.size(); ++i) CHECK(mine[i]["seq"] == mine[i - 1]["seq"].get<int>() + 1);
        CHECK(mine.back()["seq"] == snap["seq"]);
    }
    // And every room's events went up one at a time too.
    for (std::size_t i = 0; i < e.conns.size(); ++i)
        for (const auto& room_id : e.host.players().rooms_of(e.id(i))) check_seq(e.host.frames(e.conns[i]), room_id);
}

TEST_CASE("tournament: a player on two connections gets the pairing on both, and both follow the game")
{
    event e{settings_of(model::tournament_format::round_robin), 2};
    e.join_all();
    const auto second = e.host.connect(); // Ann in another tab
    e.as(second, *e.people[0], protocol::watch_tournament{});
    for (const auto& c : {e.conns[0], e.conns[1], second}) e.host.take(c);
    e.director(protocol::start_tournament{});

    REQUIRE(e.host.game_rooms().size() == 1);
    const std::string room_id = e.host.game_rooms()[0];
    for (const auto& c : {e.conns[0], second, e.conns[1]}) {
        const auto got = e.host.take(c);
        INFO(e.host.transcript(c));
        const auto types = types_of(got);
        REQUIRE(std::count(types.begin(), types.end(), "tournament_pairing") == 1);
        const auto at =
            static_cast<std::size_t>(std::find(types.begin(), types.end(), "tournament_pairing") - types.begin());
        REQUIRE(at + 1 < got.size());
        CHECK(got[at + 1]["type"] == "room");
        CHECK(got[at + 1]["room"] == room_id);
        CHECK(e.host.in_room(c, room_id));
    }
    // Ann's second connection is no news to Bo (her first may be: she was not connected when
    // the room opened).
    int about_ann = 0;
    for (const auto& f : e.host.frames(e.conns[1]))
        if (f.value("player", json::object()).value("id", "") == e.id(0)) ++about_ann;
    CHECK(about_ann <= 1);

    // A move reaches all three connections.
    play::room* r = e.host.find_room(room_id);
    r->handle(e.conns[1], *e.people[1], protocol::resign{}, nullptr);
    e.host.run_deferred();
    for (const auto& c : {e.conns[0], second, e.conns[1]}) {
        INFO(e.host.transcript(c));
        CHECK(of_type(e.host.frames(c), "game_over").size() == 1);
        check_seq(e.host.frames(c), room_id);
    }
    CHECK(e.snapshot()["status"] == "finished");
}

TEST_CASE("tournament: Swiss with three players gives a bye each round, to a different player")
{
    event e{settings_of(model::tournament_format::swiss), 3};
    e.join_all();
    for (auto& c : e.conns) e.host.take(c);
    e.director(protocol::start_tournament{});
    json snap = e.snapshot();
    CHECK(snap["settings"]["rounds"] == 2); // ceil(log2 3)

    std::vector<std::size_t> byes;
    for (int round = 1; round <= 2; ++round) {
        CAPTURE(round);
        const json r = e.current_round();
        REQUIRE(r["round"] == round);
        REQUIRE(r["pairings"].size() == 2);
        std::optional<std::size_t> bye;
        for (const auto& p : r["pairings"]) {
            if (!p["players"][1].is_null()) continue;
            bye = e.index_of(p["players"][0]);
            CHECK(p["room"].is_null());
            CHECK(p["rooms"].empty());
            CHECK(p["score"] == json::array({1, 0}));
        }
        REQUIRE(bye);
        byes.push_back(*bye);
        // The bye gets no pairing and no room.
        CHECK(of_type(e.host.take(e.conns[*bye]), "tournament_pairing").empty());
        CHECK(e.host.players().rooms_of(e.id(*bye)).size() == static_cast<std::size_t>(round - 1));
        for (std::size_t i = 0; i < 3; ++i)
            if (i != *bye) CHECK(of_type(e.host.take(e.conns[i]), "tournament_pairing").size() == 1);
        e.finish_round();
    }
    CHECK(e.host.game_rooms().size() == 2);
    CHECK(byes[0] != byes[1]);
    snap = e.snapshot();
    CHECK(snap["status"] == "finished");
    double total = 0;
    for (const auto& [who, points] : e.points()) total += points;
    CHECK(total == 4.0); // two games and two byes
    CHECK(snap["standings"][0].contains("tiebreaks"));
    CHECK(snap["standings"][0]["tiebreaks"].contains("buchholz"));
}

TEST_CASE("tournament: two games per pairing, each player starting one")
{
    event e{settings_of(model::tournament_format::round_robin, 2), 2};
    e.join_all();
    for (auto& c : e.conns) e.host.take(c);
    e.director(protocol::start_tournament{});

    REQUIRE(e.host.game_rooms().size() == 1);
    const std::string room1 = e.host.game_rooms()[0];
    const json pairing1 = of_type(e.host.take(e.conns[0]), "tournament_pairing").at(0);
    CHECK(pairing1["game"] == 1);
    e.host.take(e.conns[1]);
    e.finish(room1, 0); // Ann loses the first game

    REQUIRE(e.host.game_rooms().size() == 2); // game 2 in a room of its own
    const std::string room2 = e.host.game_rooms()[1];
    CHECK(room2 != room1);
    CHECK(e.snapshot()["status"] == "running");
    const json pairing2 = of_type(e.host.take(e.conns[0]), "tournament_pairing").at(0);
    CHECK(pairing2["game"] == 2);
    CHECK(pairing2["room"] == room2);
    CHECK(pairing2["you_start"] == !pairing1["you_start"].get<bool>());
    CHECK(of_type(e.host.take(e.conns[1]), "tournament_pairing").at(0)["you_start"] == pairing1["you_start"]);
    CHECK(e.host.find_room(room2)->listing().name == "Club night · round 1 · game 2");

    e.finish(room2, 1); // Bo loses the second
    const json snap = e.snapshot();
    CHECK(snap["status"] == "finished");
    const json p = snap["rounds"][0]["pairings"][0];
    CHECK(p["rooms"] == json::array({room1, room2}));
    REQUIRE(p["results"].size() == 2);
    CHECK(p["results"][0]["first"] != p["results"][1]["first"]);
    CHECK(p["score"] == json::array({1, 1}));
    // The archive agrees on who gave first in each.
    REQUIRE(e.host.archived().size() == 2);
    for (std::size_t g = 0; g < 2; ++g) {
        const auto& record = e.host.archived()[g];
        CHECK(p["results"][g]["first"] == record.players[record.first].id);
    }
}

TEST_CASE("tournament: pausing holds the next round until the director resumes")
{
    event e{settings_of(model::tournament_format::round_robin)};
    e.join_all();
    e.director(protocol::start_tournament{});
    e.director(protocol::pause_tournament{});
    e.finish_round(); // the games in play are played out
    json snap = e.snapshot();
    CHECK(snap["status"] == "paused");
    CHECK(snap["rounds"].size() == 1);
    CHECK(e.host.game_rooms().size() == 2);

    e.director(protocol::resume_tournament{});
    snap = e.snapshot();
    CHECK(snap["status"] == "running");
    CHECK(snap["rounds"].size() == 2);
    CHECK(e.host.game_rooms().size() == 4);
}

TEST_CASE("tournament: removing a player forfeits the game in play and every later one")
{
    event e{settings_of(model::tournament_format::round_robin)};
    e.join_all();
    e.director(protocol::start_tournament{});
    const std::size_t gone = 3;
    std::string room_of_gone;
    const json round1 = e.current_round();
    for (const auto& p : round1["pairings"])
        if (p["players"][0] == e.id(gone) || p["players"][1] == e.id(gone)) room_of_gone = p["room"];
    REQUIRE_FALSE(room_of_gone.empty());
    play::room* r = e.host.find_room(room_of_gone);
    const bool gone_first = r->lobby().seats[0]->id == e.id(gone);
    e.host.take(e.conns[gone]);

    e.director(protocol::remove_player{e.id(gone)}, "rm");
    const json reply = last_of(e.host.take(e.dc), "tournament");
    CHECK(reply["req"] == "rm");
    // The game in play ends for everyone in the room.
    const json over = of_type(e.host.take(e.conns[gone]), "game_over").at(0);
    CHECK(over["reason"] == "resign");
    CHECK(over["winner"] == (gone_first ? 1 : 0));
    CHECK(r->lobby().status == model::room_status::finished);
    json snap = e.snapshot();
    CHECK(snap["players"][gone]["active"] == false);
    for (const auto& p : snap["rounds"][0]["pairings"]) {
        if (p["room"] != room_of_gone) continue;
        REQUIRE(p["results"].size() == 1);
        CHECK(p["results"][0]["reason"] == "forfeit");
        CHECK(p["results"][0]["winner"] != e.id(gone));
        CHECK(p["results"][0]["game"].is_null());
    }
    CHECK(e.host.players().tournaments_of(e.id(gone)).empty());

    e.finish_round();
    for (int round = 2; round <= 3; ++round) {
        CAPTURE(round);
        const json rr = e.current_round();
        REQUIRE(rr["round"] == round);
        for (const auto& p : rr["pairings"]) {
            if (p["players"][0] != e.id(gone) && p["players"][1] != e.id(gone)) continue;
            CHECK(p["room"].is_null()); // no game is played
            REQUIRE(p["results"].size() == 1);
            CHECK(p["results"][0]["reason"] == "forfeit");
        }
        e.finish_round();
    }
    snap = e.snapshot();
    CHECK(snap["status"] == "finished");
    CHECK(e.host.game_rooms().size() == 4); // 2 + 1 + 1
    CHECK(e.points()[gone] == 0.0);
    // Removed again: not registered (no longer active).
    e.host.take(e.dc);
    e.director(protocol::remove_player{e.id(gone)}, "again");
    CHECK(error_to(e.host, e.dc, "not_registered")["req"] == "again");
}

TEST_CASE("tournament: a Swiss no longer pairs a removed player")
{
    event e{settings_of(model::tournament_format::swiss)};
    e.join_all();
    e.director(protocol::start_tournament{});
    CHECK(e.snapshot()["settings"]["rounds"] == 2);
    e.director(protocol::remove_player{e.id(2)});
    e.finish_round();
    const json round2 = e.current_round();
    REQUIRE(round2["round"] == 2);
    int byes = 0;
    for (const auto& p : round2["pairings"]) {
        CHECK(p["players"][0] != e.id(2));
        CHECK(p["players"][1] != e.id(2));
        if (p["players"][1].is_null()) ++byes;
    }
    CHECK(byes == 1); // three active players
    CHECK(round2["pairings"].size() == 2);
    e.finish_round();
    CHECK(e.snapshot()["status"] == "finished");
    CHECK(e.snapshot()["players"][2]["active"] == false);
}

TEST_CASE("tournament: removing a player before the start takes them off the list")
{
    event e{settings_of(model::tournament_format::round_robin), 3};
    e.join_all();
    e.director(protocol::remove_player{e.id(1)});
    const json snap = e.snapshot();
    REQUIRE(snap["players"].size() == 2);
    CHECK(snap["players"][0]["id"] == e.id(0));
    CHECK(snap["players"][1]["id"] == e.id(2));
    CHECK(e.host.players().tournaments_of(e.id(1)).empty());
}

TEST_CASE("tournament: the start time starts it, through the manual clock")
{
    auto s = settings_of(model::tournament_format::round_robin);
    s.start_at_ms = fake_host::unix_at_zero + 5'000;
    SUBCASE("with two players")
    {
        event e{s, 2};
        e.join_all();
        e.host.advance(milliseconds{4'999});
        CHECK(e.snapshot()["status"] == "registering");
        CHECK(e.host.game_rooms().empty());
        e.host.advance(milliseconds{1});
        CHECK(e.snapshot()["status"] == "running");
        CHECK(e.host.stored().back().status == "running");
        REQUIRE(e.host.game_rooms().size() == 1);
        CHECK(of_type(e.host.frames(e.conns[0]), "tournament_pairing").size() == 1);
    }
    SUBCASE("with one player it waits for the director")
    {
        event e{s, 2};
        e.as(0, protocol::join_tournament{});
        e.host.advance(milliseconds{60'000});
        CHECK(e.snapshot()["status"] == "registering");
        e.as(1, protocol::join_tournament{});
        e.host.advance(milliseconds{60'000});
        CHECK(e.snapshot()["status"] == "registering");
        e.director(protocol::start_tournament{});
        CHECK(e.snapshot()["status"] == "running");
    }
    SUBCASE("started by the director first, the timer does nothing")
    {
        event e{s, 2};
        e.join_all();
        e.director(protocol::start_tournament{});
        const auto stored = e.host.stored().size();
        e.host.advance(milliseconds{5'000});
        CHECK(e.host.stored().size() == stored);
        CHECK(e.host.game_rooms().size() == 1);
    }
}

TEST_CASE("tournament: reopened after its rooms came back from the journal, it goes on running - no game replayed")
{
    // A first life with the journal: round 1 of four players, one game in progress, the other
    // over but not yet scored in what was stored (it ended in the turn of the crash).
    event before{settings_of(model::tournament_format::round_robin)};
    before.host.enable_journal();
    before.join_all();
    before.director(protocol::start_tournament{});
    const json round1 = before.current_round();
    const std::string playing_room = round1["pairings"][0]["room"];
    const std::string ended_room = round1["pairings"][1]["room"];
    const json state = before.host.stored().back().state;
    REQUIRE(before.host.stored().back().status == "running");
    before.finish(ended_room);

    // A restart: the rooms come back from the journal, then the people and the record.
    fake_host host;
    host.enable_journal();
    for (const auto& room : {playing_room, ended_room}) host.restore_room(room, before.host.journal_of(room));
    auto record = reload(host, state);
    REQUIRE(record);
    auto views = std::make_shared<tournaments::tournament_views>();
    tournaments::tournament t{host, *record, views};
    t.reopen();
    host.run_deferred();
    // Still running; the game that had ended is scored now, the other is the same game, going on.
    CHECK(host.stored().back().status == "running");
    CHECK(host.game_rooms().empty()); // no room opened again
    const auto dc = host.connect();
    t.resubscribe(dc, *host.players().find_by_id(record->director));
    json snap = last_of(host.take(dc), "tournament");
    CHECK(snap["status"] == "running");
    CHECK(snap["rounds"][0]["pairings"][0]["rooms"] == json::array({playing_room}));
    CHECK(snap["rounds"][0]["pairings"][0]["results"].empty());
    CHECK(snap["rounds"][0]["pairings"][1]["rooms"] == json::array({ended_room}));
    REQUIRE(snap["rounds"][0]["pairings"][1]["results"].size() == 1);
    CHECK(snap["rounds"][0]["pairings"][1]["results"][0]["reason"] == "resign");

    // The game in progress ends in its restored room: its result is scored, round 2 begins.
    play::room* r = host.find_room(playing_room);
    REQUIRE(r);
    const auto seat1 = host.players().find_by_id(r->lobby().seats[1]->id);
    r->handle(host.connect(), *seat1, protocol::resign{}, nullptr);
    host.run_deferred();
    snap = last_of(host.take(dc), "tournament");
    REQUIRE(snap["rounds"].size() == 2);
    CHECK(snap["rounds"][0]["pairings"][0]["results"].size() == 1);
    CHECK(host.game_rooms().size() == 2); // round 2's two games
}

TEST_CASE("tournament: games begun just before a crash the record missed go on in their restored rooms")
{
    // A first life: the last game of round 1 ends and round 2's games begin, all in the
    // journal, but the record stored last is from before that game ended.
    event before{settings_of(model::tournament_format::round_robin)};
    before.host.enable_journal();
    before.join_all();
    before.director(protocol::start_tournament{});
    const json round1 = before.current_round();
    before.finish(round1["pairings"][0]["room"]);
    const json state = before.host.stored().back().state;
    before.finish(round1["pairings"][1]["room"]);
    const json round2 = before.current_round();
    REQUIRE(round2["round"] == 2);
    std::set<std::string> round2_rooms;
    for (const json& p : round2["pairings"]) round2_rooms.insert(p["room"].get<std::string>());

    fake_host host;
    host.enable_journal();
    for (const std::string& room : before.host.game_rooms()) host.restore_room(room, before.host.journal_of(room));
    auto record = reload(host, state);
    REQUIRE(record);
    REQUIRE(record->rounds.size() == 1);
    tournaments::tournament t{host, *record, std::make_shared<tournaments::tournament_views>()};
    t.reopen();
    host.run_deferred();
    // Round 1's last result is scored from its restored room, and round 2 goes on in the rooms
    // its games began in: none opened again.
    CHECK(host.game_rooms().empty());
    const json stored = host.stored().back().state["tournament"];
    REQUIRE(stored["rounds"].size() == 2);
    std::set<std::string> now;
    for (const json& p : stored["rounds"][1]["pairings"]) {
        REQUIRE(p["games"].size() == 1);
        now.insert(p["games"][0]["room"].get<std::string>());
    }
    CHECK(now == round2_rooms);
}

TEST_CASE("tournament: a running record reopened without its games' rooms comes back paused - resuming replays them")
{
    // A first life: round 1 of four players, one of its two games over.
    event before{settings_of(model::tournament_format::round_robin)};
    before.join_all();
    before.director(protocol::start_tournament{});
    const json round1 = before.current_round();
    const std::string done_room = round1["pairings"][0]["room"];
    const std::string lost_room = round1["pairings"][1]["room"];
    before.finish(done_room);
    const json state = before.host.stored().back().state;
    REQUIRE(before.host.stored().back().status == "running");

    // A restart: the people and the record come back from what was stored.
    fake_host host;
    auto record = reload(host, state);
    REQUIRE(record);
    auto views = std::make_shared<tournaments::tournament_views>();
    tournaments::tournament t{host, *record, views};
    t.reopen();
    host.run_deferred();
    REQUIRE_FALSE(host.stored().empty());
    CHECK(host.stored().back().status == "paused");
    CHECK(views->summary()["status"] == "paused");
    CHECK(host.game_rooms().empty());

    // The director and the players come back (hello with token).
    const auto dc = host.connect();
    const auto dee = host.players().find_by_id(record->director);
    REQUIRE(dee);
    t.resubscribe(dc, *dee);
    std::vector<play::client_ref> conns;
    for (const auto& entrant : record->players) {
        conns.push_back(host.connect());
        t.resubscribe(conns.back(), *host.players().find_by_id(entrant.id));
    }
    CHECK(host.take(dc).at(0)["status"] == "paused");

    t.handle(dc, *dee, protocol::resume_tournament{}, "go");
    host.run_deferred();
    const json snap = last_of(host.take(dc), "tournament");
    CHECK(snap["status"] == "running");
    REQUIRE(host.game_rooms().size() == 1); // the unfinished game only, again
    const std::string replay = host.game_rooms()[0];
    const json pairings = snap["rounds"][0]["pairings"];
    CHECK(pairings[0]["room"] == done_room);
    CHECK(pairings[0]["results"].size() == 1);
    CHECK(pairings[1]["room"] == replay);
    CHECK(pairings[1]["rooms"] == json::array({replay}));
    CHECK(replay != lost_room);
    // Its players get the pairing on their new connections.
    for (std::size_t i = 0; i < conns.size(); ++i) {
        const json& players = pairings[1]["players"];
        const bool plays = players[0] == record->players[i].id || players[1] == record->players[i].id;
        CHECK(of_type(host.take(conns[i]), "tournament_pairing").size() == (plays ? 1u : 0u));
    }
    // And the tournament carries on.
    play::room* r = host.find_room(replay);
    REQUIRE(r);
    const auto seat1 = host.players().find_by_id(r->lobby().seats[1]->id);
    r->handle(host.connect(), *seat1, protocol::resign{}, nullptr);
    host.run_deferred();
    CHECK(host.game_rooms().size() == 3); // round 2's two games
}

TEST_CASE("tournament: a registering record reopened after its start time starts on the next turn")
{
    auto s = settings_of(model::tournament_format::round_robin);
    s.start_at_ms = fake_host::unix_at_zero - 60'000; // passed while the server was down
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    const auto dee = host.players().create("Dee");
    model::tournament_record record;
    record.id = tid;
    record.settings = s;
    record.director = dee->info.id;
    record.director_name = dee->info.name;
    record.players = {{ann->info.id, ann->info.name, true, {}}, {bo->info.id, bo->info.name, true, {}}};
    tournaments::tournament t{host, record, std::make_shared<tournaments::tournament_views>()};
    t.reopen();
    host.run_deferred();
    CHECK(host.stored().back().status == "registering");
    CHECK(host.next_alarm() == host.now());
    host.advance(milliseconds{0});
    CHECK(host.stored().back().status == "running");
    CHECK(host.game_rooms().size() == 1);
}

TEST_CASE("tournament: a registered player the server no longer knows forfeits instead of holding the round up")
{
    // A record whose Bo is not in the registry (persist stores only the people it knows).
    auto s = settings_of(model::tournament_format::round_robin);
    s.start_at_ms = fake_host::unix_at_zero - 60'000;
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto dee = host.players().create("Dee");
    model::tournament_record record;
    record.id = tid;
    record.settings = s;
    record.director = dee->info.id;
    record.director_name = dee->info.name;
    record.players = {{ann->info.id, ann->info.name, true, {}}, {"pgone1234", "Bo", true, {}}};
    tournaments::tournament t{host, record, std::make_shared<tournaments::tournament_views>()};
    t.reopen();
    host.run_deferred();
    host.advance(milliseconds{0}); // the start time: round 1, Ann against Bo
    host.run_deferred();
    CHECK(host.game_rooms().empty());
    const json stored = host.stored().back().state;
    CHECK(stored["tournament"]["status"] == "finished");
    const json game = stored["tournament"]["rounds"][0]["pairings"][0]["games"][0];
    CHECK(game["reason"] == "forfeit");
    CHECK(stored["tournament"]["players"][1]["active"] == false);
}

TEST_CASE("tournament: a join that arrives after its player was forgotten registers nobody")
{
    event e{settings_of(model::tournament_format::round_robin), 2};
    // Ann's connection closed while her join was on its way, and the registry let her go.
    CHECK(e.host.players().forget_idle(std::chrono::steady_clock::now() + std::chrono::hours{24}, std::chrono::seconds{1}) == 2);
    const auto stores = e.host.stored().size();
    e.as(0, protocol::join_tournament{});
    CHECK(e.host.stored().size() == stores);
    CHECK(e.snapshot()["players"].empty());
}

TEST_CASE("tournament: every change is stored, and nothing else is")
{
    event e{settings_of(model::tournament_format::round_robin), 2};
    std::size_t stored = e.host.stored().size();
    CHECK(stored == 1); // the creation
    const auto changes = [&](int n, const char* what) {
        CAPTURE(what);
        CHECK(e.host.stored().size() == stored + static_cast<std::size_t>(n));
        stored = e.host.stored().size();
        // What was stored reads back as the record the snapshot shows.
        const auto back = protocol::read_stored_tournament(e.host.stored().back().state["tournament"]);
        REQUIRE(back);
        CHECK(model::to_string(back->status) == e.snapshot()["status"].get<std::string>());
        CHECK(back->players.size() == e.snapshot()["players"].size());
        CHECK(back->rounds.size() == e.snapshot()["rounds"].size());
    };
    e.as(0, protocol::join_tournament{});
    changes(1, "join");
    e.as(0, protocol::join_tournament{});
    changes(0, "join again");
    e.as(0, protocol::watch_tournament{});
    changes(0, "watch");
    e.as(1, protocol::join_tournament{});
    changes(1, "second join");
    e.director(protocol::pause_tournament{});
    changes(0, "a refused pause");
    e.director(protocol::start_tournament{});
    changes(1, "start");
    e.director(protocol::pause_tournament{});
    changes(1, "pause");
    e.director(protocol::resume_tournament{});
    changes(1, "resume");
    e.finish(e.host.game_rooms().at(0));
    changes(1, "a result");
    CHECK(e.host.stored().back().status == "finished");
}

TEST_CASE("a registering tournament with no player goes once its director has been away long enough")
{
    event e{settings_of(model::tournament_format::swiss), 2};
    const auto watcher = e.host.connect();
    e.as(watcher, *e.people[0], protocol::watch_tournament{});
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000})); // the director is here
    e.t->detach(e.dc);
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000})); // away from now on
    e.host.advance(milliseconds{999});
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000}));
    e.host.advance(milliseconds{1});
    CHECK(e.t->close_if_deserted(milliseconds{1000}));
    CHECK(last_of(e.host.frames(watcher), "tournament_closed")["tournament"] == tid);
    CHECK(e.host.players().tournaments_of(e.dee->info.id).empty());
}

TEST_CASE("a tournament someone registered for, or whose director comes back, stays")
{
    event e{settings_of(model::tournament_format::swiss), 2};
    e.t->detach(e.dc);
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000}));
    e.host.advance(milliseconds{800});
    e.as(0, protocol::join_tournament{});
    e.host.advance(milliseconds{5000});
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000})); // a player is registered
    e.as(0, protocol::withdraw_tournament{});
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000})); // empty again: counted from now
    e.host.advance(milliseconds{800});
    e.as(e.host.connect(), *e.dee, protocol::watch_tournament{}); // the director is back
    e.host.advance(milliseconds{5000});
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000}));
    CHECK(e.host.players().tournaments_of(e.dee->info.id).size() == 1);
}
