// The pause between rounds on the fake host's manual clock: the next round is paired and
// announced when the last game of a round ends, its rooms open (and its clocks start) only
// when the pause is over, and the start time survives a restart and the director's pause.
#include <doctest/doctest.h>

#include <set>

#include "tournament_event.hpp"

namespace {

using namespace quarto::server;
namespace model = quarto::model;
namespace protocol = quarto::protocol;
using testing::event;
using testing::fake_host;
using testing::json;
using testing::last_of;
using testing::of_type;
using testing::reload;
using testing::settings_of;
using testing::tid;
using quarto::instant;
using quarto::milliseconds;

model::tournament_settings paused_rounds(int seconds, model::tournament_format format = model::tournament_format::round_robin)
{
    auto s = settings_of(format);
    s.round_pause_seconds = seconds;
    return s;
}

// Four players, round robin, started; round 1 is over at t = 0 (unix: unix_at_zero): round 2
// waits. Every connection's frames so far are taken.
void to_round_two(event& e)
{
    e.join_all();
    e.director(protocol::start_tournament{});
    REQUIRE(e.current_round()["starts_at_ms"].is_null()); // the tournament's start is round 1's
    REQUIRE(e.host.game_rooms().size() == 2);
    for (auto& c : e.conns) e.host.take(c);
    e.finish_round();
}

// The rooms opened for round 2 (those after round 1's two).
std::size_t round_two_rooms(const event& e) { return e.host.game_rooms().size() - 2; }

} // namespace

TEST_CASE("round pause: the next round is announced when the last game ends, and starts when the pause is over")
{
    event e{paused_rounds(20)};
    to_round_two(e);

    // Announced at once: paired, with its start time, and no room yet.
    const json round2 = e.current_round();
    REQUIRE(round2["round"] == 2);
    const std::int64_t starts_at = fake_host::unix_at_zero + 20'000;
    CHECK(round2["starts_at_ms"] == starts_at);
    CHECK(e.snapshot()["settings"]["round_pause_seconds"] == 20);
    CHECK(e.snapshot()["status"] == "running");
    for (const auto& p : round2["pairings"]) {
        CHECK(p["room"].is_null());
        CHECK(p["rooms"].empty());
        CHECK(p["results"].empty());
    }
    CHECK(round_two_rooms(e) == 0);
    // Stored with its start time, before anyone is told.
    const json stored = e.host.stored().back().state["tournament"];
    CHECK(stored["rounds"][1]["starts_at_ms"] == starts_at);
    CHECK(stored["settings"]["round_pause_seconds"] == 20);

    // Each player: whom they play and when, before the snapshot that shows it; no game yet.
    for (std::size_t i = 0; i < e.conns.size(); ++i) {
        const auto got = e.host.take(e.conns[i]);
        INFO(e.host.transcript(e.conns[i]));
        CHECK(of_type(got, "tournament_pairing").empty());
        const auto notices = of_type(got, "tournament_round");
        REQUIRE(notices.size() == 1);
        const json& n = notices[0];
        CHECK(n["tournament"] == tid);
        CHECK(n["round"] == 2);
        CHECK(n["starts_at_ms"] == starts_at);
        std::string opponent;
        for (const auto& p : round2["pairings"]) {
            if (p["players"][0] == e.id(i)) opponent = p["players"][1];
            if (p["players"][1] == e.id(i)) opponent = p["players"][0];
        }
        CHECK(n["opponent"] == opponent);
        const auto types = testing::types_of(got);
        const auto notice_at = std::find(types.begin(), types.end(), "tournament_round");
        CHECK(std::find(notice_at, types.end(), "tournament") != types.end());
    }
    CHECK(of_type(e.host.take(e.dc), "tournament_round").empty()); // the director plays no game

    // Nothing starts a moment early...
    const auto stored_before = e.host.stored().size();
    e.host.advance(milliseconds{19'999});
    CHECK(round_two_rooms(e) == 0);
    CHECK(e.host.stored().size() == stored_before);
    for (auto& c : e.conns) CHECK(of_type(e.host.take(c), "tournament_pairing").empty());

    // ...and everything right at the end of the pause: the rooms, the pairings, the clocks.
    e.host.advance(milliseconds{1});
    REQUIRE(round_two_rooms(e) == 2);
    const json started = e.current_round();
    CHECK(started["round"] == 2);
    CHECK(started["starts_at_ms"].is_null());
    CHECK(e.host.stored().back().state["tournament"]["rounds"][1]["starts_at_ms"].is_null());
    for (std::size_t i = 0; i < e.conns.size(); ++i) {
        const auto got = e.host.take(e.conns[i]);
        INFO(e.host.transcript(e.conns[i]));
        const json pairing = last_of(got, "tournament_pairing");
        CHECK(pairing["round"] == 2);
        const json room = last_of(got, "room");
        CHECK(room["room"] == pairing["room"]);
        CHECK(room["status"] == "playing");
        // The clocks started now, not when the round was announced: the whole move time is left.
        CHECK(room["game"]["clock"]["remaining_ms"] == json::array({60'000, 60'000}));
    }

    // And the tournament goes on: round 3 waits in turn.
    e.finish_round();
    CHECK(e.current_round()["round"] == 3);
    CHECK(e.current_round()["starts_at_ms"] == fake_host::unix_at_zero + 40'000);
    e.host.advance(milliseconds{20'000});
    e.finish_round();
    CHECK(e.snapshot()["status"] == "finished");
}

TEST_CASE("round pause: 0 starts the next round the instant the last game ends, without a notice")
{
    event e{paused_rounds(0)};
    to_round_two(e);
    const json round2 = e.current_round();
    REQUIRE(round2["round"] == 2);
    CHECK(round2["starts_at_ms"].is_null());
    CHECK(round_two_rooms(e) == 2);
    for (auto& c : e.conns) {
        const auto got = e.host.take(c);
        CHECK(of_type(got, "tournament_round").empty());
        CHECK(of_type(got, "tournament_pairing").size() == 1);
    }
}

TEST_CASE("round pause: a bye is told it has a bye, a forfeit is not told at all")
{
    SUBCASE("a bye")
    {
        event e{paused_rounds(5, model::tournament_format::swiss), 3};
        e.join_all();
        e.director(protocol::start_tournament{});
        e.finish_round();
        const json round2 = e.current_round();
        REQUIRE(round2["round"] == 2);
        for (const auto& p : round2["pairings"]) {
            if (!p["players"][1].is_null()) continue;
            const auto bye = e.index_of(p["players"][0]);
            const json n = last_of(e.host.frames(e.conns[bye]), "tournament_round");
            CHECK(n["round"] == 2);
            CHECK(n["opponent"].is_null());
        }
    }
    SUBCASE("a player removed before the round: their board is a forfeit at once")
    {
        event e{paused_rounds(5)};
        e.join_all();
        e.director(protocol::start_tournament{});
        e.director(protocol::remove_player{e.id(3)});
        for (auto& c : e.conns) e.host.take(c);
        e.finish_round();
        const json round2 = e.current_round();
        REQUIRE(round2["round"] == 2);
        std::size_t told = 0;
        for (const auto& p : round2["pairings"]) {
            const bool forfeit = p["players"][0] == e.id(3) || p["players"][1] == e.id(3);
            CHECK(p["score"].is_array() == forfeit);
            for (const auto& who : p["players"]) {
                const auto got = of_type(e.host.take(e.conns[e.index_of(who)]), "tournament_round");
                CHECK(got.size() == (forfeit ? 0u : 1u));
                told += got.size();
            }
        }
        CHECK(told == 2);
        e.host.advance(milliseconds{5'000});
        CHECK(e.host.game_rooms().size() == 2 + 1); // the one board with two players
    }
}

TEST_CASE("round pause: a player removed during the pause loses that round by forfeit, and no room opens for it")
{
    event e{paused_rounds(20)};
    to_round_two(e);
    const json round2 = e.current_round();
    const std::size_t gone = e.index_of(round2["pairings"][0]["players"][0]);
    e.host.advance(milliseconds{5'000});
    e.director(protocol::remove_player{e.id(gone)});
    json board = e.current_round()["pairings"][0];
    REQUIRE(board["results"].size() == 1);
    CHECK(board["results"][0]["reason"] == "forfeit");
    CHECK(board["room"].is_null());
    CHECK(e.current_round()["starts_at_ms"] == fake_host::unix_at_zero + 20'000); // unchanged
    CHECK(round_two_rooms(e) == 0);
    e.host.advance(milliseconds{15'000});
    CHECK(round_two_rooms(e) == 1);
    board = e.current_round()["pairings"][0];
    CHECK(board["rooms"].empty());
    CHECK(e.current_round()["pairings"][1]["room"].is_string());
}

TEST_CASE("round pause: the director's pause holds a waiting round, and resuming gives the whole pause again")
{
    SUBCASE("paused during the countdown")
    {
        event e{paused_rounds(20)};
        to_round_two(e);
        e.host.advance(milliseconds{10'000});
        e.director(protocol::pause_tournament{});
        CHECK(e.snapshot()["status"] == "paused");
        e.host.advance(milliseconds{60'000});
        CHECK(round_two_rooms(e) == 0);
        for (auto& c : e.conns) e.host.take(c);

        e.director(protocol::resume_tournament{});
        const json round2 = e.current_round();
        CHECK(e.snapshot()["status"] == "running");
        CHECK(round2["starts_at_ms"] == e.host.unix_ms() + 20'000);
        for (auto& c : e.conns) {
            const json n = last_of(e.host.take(c), "tournament_round");
            CHECK(n["starts_at_ms"] == round2["starts_at_ms"]);
        }
        e.host.advance(milliseconds{19'999});
        CHECK(round_two_rooms(e) == 0);
        e.host.advance(milliseconds{1});
        CHECK(round_two_rooms(e) == 2);
    }
    SUBCASE("paused during the round: resuming pairs the next one, which waits the pause")
    {
        event e{paused_rounds(20)};
        e.join_all();
        e.director(protocol::start_tournament{});
        e.director(protocol::pause_tournament{});
        e.finish_round();
        CHECK(e.snapshot()["rounds"].size() == 1);
        e.host.advance(milliseconds{30'000});
        e.director(protocol::resume_tournament{});
        const json round2 = e.current_round();
        REQUIRE(round2["round"] == 2);
        CHECK(round2["starts_at_ms"] == e.host.unix_ms() + 20'000);
        CHECK(round_two_rooms(e) == 0);
        e.host.advance(milliseconds{20'000});
        CHECK(round_two_rooms(e) == 2);
    }
}

TEST_CASE("round pause: a restart during the pause starts the round at its stored time, or at once if it has passed")
{
    event before{paused_rounds(20)};
    to_round_two(before);
    const json state = before.host.stored().back().state;
    REQUIRE(state["tournament"]["rounds"][1]["starts_at_ms"] == fake_host::unix_at_zero + 20'000);

    fake_host host;
    auto record = reload(host, state);
    REQUIRE(record);
    CHECK(record->settings.round_pause_seconds == 20);
    SUBCASE("back before the time")
    {
        tournaments::tournament t{host, *record, std::make_shared<tournaments::tournament_views>()};
        host.set_clock(instant{milliseconds{5'000}}); // unix: 15 s before the round
        t.reopen();
        host.run_deferred();
        CHECK(host.stored().back().status == "running");
        CHECK(host.stored().back().state["tournament"]["rounds"][1]["starts_at_ms"] == fake_host::unix_at_zero + 20'000);
        CHECK(host.next_alarm() == instant{milliseconds{20'000}});
        host.advance(milliseconds{14'999});
        CHECK(host.game_rooms().empty());
        host.advance(milliseconds{1});
        CHECK(host.game_rooms().size() == 2);
    }
    SUBCASE("back after it")
    {
        tournaments::tournament t{host, *record, std::make_shared<tournaments::tournament_views>()};
        host.set_clock(instant{milliseconds{60'000}});
        t.reopen();
        host.run_deferred();
        CHECK(host.game_rooms().empty());
        CHECK(host.next_alarm() == host.now());
        host.advance(milliseconds{0});
        CHECK(host.game_rooms().size() == 2);
        CHECK(host.stored().back().state["tournament"]["rounds"][1]["starts_at_ms"].is_null());
    }
    SUBCASE("paused by the director before the restart: it waits for the resume")
    {
        record->status = model::tournament_status::paused;
        tournaments::tournament t{host, *record, std::make_shared<tournaments::tournament_views>()};
        t.reopen();
        host.run_deferred();
        host.advance(milliseconds{60'000});
        CHECK(host.game_rooms().empty());
        const auto dc = host.connect();
        const auto dee = host.players().find_by_id(record->director);
        REQUIRE(dee);
        t.handle(dc, *dee, protocol::resume_tournament{}, nullptr);
        host.run_deferred();
        CHECK(host.stored().back().state["tournament"]["rounds"][1]["starts_at_ms"] == host.unix_ms() + 20'000);
        host.advance(milliseconds{20'000});
        CHECK(host.game_rooms().size() == 2);
    }
}
