// Perft: the number of legal action sequences to a small depth, counted twice. Once with
// game::legal_actions/apply; once by brute force that never asks the engine what is legal: it
// tries every conceivable action by both seats (each of 16 gives, each of 16 placements, each
// of the 1820 sets of 4 squares as a call, a pass) on a copy through the public action methods
// and follows those accepted. A game that ends (a winning call, a draw) is a leaf.
#include <array>
#include <cstdint>

#include "support.hpp"

using namespace quarto;
using namespace quarto::test;

namespace {

struct perft_count {
    std::uint64_t leaves = 0;  // sequences of the full depth, or ending the game sooner
    std::uint64_t calls = 0;   // sequences ending in a winning call
    std::uint64_t passes = 0;  // pass actions taken along all sequences
    std::uint64_t draws = 0;   // sequences ending in board_full
    friend bool operator==(const perft_count&, const perft_count&) = default;
};

const instant t0 = at_ms(0); // every window of the test positions is open at this instant

void note_end(const game& g, perft_count& c)
{
    if (!g.finished()) return;
    if (g.result()->reason == end_reason::board_full) ++c.draws;
    if (g.moves().back().kind == move_kind::call) ++c.calls;
}

void perft_legal(const game& g, int depth, perft_count& c)
{
    if (depth == 0 || g.finished()) {
        ++c.leaves;
        note_end(g, c);
        return;
    }
    action_list list;
    g.legal_actions(list);
    for (const action& a : list) {
        game next = g;
        const outcome o = next.apply(a, t0);
        REQUIRE(o.ok());
        if (a.kind == move_kind::pass) ++c.passes;
        perft_legal(next, depth - 1, c);
    }
}

// The 1820 ways to choose 4 of the 16 squares, in no particular order.
const std::array<square_mask, 1820> four_square_sets = [] {
    std::array<square_mask, 1820> sets{};
    std::size_t n = 0;
    for (unsigned m = 0; m < 0x10000; ++m) {
        int bits = 0;
        for (unsigned x = m; x != 0; x >>= 1) bits += static_cast<int>(x & 1u);
        if (bits == 4) sets[n++] = static_cast<square_mask>(m);
    }
    return sets;
}();

void perft_brute(const game& g, int depth, perft_count& c)
{
    if (depth == 0 || g.finished()) {
        ++c.leaves;
        note_end(g, c);
        return;
    }
    for (seat s : {seat{0}, seat{1}}) {
        for (std::uint8_t p = 0; p < 16; ++p) {
            game next = g;
            if (next.give(s, piece{p}, t0)) perft_brute(next, depth - 1, c);
        }
        for (std::uint8_t q = 0; q < 16; ++q) {
            game next = g;
            if (next.place(s, q, t0)) perft_brute(next, depth - 1, c);
        }
        for (square_mask m : four_square_sets) {
            game next = g;
            if (next.call_quarto(s, m, t0)) perft_brute(next, depth - 1, c);
        }
        game next = g;
        if (next.pass(s, t0)) {
            ++c.passes;
            perft_brute(next, depth - 1, c);
        }
    }
}

perft_count legal_count(const game& g, int depth)
{
    perft_count c;
    perft_legal(g, depth, c);
    return c;
}
perft_count brute_count(const game& g, int depth)
{
    perft_count c;
    perft_brute(g, depth, c);
    return c;
}

// Standard rules, 9 pieces placed; the 9th (10 on square 13, by seat 1) made a line that
// nobody called; seat 1 gave 4 and seat 0, to place, may claim it. 7 empty squares, 6 pieces
// left; 15 of the 49 (piece, square) pairs would make a Quarto.
game standard_midgame()
{
    game g{rules{}, untimed, 0, t0};
    play(g, {{11, 1}, {1, 0}, {0, 12}, {8, 14}, {13, 8}, {5, 3}, {2, 9}, {7, 5}, {10, 13}}, t0);
    REQUIRE(g.give(1, piece{4}, t0));
    return g;
}

// Advanced rules (2x2 squares count), 7 placed; the 7th (8 on square 4, by seat 1) made a
// pattern; seat 1 gave 12 and seat 0 may claim it. 9 empty squares, 8 pieces left.
game advanced_midgame()
{
    game g{rules{.squares = true}, untimed, 0, t0};
    play(g, {{13, 5}, {3, 12}, {11, 9}, {10, 8}, {9, 6}, {5, 1}, {8, 4}}, t0);
    REQUIRE(g.give(1, piece{12}, t0));
    return g;
}

// Standard rules, 13 placed without any line; seat 0 holds the 14th piece. Three squares and
// three pieces remain, so the tree reaches the 16th placement, the pass and the final window.
game standard_endgame()
{
    constexpr int last_wins_arrangement[16] = {14, 10, 13, 4, 0, 5, 11, 12, 1, 3, 6, 15, 8, 2, 9, 7};
    game g{rules{}, untimed, 0, t0};
    for (int s = 0; s < 13; ++s) give_and_place(g, last_wins_arrangement[s], s, t0);
    REQUIRE(g.give(g.turn(), piece{2}, t0));
    return g;
}

} // namespace

namespace doctest {
template <>
struct StringMaker<perft_count> {
    static String convert(const perft_count& c)
    {
        return ("{leaves " + std::to_string(c.leaves) + ", calls " + std::to_string(c.calls) + ", passes " +
                std::to_string(c.passes) + ", draws " + std::to_string(c.draws) + "}")
            .c_str();
    }
};
} // namespace doctest

TEST_CASE("the brute-force action generator sees 1820 distinct four-square sets")
{
    for (std::size_t i = 0; i < four_square_sets.size(); ++i) {
        REQUIRE(size(four_square_sets[i]) == 4);
        if (i > 0) REQUIRE(four_square_sets[i - 1] < four_square_sets[i]);
    }
}

TEST_CASE("perft from the start: 16, 256, 3840, 57600 (no call possible yet)")
{
    const game start{rules{}, untimed, 0, t0};
    CHECK(legal_count(start, 1) == perft_count{16, 0, 0, 0});
    CHECK(legal_count(start, 2) == perft_count{256, 0, 0, 0});
    CHECK(legal_count(start, 3) == perft_count{3840, 0, 0, 0});
    CHECK(legal_count(start, 4) == perft_count{57600, 0, 0, 0});
    for (int depth = 1; depth <= 3; ++depth) {
        CAPTURE(depth);
        CHECK(brute_count(start, depth) == legal_count(start, depth));
    }
}

TEST_CASE("perft from a standard mid-game position with quarto chances")
{
    const game g = standard_midgame();
    // perft(1): 7 placements and the claim; perft(2): 7 x 6 gives, 3 placements that allow a
    // call, and the claim.
    CHECK(legal_count(g, 1) == perft_count{8, 1, 0, 0});
    CHECK(legal_count(g, 2) == perft_count{46, 4, 0, 0});
    CHECK(legal_count(g, 3) == perft_count{274, 22, 0, 0});
    CHECK(legal_count(g, 4) == perft_count{1358, 98, 0, 0});
    for (int depth = 1; depth <= 4; ++depth) {
        CAPTURE(depth);
        CHECK(brute_count(g, depth) == legal_count(g, depth));
    }
}

TEST_CASE("perft from an advanced-variant mid-game position with quarto chances")
{
    const game g = advanced_midgame();
    CHECK(legal_count(g, 1) == perft_count{10, 1, 0, 0});
    CHECK(legal_count(g, 2) == perft_count{77, 5, 0, 0});
    CHECK(legal_count(g, 3) == perft_count{613, 37, 0, 0});
    CHECK(legal_count(g, 4) == perft_count{4353, 321, 0, 0});
    for (int depth = 1; depth <= 3; ++depth) {
        CAPTURE(depth);
        CHECK(brute_count(g, depth) == legal_count(g, depth));
    }
    // The same placements under standard rules offer fewer winning calls.
    game standard{rules{}, untimed, 0, t0};
    play(standard, {{13, 5}, {3, 12}, {11, 9}, {10, 8}, {9, 6}, {5, 1}, {8, 4}}, t0);
    REQUIRE(standard.give(1, piece{12}, t0));
    CHECK(legal_count(standard, 3).calls < legal_count(g, 3).calls);
}

TEST_CASE("perft to the end of the game: the 16th piece, the pass, the final window, the draw")
{
    const game g = standard_endgame();
    const perft_count expected[] = {
        {3, 0, 0, 0},   {6, 0, 0, 0},    {12, 0, 0, 0},    {16, 4, 0, 0},    {20, 8, 0, 0},
        {24, 12, 12, 0}, {28, 16, 24, 12}, {28, 16, 24, 12}, {28, 16, 24, 12},
    };
    for (int depth = 1; depth <= 9; ++depth) {
        CAPTURE(depth);
        CHECK(legal_count(g, depth) == expected[depth - 1]);
    }
    for (int depth : {3, 6, 9}) {
        CAPTURE(depth);
        CHECK(brute_count(g, depth) == legal_count(g, depth));
    }
    CHECK(legal_count(g, 12) == legal_count(g, 9)); // no game from here is longer than 8 actions
}
