// The room in process: a fake host with recorded frames and a manual clock, no socket, no
// sleep. Seat 0 is Ann (the creator), seat 1 is Bo; the coin decides who gives first, so the
// tests read `first` from game_started and play from there.
#include <doctest/doctest.h>

#include <array>
#include <initializer_list>

#include "fake_host.hpp"

namespace {

using namespace quarto::server;
namespace protocol = quarto::protocol;
using testing::check_seq;
using testing::claim_ms;
using testing::error_to;
using testing::fake_host;
using testing::json;
using testing::mask;
using testing::move_ms;
using testing::of_type;
using testing::types_of;
using quarto::instant;
using quarto::milliseconds;
using quarto::seat;
using strings = std::vector<std::string>;

constexpr milliseconds idle{600'000};

struct step {
    int piece;
    int square;
};
// Pieces 0..3 are all short, round and solid: any 4 of them on a line align. Played from the
// first give, the first giver places the last of them, on square 3, completing row 0.
const std::vector<step> row0 = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};

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

play::room_settings settings_with(quarto::clock_settings clock = {move_ms, claim_ms})
{
    play::room_settings s;
    s.name = "Friday night";
    s.clock = clock;
    return s;
}

// A room with Ann seated (created at instant 0); start() seats Bo, which starts the game.
struct duel {
    fake_host host;
    play::client_ref a = host.connect();
    play::client_ref b = host.connect();
    std::shared_ptr<const play::player_record> ann = host.players().create("Ann");
    std::shared_ptr<const play::player_record> bo = host.players().create("Bo");
    play::room* room = nullptr;
    std::string id;
    seat first = 0;

    explicit duel(play::room_settings settings = settings_with())
    {
        room = &host.create_room(std::move(settings), a, *ann);
        id = room->id();
        host.run_deferred();
    }

    // Bo joins: the game starts. Returns Bo's snapshot.
    json start()
    {
        act(b, *bo, protocol::join{false}, "j");
        const auto to_b = host.take(b);
        INFO(host.transcript());
        REQUIRE(types_of(to_b) == strings{"room", "game_started"});
        first = to_b[1]["first"].get<seat>();
        host.take(a);
        return to_b[0];
    }

    const play::client_ref& conn(seat s) const { return s == 0 ? a : b; }
    const play::player_record& player(seat s) const { return s == 0 ? *ann : *bo; }

    // A client message, then the end of the turn (the deferred tasks).
    void act(const play::client_ref& c, const play::player_record& p, protocol::room_action action, json req = nullptr)
    {
        room->handle(c, p, action, req);
        host.run_deferred();
    }
    void act(seat s, protocol::room_action action, json req = nullptr) { act(conn(s), player(s), action, std::move(req)); }
    void give(seat s, int piece, json req = nullptr)
    {
        act(s, protocol::give{quarto::piece{static_cast<std::uint8_t>(piece)}}, std::move(req));
    }
    void place(seat s, int square, json req = nullptr)
    {
        act(s, protocol::place{static_cast<quarto::square>(square)}, std::move(req));
    }
    void call(seat s, std::initializer_list<int> line, json req = nullptr)
    {
        act(s, protocol::call_quarto{mask(line)}, std::move(req));
    }

    // The frames `c` got since the last look: exactly one, of this type.
    json only(const play::client_ref& c, const std::string& type)
    {
        const auto got = host.take(c);
        INFO(host.transcript(c));
        REQUIRE(types_of(got) == strings{type});
        return got[0];
    }
    // Both players got exactly this one event (the same one); returns it.
    json both(const std::string& type)
    {
        const json to_a = only(a, type);
        const json to_b = only(b, type);
        CHECK(to_a == to_b);
        return to_a;
    }

    // Plays give/place steps from `giver`'s give, each answered by its event to both players.
    // Returns the last placer.
    seat play(seat giver, const std::vector<step>& steps)
    {
        seat placer = giver;
        for (const step& s : steps) {
            give(giver, s.piece);
            const json given = both("given");
            CHECK(given["seat"] == giver);
            CHECK(given["piece"] == s.piece);
            placer = quarto::opponent(giver);
            place(placer, s.square);
            const json placed = both("placed");
            CHECK(placed["seat"] == placer);
            CHECK(placed["square"] == s.square);
            giver = placer;
        }
        return placer;
    }

    // The snapshot as another connection of seat `as` (Ann's by default) sees it (the player is
    // still connected: no event), the connection then closed again.
    json peek(seat as = 0)
    {
        const auto look = host.connect();
        room->resume(look, player(as));
        const auto got = host.take(look);
        room->detach(look);
        INFO(host.transcript(look));
        REQUIRE(types_of(got) == strings{"room"});
        return got[0];
    }
};

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
    CHECK(d.host.lobby_of(d.id)->status == protocol::room_status::waiting);

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
    CHECK(lobby->status == protocol::room_status::playing);
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

// ---- the claim window --------------------------------------------------------------------------

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
    CHECK(d.host.lobby_of(d.id)->status == protocol::room_status::finished);
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

// ---- the move clock ----------------------------------------------------------------------------

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

// ---- rematch -----------------------------------------------------------------------------------

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
    CHECK(d.host.lobby_of(d.id)->status == protocol::room_status::playing);

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

// ---- who is connected --------------------------------------------------------------------------

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
    CHECK(d.room->lobby().status == protocol::room_status::finished);
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
    CHECK(d.room->lobby().status == protocol::room_status::playing);
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

// ---- spectators --------------------------------------------------------------------------------

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

// ---- sync --------------------------------------------------------------------------------------

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

// ---- leaving and closing -------------------------------------------------------------------------

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
    CHECK(lobby->status == protocol::room_status::waiting);
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
    CHECK(d.host.counters().rooms[static_cast<std::size_t>(protocol::room_status::finished)].load() == 0);

    // Closed: messages get no_such_room, resume and detach do nothing.
    d.act(0, protocol::rematch{}, "r");
    CHECK(error_to(d.host, d.a, "no_such_room")["req"] == "r");
    d.room->resume(d.host.connect(), *d.ann);
    d.room->detach(d.b);
    CHECK(d.host.take(d.a).empty());
    CHECK(d.room->reclaim_if_idle(idle)); // still closed: the sweep drops it
    CHECK(d.host.sweep(idle) == strings{d.id});
}

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

// ---- tournament rooms ----------------------------------------------------------------------------

TEST_CASE("room: a tournament game starts at once with the tournament's first seat, and refuses rematch")
{
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    std::vector<std::pair<quarto::game_result, std::string>> results;
    play::room_settings s = settings_with();
    s.tournament = play::tournament_link{"tclub", seat{1}, [&](const quarto::game_result& r, const std::string& game) {
                                             results.emplace_back(r, game);
                                         }};
    play::room& r = host.open_game_room(std::move(s), *ann, *bo);
    host.run_deferred();
    CHECK(host.lobby_of(r.id())->status == protocol::room_status::playing);
    CHECK(r.listing().tournament == "tclub");
    CHECK(host.next_alarm() == instant{move_ms});

    const auto a = host.connect();
    r.resume(a, *ann);
    const auto got = host.take(a);
    INFO(host.transcript());
    REQUIRE(types_of(got) == strings{"room"});
    CHECK(got[0]["tournament"] == "tclub");
    CHECK(got[0]["game"]["first"] == 1);
    CHECK(got[0]["you"]["seat"] == 0);
    CHECK(got[0]["players"][1]["connected"] == false);

    r.handle(a, *ann, protocol::resign{}, nullptr);
    CHECK(results.empty()); // the result goes back in a deferred task
    host.run_deferred();
    REQUIRE(results.size() == 1);
    CHECK(results[0].first.winner == seat{1});
    CHECK(results[0].first.reason == quarto::end_reason::resign);
    const json over = of_type(host.take(a), "game_over").at(0);
    CHECK(results[0].second == over["game"]);

    r.handle(a, *ann, protocol::rematch{}, "again");
    host.run_deferred();
    CHECK(error_to(host, a, "wrong_phase")["message"] ==
          "Tournament games have no rematch; the tournament pairs the next game.");
    CHECK(results.size() == 1);
}

TEST_CASE("room: nobody takes a vacated seat of a tournament game - a stranger may watch")
{
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    const auto cy = host.players().create("Cy");
    int reported = 0;
    play::room_settings s = settings_with();
    s.tournament = play::tournament_link{"tclub", seat{0}, [&](const quarto::game_result&, const std::string&) { ++reported; }};
    play::room& r = host.open_game_room(std::move(s), *ann, *bo);
    const auto a = host.connect();
    r.resume(a, *ann);
    r.handle(a, *ann, protocol::leave{}, nullptr); // resigns, and empties seat 0
    host.run_deferred();
    CHECK(reported == 1);

    const auto c = host.connect();
    for (const auto* who : {cy.get(), ann.get()}) { // a stranger, and the player who left
        r.handle(c, *who, protocol::join{false}, "sit");
        host.run_deferred();
        const json e = error_to(host, c, "room_full");
        CHECK(e["req"] == "sit");
    }
    CHECK(host.lobby_of(r.id())->status != protocol::room_status::playing); // no new game
    CHECK(reported == 1);
    r.handle(c, *cy, protocol::join{true}, "watch");
    host.run_deferred();
    CHECK(of_type(host.take(c), "room").at(0)["req"] == "watch");
}

TEST_CASE("room: forfeit ends the game of a removed player and sends the result back")
{
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    int reported = 0;
    std::optional<quarto::game_result> result;
    play::room_settings s = settings_with();
    s.tournament = play::tournament_link{"tclub", seat{0}, [&](const quarto::game_result& r, const std::string&) {
                                             ++reported;
                                             result = r;
                                         }};
    play::room& r = host.open_game_room(std::move(s), *ann, *bo);
    const auto b = host.connect();
    r.resume(b, *bo);
    host.take(b);

    r.forfeit(host.players().create("Cy")->info.id); // not seated: nothing
    CHECK(host.take(b).empty());

    SUBCASE("in time: a resignation")
    {
        r.forfeit(bo->info.id);
        host.run_deferred();
        const json over = of_type(host.take(b), "game_over").at(0);
        CHECK(over["winner"] == 0);
        CHECK(over["reason"] == "resign");
        REQUIRE(result);
        CHECK(result->winner == seat{0});
        CHECK(result->reason == quarto::end_reason::resign);
    }
    SUBCASE("past the deadline: the timeout stands")
    {
        host.skew(move_ms); // Ann (first) has run out of time, the timer has not fired
        r.forfeit(bo->info.id);
        host.run_deferred();
        CHECK(of_type(host.take(b), "game_over").at(0)["reason"] == "timeout");
        REQUIRE(result);
        CHECK(result->winner == seat{1});
        CHECK(result->reason == quarto::end_reason::timeout);
    }
    CHECK(reported == 1);
    CHECK(host.archived().size() == 1);
    CHECK(host.armed_alarms() == 0);
    r.forfeit(bo->info.id); // over already
    host.run_deferred();
    CHECK(reported == 1);
    CHECK(host.take(b).empty());
}

// ---- the archive and seq ---------------------------------------------------------------------

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
