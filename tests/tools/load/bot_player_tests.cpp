// The bots' game play: two bots play whole games through a referee game, which must accept every
// action they choose; whenever a placer's piece completes a Quarto, the placer calls it.
#include <doctest/doctest.h>

#include "bot_player.hpp"

using namespace quarto;
using quarto::load::bot_player;

namespace {

struct tally {
    int games = 0;
    int quartos = 0;
    int draws = 0;
    int actions = 0;
};

// Plays one game to the end. The referee is the real game; the bots only hear of accepted
// actions, as they would from the server's events.
void play_one(std::uint64_t seed, tally& t)
{
    bot_player bots[2] = {bot_player{0, seed * 2 + 1}, bot_player{1, seed * 2 + 2}};
    const seat first = static_cast<seat>(seed % 2);
    const clock_settings untimed{.move = std::nullopt};
    game referee{rules{}, untimed, first, at_ms(0)};
    for (auto& b : bots) b.on_game_started(first);

    for (int step = 0; step < 100 && !referee.finished(); ++step) {
        const seat mover = referee.turn();
        const seat other = opponent(mover);
        CHECK_FALSE(bots[other].next_action().has_value()); // only the seat to act acts

        // A Quarto through the mover's own placement must be called, not given away.
        std::optional<square_mask> must_call;
        if (referee.phase() == phase::give)
            if (const auto last = referee.last_placement(); last && last->by == mover)
                must_call = referee.rules().quarto_through(referee.board(), last->where);

        const auto a = bots[mover].next_action();
        REQUIRE(a.has_value());
        CHECK(a->by == mover);
        if (must_call) {
            CHECK(a->kind == move_kind::call);
            CHECK(a->line == *must_call);
        }
        const outcome o = referee.apply(*a, at_ms(0));
        CAPTURE(to_string(a->kind));
        REQUIRE(o.ok());
        ++t.actions;

        switch (a->kind) {
        case move_kind::give:
            for (auto& b : bots) REQUIRE(b.on_given(mover, a->value));
            break;
        case move_kind::place:
            for (auto& b : bots) REQUIRE(b.on_placed(mover, a->value));
            break;
        case move_kind::pass:
            for (auto& b : bots) REQUIRE(b.on_passed(mover));
            break;
        case move_kind::call:
        case move_kind::resign:
            break;
        }
        if (referee.finished())
            for (auto& b : bots) b.on_game_over();
    }
    REQUIRE(referee.finished());
    const auto result = referee.result();
    REQUIRE(result.has_value());
    // Every Quarto was called at once, so games end only by a call or a full board.
    CHECK((result->reason == end_reason::quarto || result->reason == end_reason::board_full));
    ++t.games;
    if (result->reason == end_reason::quarto) ++t.quartos;
    if (result->reason == end_reason::board_full) ++t.draws;
    for (auto& b : bots) {
        CHECK_FALSE(b.playing());
        CHECK_FALSE(b.next_action().has_value());
    }
}

} // namespace

TEST_CASE("bots play only legal moves and call every Quarto they make")
{
    tally t;
    for (std::uint64_t seed = 0; seed < 3000; ++seed) play_one(seed, t);
    CHECK(t.games == 3000);
    // Random games almost always end in a Quarto (core/README: about 98 %); both kinds occur.
    CHECK(t.quartos > 2700);
    CHECK(t.quartos + t.draws == t.games);
    MESSAGE("games " << t.games << ", quartos " << t.quartos << ", draws " << t.draws << ", actions " << t.actions);
}

TEST_CASE("a bot does nothing before a game or when it is not its turn")
{
    bot_player a{0, 1};
    CHECK_FALSE(a.playing());
    CHECK_FALSE(a.next_action().has_value());
    a.on_game_started(1); // seat 1 gives first
    CHECK(a.playing());
    CHECK_FALSE(a.next_action().has_value());
    // The opponent gives piece 3: now seat 0 places it.
    REQUIRE(a.on_given(1, 3));
    const auto place = a.next_action();
    REQUIRE(place.has_value());
    CHECK(place->kind == move_kind::place);
    CHECK(place->value < 16);
}

TEST_CASE("events that do not fit the bot's game are refused, not applied")
{
    bot_player a{0, 1};
    CHECK_FALSE(a.on_given(0, 3)); // no game yet
    a.on_game_started(0);
    CHECK_FALSE(a.on_given(1, 3));  // not seat 1's turn
    CHECK_FALSE(a.on_placed(0, 5)); // nothing in hand
    CHECK_FALSE(a.on_given(0, 16)); // no such piece
    REQUIRE(a.on_given(0, 3));
    CHECK_FALSE(a.on_given(0, 4)); // seat 1 must place first
    CHECK_FALSE(a.on_placed(1, 16));
    REQUIRE(a.on_placed(1, 5));
    REQUIRE(a.current() != nullptr);
    CHECK(a.current()->board().occupied(5));
}

TEST_CASE("after the game is over the bot stops until the next game starts")
{
    bot_player a{0, 9};
    a.on_game_started(0);
    CHECK(a.next_action().has_value());
    a.on_game_over();
    CHECK_FALSE(a.playing());
    CHECK_FALSE(a.next_action().has_value());
    a.on_game_started(0);
    CHECK(a.playing());
    CHECK(a.next_action().has_value());
}

TEST_CASE("a bot picks a game up from a room snapshot's moves")
{
    // Seat 1 gave first: give 3, seat 0 places it on 5, then gives 9; seat 1 is to place.
    const auto g = load::read_snapshot_game(
        R"({"board":[],"moves":[{"type":"give","seat":1,"piece":3,"t_ms":10},{"type":"place","seat":0,"square":5,"t_ms":20},)"
        R"({"type":"give","seat":0,"piece":9,"t_ms":30}],"first":1,"phase":"place"})");
    REQUIRE(g.has_value());
    REQUIRE(g->first == seat{1});
    REQUIRE(g->moves.size() == 3);
    bot_player b{1, 7};
    REQUIRE(b.restore(*g));
    REQUIRE(b.playing());
    CHECK(b.current()->moves().size() == 3);
    const auto place = b.next_action();
    REQUIRE(place.has_value());
    CHECK(place->kind == move_kind::place);
    CHECK(place->value != 5); // square 5 is taken
    bot_player other{0, 8};
    REQUIRE(other.restore(*g));
    CHECK_FALSE(other.next_action().has_value()); // not seat 0's turn

    // Before any game; a game ended by a call; moves that are not a legal game.
    const auto empty = load::read_snapshot_game(R"({"moves":[],"first":null})");
    REQUIRE(empty.has_value());
    REQUIRE(b.restore(*empty));
    CHECK_FALSE(b.playing());
    const auto called = load::read_snapshot_game(
        R"({"moves":[{"type":"give","seat":0,"piece":1},{"type":"quarto","seat":1,"line":[0,1,2,3]}],"first":0})");
    REQUIRE(called.has_value());
    REQUIRE(b.restore(*called));
    CHECK_FALSE(b.playing());
    const auto illegal = load::read_snapshot_game(R"({"moves":[{"type":"place","seat":0,"square":1}],"first":0})");
    REQUIRE(illegal.has_value());
    CHECK_FALSE(b.restore(*illegal));
    CHECK_FALSE(b.playing());
    // Not a snapshot's game at all.
    CHECK_FALSE(load::read_snapshot_game("[]").has_value());
    CHECK_FALSE(load::read_snapshot_game(R"({"moves":[{"type":"give","seat":2,"piece":1}],"first":0})").has_value());
    CHECK_FALSE(load::read_snapshot_game(R"({"moves":[{"type":"give","seat":0,"piece":16}],"first":0})").has_value());
    CHECK_FALSE(load::read_snapshot_game(R"({"moves":[{"type":"give","seat":0,"piece":1}]})").has_value());
    CHECK_FALSE(load::read_snapshot_game("{not json").has_value());
}
