// The room's game in process, on a fake host (duel.hpp): the claim window, the move clock, the
// rematch, the archive record of a finished game, and a room closing once it is empty or idle.
#include <doctest/doctest.h>

#include <array>

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
using testing::mask;
using testing::move_ms;
using testing::row0;
using testing::settings_with;
using testing::step;
using testing::types_of;
using quarto::instant;
using quarto::milliseconds;
using quarto::seat;
using strings = std::vector<std::string>;

// A full board (the piece on each square) on which no line is aligned under the standard rules,
// by backtracking over squares 0..15.
std::array<int, 16> drawn_board()
{
    const quarto::rules standard{};
    std::array<int, 16> cells{};
    quarto::board b;
    unsigned used = 0;
    const auto fill = [&](const auto& self, int sq) -> bool {
        if (sq == 16) return true;
        for (int p = 0; p < 16; ++p) {
            if (used & (1u << p)) continue;
            quarto::board next = b;
            next.put(static_cast<quarto::square>(sq), quarto::piece{static_cast<std::uint8_t>(p)});
            bool ok = true;
            for (quarto::square_mask pattern : standard.winning_patterns())
                if ((pattern & quarto::bit(static_cast<quarto::square>(sq))) && next.aligned(pattern, standard.attributes))
                    ok = false;
            if (!ok) continue;
            const quarto::board saved = b;
            b = next;
            used |= 1u << p;
            cells[static_cast<std::size_t>(sq)] = p;
            if (self(self, sq + 1)) return true;
            b = saved;
            used &= ~(1u << p);
        }
        return false;
    };
    REQUIRE(fill(fill, 0));
    return cells;
}

} // namespace

// ---- the claim window ---------------------------------------------------------------------------

TEST_CASE("room: a missed Quarto is claimed by the opponent in the claim window")
{
    duel d;
    d.start();
    const seat placer = d.play(d.first, row0);
    REQUIRE(placer == d.first);
    const seat other = quarto::opponent(placer);
    d.give(placer, 4); // no call: the window opens for the other seat
    const json given = d.both("given");
    CHECK(given["claim"]["seat"] == other);
    CHECK(given["claim"]["remaining_ms"] == claim_ms.count());
    // Its close is the room's next deadline.
    CHECK(d.host.next_alarm() == d.host.now() + claim_ms);

    // The placer has given: calling is no longer theirs.
    d.call(placer, {0, 1, 2, 3}, 1);
    CHECK(error_to(d.host, d.conn(placer), "not_your_turn")["req"] == 1);

    d.host.advance(claim_ms - milliseconds{1}); // the last millisecond of the window
    d.call(other, {3, 2, 1, 0});
    const json over = d.both("game_over");
    CHECK(over["result"] == "win");
    CHECK(over["winner"] == other);
    CHECK(over["reason"] == "missed_quarto");
    CHECK(over["line"] == json::array({0, 1, 2, 3}));
    CHECK(d.host.armed_alarms() == 0);
    CHECK(d.host.lobby_of(d.id)->status == model::room_status::finished);
    check_seq(d.host.frames(d.a), d.id);
    check_seq(d.host.frames(d.b), d.id);
}

TEST_CASE("room: the claim window closes when claim_ms has passed, by the room's timer")
{
    duel d;
    d.start();
    const seat placer = d.play(d.first, row0);
    const seat other = quarto::opponent(placer);
    d.give(placer, 4);
    d.both("given");
    const instant opened = d.host.now();

    d.host.advance(claim_ms - milliseconds{1});
    const json open = d.peek()["game"]["claim"];
    CHECK(open["seat"] == other);
    CHECK(open["remaining_ms"] == 1);

    d.host.advance(milliseconds{1});
    // Closing sends nothing, and the timer is armed again, for the mover's clock.
    CHECK(d.host.take(d.a).empty());
    CHECK(d.host.take(d.b).empty());
    CHECK(d.host.next_alarm() == opened + move_ms);
    CHECK(d.peek()["game"]["claim"].is_null());

    d.call(other, {0, 1, 2, 3}, "late");
    const json e = error_to(d.host, d.conn(other), "invalid_claim");
    CHECK(e["message"] == "Too late: the chance to call that Quarto has passed.");
    CHECK(e["req"] == "late");
    // The game goes on.
    d.place(other, 15);
    CHECK(d.both("placed")["square"] == 15);
}

TEST_CASE("room: the claim window closes when the opponent places")
{
    duel d;
    d.start();
    const seat placer = d.play(d.first, row0);
    const seat other = quarto::opponent(placer);
    d.give(placer, 4);
    d.both("given");
    d.place(other, 15); // the alignment on row 0 has lost its value
    d.both("placed");
    // What a call of the other seat judges now is its own placement, on 15.
    d.call(other, {0, 1, 2, 3}, "late");
    const json e = error_to(d.host, d.conn(other), "invalid_claim");
    CHECK(e["message"] == "That line does not include the last piece placed.");
    CHECK(d.host.take(d.conn(placer)).empty());
    CHECK(d.peek()["status"] == "playing");
}

TEST_CASE("room: the placer calls their own Quarto")
{
    duel d;
    d.start();
    const seat placer = d.play(d.first, row0);
    d.call(placer, {0, 4, 8, 12}, "col"); // a column with empty squares
    CHECK(error_to(d.host, d.conn(placer), "invalid_claim")["message"] == "Some of those squares are empty.");
    d.call(placer, {0, 1, 2, 3});
    const json over = d.both("game_over");
    CHECK(over["winner"] == placer);
    CHECK(over["reason"] == "quarto");
}

TEST_CASE("room: under false_claim lose, a wrong call loses the game - the first give opens no window")
{
    quarto::rules rules;
    rules.false_claim = quarto::false_claim_policy::lose;
    play::room_settings s = settings_with();
    s.game_rules = rules;
    duel d{std::move(s)};
    d.start();
    d.give(d.first, 0);
    const json given = d.both("given");
    CHECK(given["claim"].is_null()); // no placement to judge yet
    const seat placer = quarto::opponent(d.first);
    d.place(placer, 0);
    d.both("placed");
    d.call(placer, {0, 1, 2, 3}, "wrong"); // three empty squares
    const json over = d.both("game_over");
    CHECK(over["reason"] == "false_claim");
    CHECK(over["winner"] == d.first);
    CHECK(over["line"] == json::array({0, 1, 2, 3}));
    CHECK_FALSE(over.contains("req"));
}

// ---- the move clock -----------------------------------------------------------------------------

TEST_CASE("room: the move clock runs out exactly at move_ms, and not a millisecond before")
{
    duel d;
    d.start();
    const seat mover = d.first;
    d.host.advance(move_ms - milliseconds{1});
    CHECK(d.host.take(d.a).empty());
    CHECK(d.host.take(d.b).empty());
    CHECK(d.peek()["status"] == "playing");

    d.host.advance(milliseconds{1}); // no client message: the timer ends it
    const json over = d.both("game_over");
    CHECK(over["result"] == "win");
    CHECK(over["reason"] == "timeout");
    CHECK(over["winner"] == quarto::opponent(mover));
    CHECK(over["clock"]["running"].is_null());
    CHECK(over["clock"]["remaining_ms"][std::size_t{mover}] == 0);
    CHECK(d.host.armed_alarms() == 0);
    REQUIRE(d.host.archived().size() == 1);
    CHECK(d.host.archived()[0].result.reason == quarto::end_reason::timeout);
    CHECK(d.host.counters().games_finished[static_cast<std::size_t>(quarto::end_reason::timeout)].load() == 1);

    // A move now is too late.
    d.give(mover, 0, "late");
    CHECK(error_to(d.host, d.conn(mover), "wrong_phase")["message"] == "The game is over.");
}

TEST_CASE("room: the move clock starts afresh with every move")
{
    duel d;
    d.start();
    d.host.advance(milliseconds{50'000});
    d.give(d.first, 0);
    d.both("given");
    const seat receiver = quarto::opponent(d.first);
    // The receiver's move started with the give: 60 s from now, not from the game's start.
    CHECK(d.host.next_alarm() == d.host.now() + move_ms);
    d.host.advance(move_ms - milliseconds{1});
    CHECK(d.host.take(d.a).empty());
    d.place(receiver, 5); // in time; the same move goes on (place, then give)
    d.both("placed");
    d.host.advance(milliseconds{1});
    const json over = d.both("game_over");
    CHECK(over["reason"] == "timeout");
    CHECK(over["winner"] == d.first);
}

TEST_CASE("room: an action after the deadline, before the timer has fired, ends the game first")
{
    duel d;
    d.start();
    d.host.skew(move_ms); // the deadline has come; the loop's timer has not run yet
    d.give(d.first, 0, "g");
    const auto to_mover = d.host.take(d.conn(d.first));
    INFO(d.host.transcript());
    REQUIRE(types_of(to_mover) == strings{"game_over", "error"});
    CHECK(to_mover[0]["reason"] == "timeout");
    CHECK(to_mover[1]["code"] == "wrong_phase");
    CHECK(to_mover[1]["req"] == "g");
    CHECK(d.only(d.conn(quarto::opponent(d.first)), "game_over")["reason"] == "timeout");
    // The late timer finds nothing to do.
    d.host.advance(milliseconds{1});
    CHECK(d.host.take(d.a).empty());
    CHECK(d.host.take(d.b).empty());
    CHECK(d.host.archived().size() == 1);
}

TEST_CASE("room: an untimed game arms no move clock")
{
    duel d{settings_with({std::nullopt, claim_ms})};
    d.start();
    CHECK(d.host.armed_alarms() == 0);
    d.host.advance(milliseconds{24 * 3600 * 1000});
    CHECK(d.host.take(d.a).empty());
    CHECK(d.peek()["game"]["clock"]["remaining_ms"] == json::array({nullptr, nullptr}));
}

TEST_CASE("room: after the 16th piece and a pass, the final claim window closing by time is a draw")
{
    duel d;
    d.start();
    const auto cells = drawn_board();
    std::vector<step> steps;
    for (int sq = 0; sq < 16; ++sq) steps.push_back({cells[static_cast<std::size_t>(sq)], sq});
    const seat last = d.play(d.first, steps);
    d.act(last, protocol::pass{});
    const json passed = d.both("passed");
    CHECK(passed["claim"]["seat"] == quarto::opponent(last));
    CHECK(passed["clock"]["running"].is_null()); // no move clock in the final window
    CHECK(d.host.next_alarm() == d.host.now() + claim_ms);

    d.host.advance(claim_ms - milliseconds{1});
    CHECK(d.host.take(d.a).empty());
    d.host.advance(milliseconds{1});
    const json over = d.both("game_over");
    CHECK(over["result"] == "draw");
    CHECK(over["winner"].is_null());
    CHECK(over["reason"] == "board_full");
    CHECK(d.host.archived().at(0).result.reason == quarto::end_reason::board_full);
}

// ---- rematch ------------------------------------------------------------------------------------

TEST_CASE("room: a rematch starts when both ask - seq goes on")
{
    duel d;
    d.start();
    d.act(0, protocol::rematch{}, "early");
    CHECK(error_to(d.host, d.a, "wrong_phase")["message"] == "A rematch can be asked for once the game is over.");
    d.act(1, protocol::resign{});
    const json over = d.both("game_over");
    CHECK(over["reason"] == "resign");
    CHECK(over["winner"] == 0);
    const std::string first_game = over["game"];

    d.act(1, protocol::rematch{});
    const json asked = d.both("rematch_requested");
    CHECK(asked["seat"] == 1);
    CHECK(asked["seq"] == over["seq"].get<int>() + 1);
    d.act(1, protocol::rematch{}, "again"); // repeated: nothing at all
    CHECK(d.host.take(d.a).empty());
    CHECK(d.host.take(d.b).empty());
    CHECK(d.peek()["status"] == "finished");

    d.act(0, protocol::rematch{});
    for (const auto& c : {d.a, d.b}) {
        const auto got = d.host.take(c);
        INFO(d.host.transcript(c));
        REQUIRE(types_of(got) == strings{"rematch_requested", "game_started"});
        CHECK(got[0]["seat"] == 0);
        CHECK(got[1]["seq"] == asked["seq"].get<int>() + 2);
    }
    CHECK(d.peek()["status"] == "playing");
    CHECK(d.host.counters().games_started.load() == 2);
    CHECK(d.host.lobby_of(d.id)->status == model::room_status::playing);

    // The second game has an archive id of its own.
    d.act(0, protocol::resign{});
    const json over2 = d.both("game_over");
    CHECK(over2["winner"] == 1);
    CHECK(over2["game"] != first_game);
    REQUIRE(d.host.archived().size() == 2);
    CHECK(d.host.archived()[0].id == first_game);
    CHECK(d.host.archived()[1].id == over2["game"]);
    check_seq(d.host.frames(d.a), d.id);
    check_seq(d.host.frames(d.b), d.id);
}

TEST_CASE("room: the running score counts the pair's games across rematches, and starts again with a new pair")
{
    duel d;
    CHECK(d.peek()["score"] == json{{"wins", {0, 0}}, {"draws", 0}});
    d.start();
    d.act(1, protocol::resign{});
    CHECK(d.both("game_over")["score"] == json{{"wins", {1, 0}}, {"draws", 0}});
    d.act(0, protocol::rematch{});
    d.act(1, protocol::rematch{});
    d.host.take(d.a);
    d.host.take(d.b);
    CHECK(d.peek()["score"] == json{{"wins", {1, 0}}, {"draws", 0}}); // kept through the new game
    d.act(0, protocol::resign{});
    CHECK(d.both("game_over")["score"] == json{{"wins", {1, 1}}, {"draws", 0}});

    d.act(1, protocol::leave{}); // a new opponent starts from nothing
    d.host.take(d.a);
    CHECK(d.peek()["score"] == json{{"wins", {0, 0}}, {"draws", 0}});
}

TEST_CASE("room: a rematch asked by one seat only is just rematch_requested")
{
    duel d;
    d.start();
    d.act(0, protocol::resign{});
    d.both("game_over");
    d.act(0, protocol::rematch{});
    CHECK(d.both("rematch_requested")["seat"] == 0);
    d.host.advance(idle / 2);
    CHECK(d.host.take(d.a).empty());
    CHECK(d.peek()["status"] == "finished");
    // The other seat leaves: the request is dropped with the game, the room waits again.
    d.act(d.b, *d.bo, protocol::leave{});
    d.both("left");
    CHECK(d.peek()["status"] == "waiting");
    d.act(0, protocol::rematch{});
    error_to(d.host, d.a, "wrong_phase");
}

// ---- the end of a game and of a room ------------------------------------------------------------

TEST_CASE("room: a finished game's archive record")
{
    quarto::rules rules;
    rules.squares = true;
    play::room_settings s = settings_with({milliseconds{30'000}, milliseconds{5'000}});
    s.game_rules = rules;
    duel d{std::move(s)};
    d.host.advance(milliseconds{1'000});
    d.start(); // the game starts at 1 s
    seat giver = d.first;
    for (const step& st : row0) { // each give and place 100 ms apart
        d.host.advance(milliseconds{100});
        d.give(giver, st.piece);
        d.host.advance(milliseconds{100});
        d.place(quarto::opponent(giver), st.square);
        giver = quarto::opponent(giver);
    }
    d.host.take(d.a);
    d.host.take(d.b);
    d.host.advance(milliseconds{100});
    d.call(giver, {0, 1, 2, 3});
    const json over = d.both("game_over");
    CHECK(over["reason"] == "quarto");

    REQUIRE(d.host.archived().size() == 1);
    const auto& record = d.host.archived()[0];
    CHECK(record.id == over["game"]);
    CHECK(record.id.size() == 12);
    CHECK(record.room == d.id);
    CHECK(record.room_name == "Friday night");
    CHECK(record.players[0] == d.ann->info);
    CHECK(record.players[1] == d.bo->info);
    CHECK(record.game_rules == rules);
    CHECK(record.clock == quarto::clock_settings{milliseconds{30'000}, milliseconds{5'000}});
    CHECK(record.first == d.first);
    CHECK(record.result.winner == giver);
    CHECK(record.result.reason == quarto::end_reason::quarto);
    CHECK(record.result.line == mask({0, 1, 2, 3}));
    REQUIRE(record.moves.size() == 9);
    CHECK(record.moves[0].kind == quarto::move_kind::give);
    CHECK(record.moves[0].at_ms == 100);
    CHECK(record.moves[1].kind == quarto::move_kind::place);
    CHECK(record.moves[1].at_ms == 200);
    CHECK(record.moves[8].kind == quarto::move_kind::call);
    CHECK(record.moves[8].at_ms == 900);
    CHECK(record.started_ms == fake_host::unix_at_zero + 1'000);
    CHECK(record.ended_ms == fake_host::unix_at_zero + 1'900);
    // The snapshot names the archived game.
    CHECK(d.peek()["game"]["id"] == record.id);
}

TEST_CASE("room: an empty room closes at once")
{
    duel d;
    CHECK(d.host.sweep(idle).empty()); // Ann is in it
    d.host.take(d.a);
    d.act(d.a, *d.ann, protocol::leave{});
    CHECK(d.only(d.a, "left")["seat"] == 0);
    const auto closed = d.host.sweep(idle); // no time has passed
    CHECK(closed == strings{d.id});
    CHECK(d.host.rooms().empty());
    CHECK(d.host.take(d.a).empty()); // she had left: no room_closed
}

TEST_CASE("room: a finished room closes after the idle time - everyone in it gets room_closed")
{
    duel d;
    d.start();
    const auto c = d.host.connect();
    const auto cy = d.host.players().create("Cy");
    d.act(c, *cy, protocol::join{true});
    d.act(0, protocol::resign{});
    for (const auto& x : {d.a, d.b, c}) d.host.take(x);

    d.host.advance(idle - milliseconds{1});
    CHECK_FALSE(d.room->reclaim_if_idle(idle));
    d.host.advance(milliseconds{1});
    REQUIRE(d.room->reclaim_if_idle(idle));
    for (const auto& x : {d.a, d.b, c}) {
        const json closed = d.only(x, "room_closed");
        CHECK(closed["room"] == d.id);
        CHECK_FALSE(closed.contains("seq"));
        CHECK(d.host.places(x).empty());
    }
    for (const auto& p : {d.ann, d.bo, cy}) CHECK(d.host.players().rooms_of(p->info.id).empty());
    CHECK(d.host.counters().rooms[static_cast<std::size_t>(model::room_status::finished)].load() == 0);

    // Closed: messages get no_such_room, resume and detach do nothing.
    d.act(0, protocol::rematch{}, "r");
    CHECK(error_to(d.host, d.a, "no_such_room")["req"] == "r");
    d.room->resume(d.host.connect(), *d.ann);
    d.room->detach(d.b);
    CHECK(d.host.take(d.a).empty());
    CHECK(d.room->reclaim_if_idle(idle)); // still closed: the sweep drops it
    CHECK(d.host.sweep(idle) == strings{d.id});
}
