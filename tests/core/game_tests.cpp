// The turn cycle (give, place, then call or give), every illegal action with its own error,
// "a rejected action changes nothing", and the move log.
#include "support.hpp"

using namespace quarto;
using namespace quarto::test;

namespace {
const rules standard{};
} // namespace

TEST_CASE("a new game: the coin-flip winner gives first, everything is available, clock runs")
{
    for (seat first : {seat{0}, seat{1}}) {
        const game g{standard, clock_settings{}, first, at_ms(1000)};
        CHECK(g.phase() == phase::give);
        CHECK(g.turn() == first);
        CHECK(g.first() == first);
        CHECK_FALSE(g.in_hand());
        CHECK(g.available() == all_pieces);
        CHECK(g.board() == board{});
        CHECK_FALSE(g.claim());
        CHECK_FALSE(g.last_placement());
        CHECK_FALSE(g.result());
        CHECK_FALSE(g.finished());
        CHECK(g.moves().empty());
        CHECK(g.started_at() == at_ms(1000));
        CHECK(g.moves_clock().running() == std::optional<seat>{first});
        CHECK(g.moves_clock().deadline() == std::optional<instant>{at_ms(61'000)});
        CHECK(g.next_deadline() == std::optional<instant>{at_ms(61'000)});
    }
}

TEST_CASE("give hands the piece to the opponent, who places it and then gives in turn")
{
    game g{standard, untimed, 1, at_ms(0)};
    REQUIRE(g.give(1, pc(9), at_ms(10)));
    CHECK(g.phase() == phase::place);
    CHECK(g.turn() == 0);
    CHECK(g.in_hand() == std::optional<piece>{pc(9)});
    CHECK(g.available() == static_cast<piece_set>(all_pieces & ~(1u << 9)));
    CHECK_FALSE(g.claim()); // no placement yet: nothing to claim

    REQUIRE(g.place(0, 6, at_ms(20)));
    CHECK(g.phase() == phase::give); // the placer's move goes on: call or give
    CHECK(g.turn() == 0);
    CHECK_FALSE(g.in_hand());
    CHECK(g.board().at(6) == std::optional<piece>{pc(9)});
    CHECK(g.last_placement() == std::optional<placement>{placement{6, 0}});

    REQUIRE(g.give(0, pc(2), at_ms(30)));
    CHECK(g.phase() == phase::place);
    CHECK(g.turn() == 1);
    // After a give that follows the giver's placement, the receiver may claim for a while.
    CHECK(g.claim() == std::optional<claim_window>{claim_window{1, at_ms(10'030)}});
}

TEST_CASE("not_your_turn: every action by the seat not to act")
{
    game g{standard, untimed, 0, at_ms(0)};
    CHECK(g.give(1, pc(0), at_ms(0)).error() == action_error::not_your_turn);
    CHECK(g.place(1, 0, at_ms(0)).error() == action_error::not_your_turn);
    CHECK(g.call_quarto(1, row0, at_ms(0)).error() == action_error::not_your_turn);
    CHECK(g.pass(1, at_ms(0)).error() == action_error::not_your_turn);

    REQUIRE(g.give(0, pc(0), at_ms(0)));
    CHECK(g.give(0, pc(1), at_ms(0)).error() == action_error::not_your_turn);
    CHECK(g.place(0, 0, at_ms(0)).error() == action_error::not_your_turn);
    CHECK(g.call_quarto(0, row0, at_ms(0)).error() == action_error::not_your_turn);
    CHECK(g.pass(0, at_ms(0)).error() == action_error::not_your_turn);

    REQUIRE(g.place(1, 0, at_ms(0)));
    // The opponent may not claim before the placer has given.
    CHECK(g.call_quarto(0, row0, at_ms(0)).error() == action_error::not_your_turn);
    CHECK(g.give(0, pc(1), at_ms(0)).error() == action_error::not_your_turn);
}

TEST_CASE("wrong_phase: place before a piece is given, give with a piece in hand, pass too early")
{
    game g{standard, untimed, 0, at_ms(0)};
    CHECK(g.place(0, 0, at_ms(0)).error() == action_error::wrong_phase);
    CHECK(g.pass(0, at_ms(0)).error() == action_error::wrong_phase);
    // A call before anything was placed has nothing to be judged on.
    CHECK(g.call_quarto(0, row0, at_ms(0)).error() == action_error::wrong_phase);

    REQUIRE(g.give(0, pc(3), at_ms(0)));
    CHECK(g.give(1, pc(4), at_ms(0)).error() == action_error::wrong_phase);
    CHECK(g.pass(1, at_ms(0)).error() == action_error::wrong_phase);
    // The first receiver has no window: there is no placement to claim.
    CHECK(g.call_quarto(1, row0, at_ms(0)).error() == action_error::wrong_phase);

    REQUIRE(g.place(1, 5, at_ms(0)));
    CHECK(g.place(1, 6, at_ms(0)).error() == action_error::wrong_phase); // nothing in hand
    CHECK(g.pass(1, at_ms(0)).error() == action_error::wrong_phase);     // the board is not full
}

TEST_CASE("square_taken: placing on an occupied square")
{
    game g{standard, untimed, 0, at_ms(0)};
    play(g, {{3, 7}});
    REQUIRE(g.give(1, pc(4), at_ms(0)));
    const outcome o = g.place(0, 7, at_ms(0));
    REQUIRE_FALSE(o.ok());
    CHECK(o.error() == action_error::square_taken);
    CHECK(o.problem() == claim_problem::none);
    CHECK(g.place(0, 8, at_ms(0)));
}

TEST_CASE("piece_unavailable: giving a piece already given, or when none is left")
{
    game g{standard, untimed, 0, at_ms(0)};
    play(g, {{3, 7}});
    CHECK(g.give(1, pc(3), at_ms(0)).error() == action_error::piece_unavailable);
    REQUIRE(g.give(1, pc(4), at_ms(0)));
    REQUIRE(g.place(0, 0, at_ms(0)));
    CHECK(g.give(0, pc(4), at_ms(0)).error() == action_error::piece_unavailable);
    CHECK(g.give(0, pc(3), at_ms(0)).error() == action_error::piece_unavailable);
}

TEST_CASE("game_over: every action after the end is refused, by both seats")
{
    game g{standard, untimed, 0, at_ms(0)};
    REQUIRE(g.resign(1, at_ms(5)));
    for (seat s : {seat{0}, seat{1}}) {
        CHECK(g.give(s, pc(0), at_ms(6)).error() == action_error::game_over);
        CHECK(g.place(s, 0, at_ms(6)).error() == action_error::game_over);
        CHECK(g.call_quarto(s, row0, at_ms(6)).error() == action_error::game_over);
        CHECK(g.pass(s, at_ms(6)).error() == action_error::game_over);
        CHECK(g.resign(s, at_ms(6)).error() == action_error::game_over);
        CHECK(g.apply(action{move_kind::give, s, 1}, at_ms(6)).error() == action_error::game_over);
    }
    CHECK(g.moves().size() == 1);
}

TEST_CASE("error precedence: game_over before not_your_turn before wrong_phase before the details")
{
    game g{standard, untimed, 0, at_ms(0)};
    play(g, {{3, 7}});
    // Seat 1 is to give. A taken piece given by the wrong seat: not_your_turn.
    CHECK(g.give(0, pc(3), at_ms(0)).error() == action_error::not_your_turn);
    // Wrong phase beats square_taken: seat 1 is to give, not place.
    CHECK(g.place(1, 7, at_ms(0)).error() == action_error::wrong_phase);
    REQUIRE(g.give(1, pc(4), at_ms(0)));
    // Wrong phase beats piece_unavailable.
    CHECK(g.give(0, pc(3), at_ms(0)).error() == action_error::wrong_phase);
}

namespace {
// Applies `a` to `g` and checks it is refused with `expected` and that nothing changed.
void expect_refused(game& g, const action& a, instant now, action_error expected)
{
    const snapshot before{g};
    const outcome o = g.apply(a, now);
    CAPTURE(a);
    REQUIRE_FALSE(o.ok());
    CHECK(o.error() == expected);
    CHECK(snapshot{g} == before);
}

// Every give and place by both seats, calls on several masks, and passes: each must be refused
// (with the error `expect` gives for it) and change nothing.
template <class Expect>
void refuse_all(game& g, instant now, Expect expect)
{
    int checked = 0;
    for (seat s : {seat{0}, seat{1}}) {
        for (std::uint8_t v = 0; v < 16; ++v) {
            for (move_kind k : {move_kind::give, move_kind::place}) {
                const action a{k, s, v, 0};
                if (const auto e = expect(a)) {
                    expect_refused(g, a, now, *e);
                    ++checked;
                }
            }
        }
        for (square_mask m : {row0, row1, col0, main_diagonal, square_mask{0x0033}, square_mask{0x0007}}) {
            const action a{move_kind::call, s, 0, m};
            if (const auto e = expect(a)) {
                expect_refused(g, a, now, *e);
                ++checked;
            }
        }
        const action p{move_kind::pass, s};
        if (const auto e = expect(p)) {
            expect_refused(g, p, now, *e);
            ++checked;
        }
    }
    CHECK(checked > 40);
}
} // namespace

TEST_CASE("a rejected action changes nothing: whole game compared before and after")
{
    // Seat 0 gave first; 1@0, 3@1, 5@2 (dark, solid); seat 1 gave 7 at 200 ms: seat 0 places,
    // with a claim window judging square 2.
    game g{standard, clock_settings{}, 0, at_ms(0)};
    play(g, {{1, 0}, {3, 1}, {5, 2}}, at_ms(100));
    REQUIRE(g.give(1, pc(7), at_ms(200)));
    using opt = std::optional<action_error>;

    SUBCASE("phase place, claim window open")
    {
        refuse_all(g, at_ms(300), [](const action& a) -> opt {
            if (a.by == 1) return action_error::not_your_turn;
            switch (a.kind) {
            case move_kind::give: return action_error::wrong_phase;
            case move_kind::place: return a.value < 3 ? opt{action_error::square_taken} : std::nullopt;
            case move_kind::call: return action_error::invalid_claim;
            case move_kind::pass: return action_error::wrong_phase;
            default: return std::nullopt;
            }
        });
    }
    SUBCASE("phase give, at the start")
    {
        game x{standard, clock_settings{}, 1, at_ms(0)};
        refuse_all(x, at_ms(0), [](const action& a) -> opt {
            if (a.by == 0) return action_error::not_your_turn;
            if (a.kind == move_kind::give) return std::nullopt;
            return action_error::wrong_phase;
        });
    }
    SUBCASE("phase give, after a placement that made a line")
    {
        REQUIRE(g.place(0, 3, at_ms(300)));
        refuse_all(g, at_ms(400), [](const action& a) -> opt {
            if (a.by == 1) return action_error::not_your_turn;
            switch (a.kind) {
            case move_kind::give: return a.value % 2 == 1 && a.value < 8 ? opt{action_error::piece_unavailable} : std::nullopt;
            case move_kind::place: return action_error::wrong_phase;
            case move_kind::call: return a.line == row0 ? std::nullopt : opt{action_error::invalid_claim};
            case move_kind::pass: return action_error::wrong_phase;
            default: return std::nullopt;
            }
        });
    }
    SUBCASE("finished")
    {
        REQUIRE(g.resign(0, at_ms(300)));
        refuse_all(g, at_ms(400), [](const action&) -> opt { return action_error::game_over; });
        expect_refused(g, action{move_kind::resign, 0}, at_ms(400), action_error::game_over);
        expect_refused(g, action{move_kind::resign, 1}, at_ms(400), action_error::game_over);
    }
}

TEST_CASE("the move log records every accepted action with seat, value and time since start")
{
    game g{standard, clock_settings{}, 1, at_ms(5'000)};
    REQUIRE(g.give(1, pc(12), at_ms(5'250)));
    REQUIRE(g.place(0, 9, at_ms(6'000)));
    CHECK_FALSE(g.place(0, 9, at_ms(6'100))); // refused: not logged
    REQUIRE(g.give(0, pc(4), at_ms(7'500)));
    REQUIRE(g.place(1, 10, at_ms(8'000)));
    REQUIRE(g.resign(0, at_ms(9'999)));
    const std::vector<move_record> expected{
        {move_kind::give, 1, 12, 0, 250},  {move_kind::place, 0, 9, 0, 1'000},
        {move_kind::give, 0, 4, 0, 2'500}, {move_kind::place, 1, 10, 0, 3'000},
        {move_kind::resign, 0, 0, 0, 4'999},
    };
    REQUIRE(g.moves().size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) CHECK(g.moves()[i] == expected[i]);
}

TEST_CASE("the move log of a full drawn game: 16 gives, 16 placements, two passes")
{
    game g{standard, untimed, 0, at_ms(0)};
    // Placed row by row, this arrangement never aligns a line (checked below at each step).
    const int arrangement[16] = {12, 8, 2, 7, 5, 0, 10, 4, 11, 14, 9, 3, 1, 13, 6, 15};
    for (int s = 0; s < 16; ++s) {
        give_and_place(g, arrangement[s], s, at_ms(s * 1000));
        // No pattern through any placement is aligned: the placer's call list is empty.
        REQUIRE_FALSE(standard.quarto_through(g.board(), static_cast<square>(s)));
    }
    REQUIRE(g.board().full());
    const seat placer = g.turn();
    REQUIRE(g.pass(placer, at_ms(20'000)));
    REQUIRE(g.pass(opponent(placer), at_ms(21'000)));
    REQUIRE(g.result());
    CHECK(g.result()->reason == end_reason::board_full);
    CHECK_FALSE(g.result()->winner);
    REQUIRE(g.moves().size() == 34);
    for (int i = 0; i < 16; ++i) {
        CHECK(g.moves()[2 * i].kind == move_kind::give);
        CHECK(g.moves()[2 * i].value == arrangement[i]);
        CHECK(g.moves()[2 * i].by == (i % 2 == 0 ? 0 : 1));
        CHECK(g.moves()[2 * i + 1].kind == move_kind::place);
        CHECK(g.moves()[2 * i + 1].value == i);
        CHECK(g.moves()[2 * i + 1].by == (i % 2 == 0 ? 1 : 0));
        CHECK(g.moves()[2 * i + 1].at_ms == static_cast<std::uint32_t>(i * 1000));
    }
    CHECK(g.moves()[32] == move_record{move_kind::pass, placer, 0, 0, 20'000});
    CHECK(g.moves()[33] == move_record{move_kind::pass, opponent(placer), 0, 0, 21'000});
}

TEST_CASE("apply() performs each kind of action exactly like the named methods")
{
    game a{standard, untimed, 0, at_ms(0)};
    game b = a;
    const action script[] = {
        {move_kind::give, 0, 1}, {move_kind::place, 1, 0}, {move_kind::give, 1, 3}, {move_kind::place, 0, 1},
        {move_kind::give, 0, 5}, {move_kind::place, 1, 2}, {move_kind::give, 1, 7}, {move_kind::place, 0, 3},
        {move_kind::call, 0, 0, row0},
    };
    for (const action& x : script) {
        REQUIRE(a.apply(x, at_ms(1)));
        switch (x.kind) {
        case move_kind::give: REQUIRE(b.give(x.by, pc(x.value), at_ms(1))); break;
        case move_kind::place: REQUIRE(b.place(x.by, x.value, at_ms(1))); break;
        case move_kind::call: REQUIRE(b.call_quarto(x.by, x.line, at_ms(1))); break;
        default: FAIL("unexpected");
        }
        CHECK(snapshot{a} == snapshot{b});
    }
    CHECK(a.result() == std::optional<game_result>{game_result{seat{0}, end_reason::quarto, row0}});
    game c{standard, untimed, 0, at_ms(0)};
    REQUIRE(c.apply(action{move_kind::resign, 1}, at_ms(2)));
    CHECK(c.result() == std::optional<game_result>{game_result{seat{0}, end_reason::resign, 0}});
    CHECK(c.apply(action{move_kind::pass, 0}, at_ms(3)).error() == action_error::game_over);
}

TEST_CASE("legal_actions lists the gives, placements, calls and pass of the seat to act")
{
    game g{standard, untimed, 0, at_ms(0)};
    {
        action_list l;
        g.legal_actions(l);
        REQUIRE(l.size() == 16);
        for (std::size_t i = 0; i < 16; ++i) CHECK(l[i] == action{move_kind::give, 0, static_cast<std::uint8_t>(i)});
    }
    play(g, {{1, 0}, {3, 1}, {5, 2}});
    REQUIRE(g.give(1, pc(7), at_ms(0)));
    {
        action_list l;
        g.legal_actions(l);
        CHECK(l.size() == 13); // 13 empty squares; seat 0's window judges 2, which made no line
        for (const action& a : l) CHECK(a.kind == move_kind::place);
    }
    REQUIRE(g.place(0, 3, at_ms(0)));
    {
        action_list l;
        g.legal_actions(l);
        CHECK(l.size() == 12 + 1); // 12 pieces left, and the call on row 0
        CHECK(l[12] == action{move_kind::call, 0, 0, row0});
    }
}

// A square outside 0..15 is not a square. Placing there must be refused and change nothing;
// accepting it loses the piece in hand and leaves a game that can never fill its board.
TEST_CASE("placing on a square outside 0..15 is refused and changes nothing")
{
    game g{standard, untimed, 0, at_ms(0)};
    REQUIRE(g.give(0, pc(6), at_ms(0)));
    const snapshot before{g};
    CHECK_FALSE(g.place(1, 16, at_ms(0)).ok());
    CHECK(snapshot{g} == before);
    CHECK(g.place(1, 16, at_ms(0)).error() == action_error::out_of_range);
    CHECK(g.place(1, 200, at_ms(0)).error() == action_error::out_of_range);
    CHECK_FALSE(g.apply(action{move_kind::place, 1, 16}, at_ms(0)).ok());
    CHECK(snapshot{g} == before);
}

TEST_CASE("a seat other than 0 or 1, or a piece code over 15, is out of range and changes nothing")
{
    game g{standard, untimed, 0, at_ms(0)};
    const snapshot before{g};
    CHECK(g.resign(2, at_ms(0)).error() == action_error::out_of_range);
    CHECK(g.give(2, pc(3), at_ms(0)).error() == action_error::out_of_range);
    CHECK(g.apply(action{move_kind::give, 0, 17}, at_ms(0)).error() == action_error::out_of_range);
    CHECK(snapshot{g} == before);
}
