// The computer's strongest level against the others and random play, over whole games played
// with quarto::game and solver::bot_move alone: from a position that is drawn or won for it (by
// an exact solve), level 5 never loses, and from a won one it wins. The openings are random and
// reach the middle game (8 placements made), where an exact search is quick even in a sanitized
// build; the seeds are fixed, so a failure is reproducible.
#include <doctest/doctest.h>

#include <array>
#include <memory>
#include <random>
#include <string>

#include "quarto/core/game.hpp"
#include "quarto/core/solver/bot.hpp"
#include "quarto/core/solver/solver.hpp"

using namespace quarto;

namespace {

constexpr int opening_placements = 8;
constexpr int games_per_opponent = 40; // levels 1..4 and random play: 200 games
constexpr int random_play = 0;         // the opponent that picks any legal action

// Untimed, and every action a millisecond after the last: no claim window ever closes on its own.
struct table {
    game g{rules{}, clock_settings{std::nullopt, milliseconds{10'000}}, 0, at_ms(0)};
    std::int64_t t = 0;
    instant now() { return at_ms(++t); }
};

void apply_or_fail(table& tb, const action& a)
{
    const outcome o = tb.g.apply(a, tb.now());
    REQUIRE_MESSAGE(o.ok(), "refused: " << to_string(o.error()));
}

// One legal action at random (calls included, as a careless person might).
void random_action(table& tb, std::mt19937_64& random)
{
    action_list legal;
    tb.g.legal_actions(legal);
    REQUIRE(legal.size() > 0);
    apply_or_fail(tb, legal[std::uniform_int_distribution<std::size_t>{0, legal.size() - 1}(random)]);
}

// The seat to act plays `m`: place, then call the line through the judged placement, give, or
// pass when nothing is left.
void play_move(table& tb, const solver::move& m)
{
    const seat s = tb.g.turn();
    if (m.place) apply_or_fail(tb, {move_kind::place, s, *m.place});
    if (m.call) {
        const auto judged = tb.g.last_placement();
        REQUIRE(judged);
        const auto line = tb.g.rules().quarto_through(tb.g.board(), judged->where);
        REQUIRE_MESSAGE(line, "the bot called a Quarto that is not there");
        apply_or_fail(tb, {move_kind::call, s, 0, *line});
    } else if (m.give) {
        apply_or_fail(tb, {move_kind::give, s, m.give->code()});
    } else if (!tb.g.finished()) {
        apply_or_fail(tb, {move_kind::pass, s});
    }
}

// Where no position is left to search (the final window, or a full board after one's own
// placement): call or claim the last placement if it completes a pattern, else pass.
void end_of_board(table& tb)
{
    const seat s = tb.g.turn();
    const auto last = tb.g.last_placement();
    const auto line = last ? tb.g.rules().quarto_through(tb.g.board(), last->where) : std::nullopt;
    if (line) apply_or_fail(tb, {move_kind::call, s, 0, *line});
    else apply_or_fail(tb, {move_kind::pass, s});
}

struct players {
    std::array<std::unique_ptr<solver::solver>, 6> by_level; // one table per level: no sharing
    solver::solver& of(int level)
    {
        auto& s = by_level[static_cast<std::size_t>(level)];
        if (!s) s = std::make_unique<solver::solver>(std::size_t{4} << 20);
        return *s;
    }
};

// Plays the game out: `strong` plays level 5, the other seat `rival` (1..4, or random_play).
void play_out(table& tb, seat strong, int rival, players& ps, std::mt19937_64& random)
{
    for (int guard = 0; guard < 200 && !tb.g.finished(); ++guard) {
        const seat s = tb.g.turn();
        if (s != strong && rival == random_play) {
            random_action(tb, random);
            continue;
        }
        const auto p = solver::position_of(tb.g);
        if (!p || tb.g.board().full()) {
            end_of_board(tb);
            continue;
        }
        const int level = s == strong ? solver::max_bot_level : rival;
        play_move(tb, solver::bot_move(level, tb.g.rules(), *p, ps.of(level), random));
    }
    REQUIRE(tb.g.finished());
}

} // namespace

TEST_CASE("bot: level 5 never loses a drawn or won position against levels 1-4 and random play, and wins every won one")
{
    players ps;
    solver::solver judge{std::size_t{8} << 20};
    int games = 0, won_positions = 0, drawn_positions = 0, skipped_lost = 0;
    for (int rival = random_play; rival <= 4; ++rival) {
        std::mt19937_64 random{static_cast<std::uint64_t>(1000 + rival)};
        int played = 0;
        while (played < games_per_opponent) {
            // A random opening by both seats; level 5 takes the seat to act after it.
            table tb;
            // Up to a turn's start with a piece in hand, after the opening's last give.
            while (!tb.g.finished() && (tb.g.board().pieces_placed() < opening_placements || tb.g.phase() != phase::place))
                random_action(tb, random);
            if (tb.g.finished()) continue;
            const auto p = solver::position_of(tb.g);
            REQUIRE(p);
            const solver::result value = judge.solve(tb.g.rules(), *p);
            REQUIRE(value.exact);
            if (value.value.value == solver::game_value::loss) {
                ++skipped_lost;
                continue;
            }
            const bool won = value.value.value == solver::game_value::win;
            const seat strong = tb.g.turn();
            CAPTURE(rival);
            CAPTURE(games);
            CAPTURE(solver::board_text(p->placed));
            play_out(tb, strong, rival, ps, random);
            const auto result = *tb.g.result();
            CHECK_MESSAGE(result.winner != opponent(strong), "level 5 lost by " << to_string(result.reason));
            if (won) CHECK_MESSAGE(result.winner == strong, "level 5 did not win a won position: " << to_string(result.reason));
            (won ? won_positions : drawn_positions) += 1;
            ++played;
            ++games;
        }
    }
    CHECK(games == 5 * games_per_opponent);
    // Both kinds were tried, so the test says something about each.
    CHECK(won_positions > 10);
    MESSAGE("positions: " << won_positions << " won, " << drawn_positions << " drawn, " << skipped_lost
                          << " lost skipped");
}
