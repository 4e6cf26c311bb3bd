// The computer opponent's levels: every move legal, the weakest still careful with the piece
// it gives, and the stronger ones taking the wins they see.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <random>

#include "random_position.hpp"
#include "quarto/core/solver/bot.hpp"

using namespace quarto;
using namespace quarto::solver;
using quarto::test::random_position;

namespace {

bool wins_at_once(const rules& r, const position& p)
{
    if (!p.hand) return false;
    for (square s = 0; s < board_squares; ++s) {
        if (p.placed.occupied(s)) continue;
        board b = p.placed;
        b.put(s, *p.hand);
        if (r.quarto_through(b, s)) return true;
    }
    return false;
}

} // namespace

TEST_CASE("bot: every level plays legal moves, calls a Quarto it can make from level 2 on, and never hands over a win it could avoid")
{
    std::mt19937_64 random{5};
    quarto::solver::solver s{std::size_t{4} << 20};
    const rules r{};
    for (int level = min_bot_level; level <= max_bot_level; ++level) {
        for (int n = 0; n < 40; ++n) {
            const position p = random_position(random, 3 + n % 6);
            std::vector<move> legal;
            legal_moves(r, p, legal);
            const move m = bot_move(level, r, p, s, random);
            REQUIRE(std::find(legal.begin(), legal.end(), m) != legal.end());
            if (level >= 2 && level != 3 && level != 4 && wins_at_once(r, p)) CHECK(m.call);
            // A piece that wins at once for the opponent only when every piece does.
            const auto next = after(p, m);
            if (next && next->hand && wins_at_once(r, *next)) {
                for (const move& other : legal) {
                    const auto alt = after(p, other);
                    if (other.place == m.place && alt && alt->hand) CHECK_MESSAGE(wins_at_once(r, *alt), "level " << level << " " << board_text(p.placed) << " hand " << int(p.hand->code()) << " played " << int(*m.place) << "/" << int(m.give->code()));
                }
            }
        }
    }
    CHECK(bot_name(4) == "Computer (level 4)");
    // Levels 3 and 4 miss Quartos, 3 more often; the others never.
    CHECK(bot_miss_rate(3) > bot_miss_rate(4));
    CHECK(bot_miss_rate(4) > 0);
    for (int level : {1, 2, 5}) CHECK(bot_miss_rate(level) == 0);
}

TEST_CASE("bot: a hurried move is legal, calls a Quarto it can make, and hands over no win another move avoids")
{
    std::mt19937_64 random{11};
    for (const rules& r : {rules{}, rules{true}}) {
        for (int n = 0; n < 200; ++n) {
            const position p = random_position(random, 2 + n % 10);
            std::vector<move> legal;
            legal_moves(r, p, legal);
            const move m = hurried_move(r, p, random);
            REQUIRE(std::find(legal.begin(), legal.end(), m) != legal.end());
            CHECK(m.call == std::any_of(legal.begin(), legal.end(), [](const move& x) { return x.call; }));
            const auto next = after(p, m);
            if (!m.call && next && next->hand && wins_at_once(r, *next))
                for (const move& other : legal) {
                    const auto alt = after(p, other);
                    if (alt && alt->hand) CHECK(wins_at_once(r, *alt));
                }
        }
    }
}

TEST_CASE("bot: level 5 always calls or claims a Quarto on the board")
{
    std::mt19937_64 random{9};
    quarto::solver::solver s{std::size_t{1} << 20};
    position claimable;
    claimable.placed = *board_from_text("1357............");
    claimable.hand = piece{0};
    claimable.callable = square{3};
    for (int n = 0; n < 20; ++n) CHECK(bot_move(5, rules{}, claimable, s, random) == move{std::nullopt, std::nullopt, true});
}

TEST_CASE("bot: the first give is answered without a search, and varies")
{
    std::mt19937_64 random{5};
    quarto::solver::solver s{std::size_t{1} << 20};
    const std::vector<rules> all{rules{}, rules{.squares = true}, rules{.attributes = *attribute_set::from_bits(0x3)}};
    for (const rules& r : all) {
        piece_set seen = 0;
        for (int n = 0; n < 40; ++n) {
            // A search of the empty board could not finish: should_stop fails the test if asked.
            const move m = bot_move(5, r, position{}, s, random, [] {
                FAIL("the first give searched");
                return true;
            });
            REQUIRE(m.give);
            CHECK_FALSE(m.place);
            CHECK_FALSE(m.call);
            seen = static_cast<piece_set>(seen | (1u << m.give->code()));
        }
        CHECK(std::popcount(static_cast<unsigned>(seen)) > 1);
    }
}
