// The solver against plain minimax (no table, no symmetry, no pruning but the rules' own end
// at a Quarto), on random positions of both rule sets and a beginner subset; its values under
// every symmetry; its budget; and the position helpers.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include "random_position.hpp"
#include "quarto/core/solver/solver.hpp"
#include "../../core/src/solver/symmetry.hpp"
#include "../../core/src/solver/table.hpp"
#include "minimax.hpp"

using namespace quarto;
using namespace quarto::solver;
using quarto::test::random_position;
using solver_t = quarto::solver::solver;

namespace {

evaluation as_evaluation(int score, int placed)
{
    if (score > 0) return {game_value::win, static_cast<std::uint8_t>(17 - score - placed)};
    if (score < 0) return {game_value::loss, static_cast<std::uint8_t>(17 + score - placed)};
    return {game_value::draw, static_cast<std::uint8_t>(16 - placed)};
}

std::string describe(const rules& r, const position& p)
{
    return board_text(p.placed) + " hand " + std::to_string(p.hand->code()) + (r.squares ? " squares" : " lines") +
           " attributes " + std::to_string(r.attributes.bits());
}

const rules lines_rules{};
const rules squares_rules{true, attribute_set::all(), false_claim_policy::reject};
const rules beginner_rules{false, *attribute_set::from_bits(0x3), false_claim_policy::reject};

} // namespace

TEST_CASE("solver: the symmetry groups keep the patterns: 32 permutations for the lines, 8 with the 2x2 squares")
{
    CHECK(detail::symmetries(false).size() == 32);
    CHECK(detail::symmetries(true).size() == 8);
    for (bool squares : {false, true})
        for (const auto& sym : detail::symmetries(squares))
            for (square_mask m : patterns(squares)) CHECK(rules{squares}.is_pattern(sym.apply(m)));
    // The identity comes first: keys below the symmetric depth use it alone.
    for (int s = 0; s < 16; ++s) CHECK(detail::symmetries(false)[0].to[s] == s);
}

TEST_CASE("solver: values and distances agree with plain minimax on random positions of up to 8 empty squares")
{
    std::mt19937 random{20261127};
    solver_t s{std::size_t{8} << 20};
    int compared = 0, wins = 0, losses = 0, draws = 0;
    for (const rules* r : {&lines_rules, &squares_rules, &beginner_rules}) {
        for (int n = 0; n < 600; ++n) {
            // Mostly small positions: plain minimax takes seconds on 7 empty squares and a
            // minute on some of 8 in this build (sanitizers, no optimization); bench/solver_bench
            // --check compares thousands of 8 in a release build.
            const int empties = n == 0 && r == &lines_rules ? 8 : n % 75 == 0 ? 7 : 2 + n % 5;
            const position p = random_position(random, empties);
            const int expected = quarto::test::minimax(*r, p.placed, p.available(), *p.hand);
            const result got = s.solve(*r, p);
            REQUIRE_MESSAGE(got.exact, describe(*r, p));
            CHECK_MESSAGE(got.value == as_evaluation(expected, p.placed.pieces_placed()), describe(*r, p));
            // The best move reaches the value: its own minimax agrees.
            const auto next = after(p, got.best);
            if (got.best.call) {
                CHECK(got.value.value == game_value::win);
                CHECK(got.value.distance == 1);
            } else if (next && next->hand) {
                const int reply = quarto::test::minimax(*r, next->placed, next->available(), *next->hand);
                CHECK_MESSAGE(-reply == expected, describe(*r, p));
            }
            ++compared;
            (expected > 0 ? wins : expected < 0 ? losses : draws)++;
        }
    }
    MESSAGE("compared " << compared << ": " << wins << " wins, " << losses << " losses, " << draws << " draws");
    CHECK(wins > 100);
    CHECK(losses > 30);
    CHECK(draws > 20);
}

TEST_CASE("solver: every legal move's value agrees with plain minimax")
{
    std::mt19937 random{7};
    solver_t s{std::size_t{4} << 20};
    for (int n = 0; n < 60; ++n) {
        const rules& r = n % 2 ? squares_rules : lines_rules;
        const position p = random_position(random, 3 + n % 4);
        std::vector<move> legal;
        legal_moves(r, p, legal);
        const auto values = s.evaluate_moves(r, p);
        REQUIRE(values.size() == legal.size());
        for (const move_value& v : values) {
            CHECK(v.exact);
            CHECK(std::find(legal.begin(), legal.end(), v.m) != legal.end());
            const int placed = p.placed.pieces_placed();
            board next = p.placed;
            next.put(*v.m.place, *p.hand);
            int expected = 0;
            if (v.m.call) expected = 17 - (placed + 1);
            else if (r.quarto_through(next, *v.m.place)) expected = -(17 - (placed + 1)); // uncalled: claimed
            else if (v.m.give) {
                position after_move{next, v.m.give, std::nullopt};
                expected = -quarto::test::minimax(r, next, after_move.available(), *v.m.give);
            }
            CHECK_MESSAGE(v.value == as_evaluation(expected, placed), describe(r, p));
            // One move alone, as a game's analysis asks for the move played, from a cold table.
            s.clear_table();
            const auto alone = s.evaluate_move(r, p, v.m);
            REQUIRE(alone);
            CHECK(alone->m == v.m);
            CHECK(alone->exact);
            CHECK(alone->value == v.value);
        }
        // A move that is not legal here: a square already taken.
        const square taken = static_cast<square>(std::countr_zero(p.placed.occupied()));
        CHECK_FALSE(s.evaluate_move(r, p, move{taken, std::nullopt, false}));
    }
}

TEST_CASE("solver: a position and its images under the board symmetries and piece relabellings have one value")
{
    std::mt19937 random{11};
    solver_t s{std::size_t{16} << 20};
    for (int n = 0; n < 40; ++n) {
        const bool squares = n % 2 == 1;
        const rules r{squares};
        const position p = random_position(random, 9);
        const evaluation value = s.solve(r, p).value;
        const auto group = detail::symmetries(squares);
        for (int t = 0; t < 4; ++t) {
            const auto& sym = group[std::uniform_int_distribution<std::size_t>{0, group.size() - 1}(random)];
            std::array<int, 4> attributes{0, 1, 2, 3};
            std::shuffle(attributes.begin(), attributes.end(), random);
            const int flip = std::uniform_int_distribution<int>{0, 15}(random);
            const auto relabel = [&](piece x) {
                int code = 0;
                for (int a = 0; a < 4; ++a)
                    if ((x.code() ^ flip) & (1 << a)) code |= 1 << attributes[a];
                return piece{static_cast<std::uint8_t>(code)};
            };
            position image;
            for (square q = 0; q < board_squares; ++q)
                if (const auto pc = p.placed.at(q)) image.placed.put(sym.to[q], relabel(*pc));
            image.hand = relabel(*p.hand);
            s.clear_table(); // the image's value from scratch, not from the first one's entries
            CHECK_MESSAGE(s.solve(r, image).value == value, describe(r, p));
        }
    }
}

TEST_CASE("solver: a node budget stops the search with a legal best move and an inexact value")
{
    std::mt19937 random{3};
    solver_t s{std::size_t{4} << 20};
    position p;
    p.hand = piece{0};
    limits l;
    l.max_nodes = 20'000;
    const result r = s.solve(lines_rules, p, l);
    CHECK_FALSE(r.exact);
    CHECK(r.nodes < 30'000);
    std::vector<move> legal;
    legal_moves(lines_rules, p, legal);
    CHECK(std::find(legal.begin(), legal.end(), r.best) != legal.end());
    // A stop flag from the caller: nothing is searched past it.
    limits stop_now;
    stop_now.should_stop = [] { return true; };
    const result stopped = s.solve(lines_rules, random_position(random, 12), stop_now);
    CHECK_FALSE(stopped.exact);
    CHECK(stopped.best.place.has_value());
    CHECK(stopped.depth_reached >= 1); // the first ply always finishes
    // evaluate_moves too: a value for every legal move, even stopped at once.
    const position twelve = random_position(random, 12);
    std::vector<move> legal12;
    legal_moves(lines_rules, twelve, legal12);
    CHECK(s.evaluate_moves(lines_rules, twelve, stop_now).size() == legal12.size());
}

TEST_CASE("solver: a Quarto on the board may be called, and a give that allows one loses at once")
{
    // Row 0 holds three dark pieces (codes 1, 3, 5): any dark piece on square 3 completes it.
    position p;
    p.placed = *board_from_text("135.............");
    p.hand = piece{7};
    solver_t s{std::size_t{1} << 20};
    const result r = s.solve(lines_rules, p);
    CHECK(r.value == evaluation{game_value::win, 1});
    CHECK(r.best == move{square{3}, std::nullopt, true});

    // The placer gives instead: the opponent may claim it (distance 0 for them).
    position claimable;
    claimable.placed = *board_from_text("1357............");
    claimable.hand = piece{0};
    claimable.callable = square{3};
    CHECK(s.solve(lines_rules, claimable).value == evaluation{game_value::win, 0});

    // The player to give, with only dark pieces left apart from the light ones already placed.
    position give;
    give.placed = *board_from_text("135.02468ace....");
    const result g = s.solve(lines_rules, give);
    CHECK(g.value.value == game_value::loss);
    CHECK(g.value.distance == 1); // whatever is given is placed on square 3 and called
}

TEST_CASE("solver: the position helpers: the board's text, a game's position and impossible positions")
{
    const auto b = board_from_text("0..f.....a......");
    REQUIRE(b);
    CHECK(board_text(*b) == "0..f.....a......");
    CHECK_FALSE(board_from_text("0..f"));
    CHECK_FALSE(board_from_text("0..g............"));

    CHECK(check(position{*board_from_text("00.............."), std::nullopt, std::nullopt}) == position_problem::piece_twice);
    CHECK(check(position{*board_from_text("0..............."), piece{0}, std::nullopt}) == position_problem::piece_twice);
    CHECK(check(position{*board_from_text("0123456789abcdef"), std::nullopt, std::nullopt}) == position_problem::board_full);
    CHECK(check(position{*board_from_text("0..............."), piece{1}, square{5}}) == position_problem::callable_empty);
    CHECK(check(position{*board_from_text("0..............."), piece{1}, square{0}}) == position_problem::none);

    game g{lines_rules, clock_settings{}, 0, instant{}};
    REQUIRE(g.give(0, piece{5}, instant{}));
    const auto at_place = position_of(g);
    REQUIRE(at_place);
    CHECK(at_place->hand == piece{5});
    REQUIRE(g.place(1, 6, instant{}));
    const auto at_give = position_of(g);
    REQUIRE(at_give);
    CHECK_FALSE(at_give->hand);
    CHECK(at_give->callable == square{6});
    CHECK(at_give->available() == static_cast<piece_set>(all_pieces & ~bit(piece{5})));
}

TEST_CASE("solver: one table serves every variant: a position's value under one rule set is never read under another")
{
    std::mt19937 random{13};
    solver_t shared{std::size_t{4} << 20};
    int differing = 0;
    for (int n = 0; n < 30; ++n) {
        const position p = random_position(random, 9);
        const evaluation with_squares = shared.solve(squares_rules, p).value;
        const evaluation lines = shared.solve(lines_rules, p).value;
        const evaluation beginner = shared.solve(beginner_rules, p).value;
        solver_t fresh{std::size_t{4} << 20};
        CHECK_MESSAGE(lines == fresh.solve(lines_rules, p).value, describe(lines_rules, p));
        CHECK_MESSAGE(beginner == fresh.solve(beginner_rules, p).value, describe(beginner_rules, p));
        CHECK_MESSAGE(with_squares == fresh.solve(squares_rules, p).value, describe(squares_rules, p));
        differing += with_squares == lines ? 0 : 1;
    }
    CHECK(differing > 0); // the variants do disagree on some of these positions
}

TEST_CASE("solver: pieces that differ only in attributes that cannot count have one value, and the table's key leaves those attributes out")
{
    // The beginner rules here count colour and height only: swapping two pieces that differ only
    // in shape or fill, wherever they are, changes nothing.
    std::mt19937 random{5};
    solver_t s{std::size_t{16} << 20};
    for (int n = 0; n < 30; ++n) {
        const position p = random_position(random, 9);
        const int x = std::uniform_int_distribution<int>{0, 15}(random);
        const int y = x ^ (4 << std::uniform_int_distribution<int>{0, 1}(random));
        const auto swapped = [&](piece q) {
            const int c = q.code();
            return piece{static_cast<std::uint8_t>(c == x ? y : c == y ? x : c)};
        };
        position image;
        for (square q = 0; q < board_squares; ++q)
            if (const auto pc = p.placed.at(q)) image.placed.put(q, swapped(*pc));
        image.hand = swapped(*p.hand);
        s.clear_table();
        const evaluation value = s.solve(beginner_rules, p).value;
        s.clear_table();
        CHECK_MESSAGE(s.solve(beginner_rules, image).value == value, describe(beginner_rules, p));
    }

    // Two boards that differ only in attribute 2: one key when it no longer matters, two when it does.
    const square_mask occupied = 0x00F3;
    const std::array<square_mask, 4> one{0x0031, 0x0012, 0x0050, 0x0003}, other{0x0031, 0x0012, 0x00A2, 0x0003};
    const auto group = detail::symmetries(false);
    CHECK(detail::key_of(occupied, one, 5, 0xB, group) == detail::key_of(occupied, other, 5, 0xB, group));
    CHECK_FALSE(detail::key_of(occupied, one, 5, 0xF, group) == detail::key_of(occupied, other, 5, 0xF, group));
    // Leaving an attribute out is not the same as an attribute no piece on the board has.
    const std::array<square_mask, 4> none{0x0031, 0x0012, 0x0000, 0x0003};
    CHECK_FALSE(detail::key_of(occupied, one, 0, 0xB, group) == detail::key_of(occupied, none, 0, 0xF, group));
}

TEST_CASE("solver: the table keeps an earlier search's deep results across searches only when asked to")
{
    // The smallest table (1024 buckets); 5000 shallow results of a later search fall on
    // nearly every bucket, the deep one's among them.
    const detail::table_key deep{0x1234'5678'9abc'def0ull, 0x0f0f};
    const auto later_search = [&](bool keep) {
        detail::table t{0};
        t.keep_generation(keep);
        t.new_search(false, 0xF);
        t.store(deep, 0, detail::bound_kind::exact, 12, detail::no_best);
        t.new_search(false, 0xF);
        for (std::uint64_t n = 1; n <= 5000; ++n)
            t.store({n * 0x9E37'79B9'7F4A'7C15ull, static_cast<square_mask>(n)}, 1, detail::bound_kind::lower, 7,
                    detail::no_best);
        return t.probe(deep);
    };
    const auto kept = later_search(true);
    REQUIRE(kept);
    CHECK(kept->depth == 12);
    CHECK(kept->bound == detail::bound_kind::exact);
    CHECK_FALSE(later_search(false)); // by default the newer search takes the bucket
}

TEST_CASE("solver: searches one after another in each other's trees, the table kept, give a fresh solver's values")
{
    // As tools/make_book solves them: a position, then each position its best move and a
    // reply lead to, with results kept across the searches in one small table.
    std::mt19937 random{20261129};
    solver_t kept{std::size_t{1} << 20};
    kept.keep_results_across_searches(true);
    int compared = 0;
    for (const rules* r : {&lines_rules, &squares_rules}) {
        for (int n = 0; n < 3; ++n) {
            const position first = random_position(random, 10);
            const result top = kept.solve(*r, first);
            solver_t fresh{std::size_t{1} << 20};
            CHECK_MESSAGE(top.value == fresh.solve(*r, first).value, describe(*r, first));
            const auto theirs = after(first, top.best);
            if (!theirs || !theirs->hand) continue;
            std::vector<move> replies;
            legal_moves(*r, *theirs, replies);
            for (std::size_t i = 0; i < replies.size(); i += 7) { // a sample: each is a search
                const auto ours = after(*theirs, replies[i]);
                if (replies[i].call || !ours || !ours->hand || check(*ours) != position_problem::none) continue;
                solver_t alone{std::size_t{1} << 20};
                CHECK_MESSAGE(kept.solve(*r, *ours).value == alone.solve(*r, *ours).value, describe(*r, *ours));
                ++compared;
            }
        }
    }
    CHECK(compared > 20);
}

TEST_CASE("solver: solve_in_order tries the root's moves in the order given and keeps the first of the best")
{
    std::mt19937 random{29};
    solver_t s{std::size_t{4} << 20};
    int with_choice = 0; // positions where more than one move has the best value
    for (const rules* r : {&lines_rules, &squares_rules}) {
        for (int n = 0; n < 40; ++n) {
            const position p = random_position(random, 6 + n % 3);
            std::vector<move> order;
            legal_moves(*r, p, order);
            std::shuffle(order.begin(), order.end(), random);
            const result got = s.solve_in_order(*r, p, order);
            REQUIRE(got.exact);
            CHECK_MESSAGE(got.value == s.solve(*r, p).value, describe(*r, p));
            const std::vector<move_value> every = s.evaluate_moves(*r, p);
            const auto value_of = [&](const move& m) {
                return std::find_if(every.begin(), every.end(), [&](const move_value& v) { return v.m == m; })->value;
            };
            const auto first_best = std::find_if(order.begin(), order.end(), [&](const move& m) { return value_of(m) == got.value; });
            REQUIRE(first_best != order.end());
            CHECK_MESSAGE(*first_best == got.best, describe(*r, p));
            with_choice += std::count_if(order.begin(), order.end(), [&](const move& m) { return value_of(m) == got.value; }) > 1;
        }
    }
    CHECK(with_choice > 20); // the order did have a choice to make
}
