// Quarto calls: the placer's own call, the opponent's claim in the window, too late, old
// lines, every claim_problem, the variants (2x2 squares, attribute subsets, false-call policy),
// and the end of the board (call or pass after the 16th piece, the final window, the draw).
#include "support.hpp"

using namespace quarto;
using namespace quarto::test;

namespace {
constexpr milliseconds window{10'000};

// Seat 0 gave first. Dark solid pieces 1@0 (placed by 1), 3@1 (by 0), 5@2 (by 1); then seat 1
// gave 7 and seat 0 placed it on 3 at 1000 ms: row 0 is four dark pieces, seat 0 is to give.
game row0_made_by_seat0(const rules& r = rules{}, const clock_settings& c = untimed)
{
    game g{r, c, 0, at_ms(0)};
    play(g, {{1, 0}, {3, 1}, {5, 2}}, at_ms(0));
    REQUIRE(g.give(1, pc(7), at_ms(0)));
    REQUIRE(g.place(0, 3, at_ms(1000)));
    return g;
}

// Plays a whole board, square i receiving arrangement[i], seat 0 giving first, at 1 s a step.
game fill_board(const int (&arrangement)[16], const rules& r = rules{}, const clock_settings& c = untimed)
{
    game g{r, c, 0, at_ms(0)};
    for (int s = 0; s < 16; ++s) give_and_place(g, arrangement[s], s, at_ms(1000 * s));
    return g;
}
// No placement ever aligns a line (standard rules).
constexpr int drawn_board[16] = {12, 8, 2, 7, 5, 0, 10, 4, 11, 14, 9, 3, 1, 13, 6, 15};
// Only the 16th placement (square 15, by seat 0) aligns: column 3 and the main diagonal.
constexpr int last_wins_board[16] = {14, 10, 13, 4, 0, 5, 11, 12, 1, 3, 6, 15, 8, 2, 9, 7};
constexpr square_mask col3 = 0x8888;
} // namespace

TEST_CASE("the placer calls their own Quarto after placing and wins")
{
    game g = row0_made_by_seat0();
    const outcome o = g.call_quarto(0, row0, at_ms(1500));
    REQUIRE(o.ok());
    CHECK(g.finished());
    CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::quarto, row0}});
    CHECK(g.moves().back() == move_record{move_kind::call, 0, 0, row0, 1500});
    CHECK_FALSE(g.claim());
    CHECK_FALSE(g.in_hand());
    CHECK_FALSE(g.next_deadline());
}

TEST_CASE("the placer may call any aligned pattern through the placement when it makes two")
{
    // Column 0 (0,4,8,12) and row 3 (12..15) both wait for square 12; all pieces hollow.
    // Seat 0 gives first: 8@0 by 1, 9@4 by 0, 10@8 by 1, 11@13 by 0, 13@14 by 1, 14@15 by 0,
    // then seat 0 gives 15 and seat 1 places it on 12.
    for (square_mask line : {col0, square_mask{0xF000}}) {
        game g{rules{}, untimed, 0, at_ms(0)};
        play(g, {{8, 0}, {9, 4}, {10, 8}, {11, 13}, {13, 14}, {14, 15}, {15, 12}});
        REQUIRE(g.turn() == 1);
        CHECK(g.call_quarto(1, line, at_ms(0)));
        CHECK(g.result() == std::optional<game_result>{game_result{seat{1}, end_reason::quarto, line}});
    }
}

TEST_CASE("every pattern kind can be called: rows, columns, both diagonals")
{
    // Four tall pieces (2, 3, 6, 7) along each line; the last one completes it.
    const square_mask lines[] = {0x000F, 0x00F0, 0x0F00, 0xF000, 0x1111, 0x2222, 0x4444, 0x8888, 0x8421, 0x1248};
    for (square_mask line : lines) {
        CAPTURE(mask_text(line));
        game g{rules{}, untimed, 0, at_ms(0)};
        const int tall[4] = {2, 3, 6, 7};
        int k = 0;
        for (int s = 0; s < 16; ++s)
            if (line & (1u << s)) give_and_place(g, tall[k++], s, at_ms(0));
        CHECK(g.call_quarto(g.turn(), line, at_ms(0)));
        CHECK(g.result()->reason == end_reason::quarto);
    }
}

TEST_CASE("the opponent claims a missed Quarto within the window and wins")
{
    game g = row0_made_by_seat0();
    REQUIRE(g.give(0, pc(8), at_ms(2000))); // gives without calling
    REQUIRE(g.claim() == std::optional<claim_window>{claim_window{1, at_ms(2000) + window}});
    SUBCASE("at once")
    {
        REQUIRE(g.call_quarto(1, row0, at_ms(2000)));
    }
    SUBCASE("one millisecond before the window closes")
    {
        REQUIRE(g.call_quarto(1, row0, at_ms(2000) + window - milliseconds{1}));
    }
    CHECK(g.result() == std::optional<game_result>{game_result{seat{1}, end_reason::missed_quarto, row0}});
    CHECK(g.moves().back().kind == move_kind::call);
    CHECK(g.moves().back().by == 1);
}

TEST_CASE("a claim at or after the window's deadline is too late, and the game goes on")
{
    game g = row0_made_by_seat0();
    REQUIRE(g.give(0, pc(8), at_ms(2000)));
    const instant deadline = at_ms(2000) + window;
    SUBCASE("exactly at the deadline")
    {
        const outcome o = g.call_quarto(1, row0, deadline);
        REQUIRE_FALSE(o.ok());
        CHECK(o.error() == action_error::invalid_claim);
        CHECK(o.problem() == claim_problem::too_late);
    }
    SUBCASE("long after, once expire() closed the window")
    {
        CHECK(g.expire(deadline) == time_event::claim_window_closed);
        CHECK_FALSE(g.claim());
        CHECK(g.call_quarto(1, row0, deadline + milliseconds{5000}).problem() == claim_problem::too_late);
    }
    CHECK_FALSE(g.finished());
    CHECK(g.phase() == phase::place);
    CHECK(g.place(1, 4, deadline + milliseconds{6000}));
}

TEST_CASE("placing ends the claim window: the old line cannot be claimed afterwards")
{
    game g = row0_made_by_seat0();
    REQUIRE(g.give(0, pc(8), at_ms(2000)));
    REQUIRE(g.place(1, 4, at_ms(3000))); // seat 1 places instead of claiming, still in time
    CHECK_FALSE(g.claim());
    // Now judged on seat 1's own placement (square 4): row 0 does not contain it.
    const outcome o = g.call_quarto(1, row0, at_ms(3001));
    CHECK(o.error() == action_error::invalid_claim);
    CHECK(o.problem() == claim_problem::misses_placement);

    // Seat 1 gives; seat 0 gets a window on seat 1's placement, not on row 0.
    REQUIRE(g.give(1, pc(9), at_ms(3500)));
    CHECK(g.call_quarto(0, row0, at_ms(3600)).problem() == claim_problem::misses_placement);
    REQUIRE(g.place(0, 5, at_ms(3700)));
    CHECK(g.call_quarto(0, row0, at_ms(3800)).problem() == claim_problem::misses_placement);
    CHECK_FALSE(g.finished());
}

TEST_CASE("an uncalled alignment loses its value for good, but a new one through a later placement wins")
{
    game g = row0_made_by_seat0();
    REQUIRE(g.give(0, pc(9), at_ms(2000)));
    REQUIRE(g.place(1, 4, at_ms(2100))); // 9 (dark hollow) on 4: row 1 starts
    REQUIRE(g.give(1, pc(11), at_ms(2200)));
    REQUIRE(g.place(0, 5, at_ms(2300)));
    REQUIRE(g.give(0, pc(13), at_ms(2400)));
    REQUIRE(g.place(1, 6, at_ms(2500)));
    REQUIRE(g.give(1, pc(15), at_ms(2600)));
    REQUIRE(g.place(0, 7, at_ms(2700))); // row 1: 9, 11, 13, 15 all dark and hollow
    CHECK(g.call_quarto(0, row0, at_ms(2800)).problem() == claim_problem::misses_placement);
    REQUIRE(g.call_quarto(0, row1, at_ms(2800)));
    CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::quarto, row1}});
}

TEST_CASE("the claimant may claim only lines through the judged placement")
{
    game g = row0_made_by_seat0();
    // Seat 0 does not call; seat 1 places without claiming; seat 1 gives; seat 0's window judges
    // square 4, where no line is aligned. Row 0 is aligned but old.
    REQUIRE(g.give(0, pc(8), at_ms(2000)));
    REQUIRE(g.place(1, 4, at_ms(2100)));
    REQUIRE(g.give(1, pc(9), at_ms(2200)));
    REQUIRE(g.claim() == std::optional<claim_window>{claim_window{0, at_ms(2200) + window}});
    CHECK(g.call_quarto(0, row0, at_ms(2300)).problem() == claim_problem::misses_placement);
    CHECK(g.call_quarto(0, row1, at_ms(2300)).problem() == claim_problem::not_full);
}

TEST_CASE("not_a_pattern: masks that are not lines, and 2x2 squares in the standard game")
{
    game g = row0_made_by_seat0();
    for (square_mask m : {square_mask{0x0000}, square_mask{0x0007}, square_mask{0x001F}, square_mask{0x0033},
                          square_mask{0x9009}, square_mask{0xFFFF}, squares({0, 1, 2, 7})}) {
        CAPTURE(mask_text(m));
        const outcome o = g.call_quarto(0, m, at_ms(1500));
        CHECK(o.error() == action_error::invalid_claim);
        CHECK(o.problem() == claim_problem::not_a_pattern);
    }
    CHECK_FALSE(g.finished());
}

TEST_CASE("not_full: a pattern with an empty square")
{
    game g = row0_made_by_seat0();
    for (square_mask m : {col0, square_mask{0x8888}, main_diagonal, anti_diagonal, row1}) {
        const outcome o = g.call_quarto(0, m, at_ms(1500));
        CHECK(o.error() == action_error::invalid_claim);
        CHECK(o.problem() == claim_problem::not_full);
    }
}

TEST_CASE("no_shared_attribute: a full line whose pieces share no value")
{
    // 0 (0000), 15 (1111), 2 (0010), 13 (1101): every attribute is mixed.
    game g{rules{}, untimed, 0, at_ms(0)};
    play(g, {{0, 0}, {15, 1}, {2, 2}, {13, 3}});
    const outcome o = g.call_quarto(g.turn(), row0, at_ms(0));
    CHECK(o.error() == action_error::invalid_claim);
    CHECK(o.problem() == claim_problem::no_shared_attribute);
    CHECK_FALSE(g.finished());
}

TEST_CASE("claim problems are reported in order: pattern, full, shared, placement")
{
    // Row 0 is aligned but old; row 1 is full and mixed; square 8 was just placed.
    game g{rules{}, untimed, 0, at_ms(0)};
    play(g, {{1, 0}, {3, 1}, {5, 2}, {7, 3}, {0, 4}, {15, 5}, {2, 6}, {13, 7}, {4, 8}});
    CHECK(g.call_quarto(g.turn(), 0x0007, at_ms(0)).problem() == claim_problem::not_a_pattern);
    CHECK(g.call_quarto(g.turn(), 0x0F00, at_ms(0)).problem() == claim_problem::not_full);
    CHECK(g.call_quarto(g.turn(), row1, at_ms(0)).problem() == claim_problem::no_shared_attribute);
    CHECK(g.call_quarto(g.turn(), row0, at_ms(0)).problem() == claim_problem::misses_placement);
}

TEST_CASE("advanced variant: a 2x2 square wins, called by the placer or claimed by the opponent")
{
    // Squares 0, 1, 4, 5 with four short pieces (0, 1, 4, 5); the last one goes on 5.
    const rules advanced{.squares = true};
    const square_mask top_left = 0x0033;
    const auto setup = [&](const rules& r) {
        game g{r, untimed, 0, at_ms(0)};
        play(g, {{0, 0}, {1, 1}, {4, 4}, {5, 5}});
        return g;
    };
    {
        game g = setup(advanced);
        REQUIRE(g.call_quarto(g.turn(), top_left, at_ms(0)));
        CHECK(g.result()->reason == end_reason::quarto);
        CHECK(g.result()->line == top_left);
    }
    {
        game g = setup(advanced);
        const seat placer = g.turn();
        REQUIRE(g.give(placer, pc(15), at_ms(0)));
        REQUIRE(g.call_quarto(opponent(placer), top_left, at_ms(1)));
        CHECK(g.result() == std::optional<game_result>{game_result{opponent(placer), end_reason::missed_quarto, top_left}});
    }
    {
        game g = setup(rules{});
        CHECK(g.call_quarto(g.turn(), top_left, at_ms(0)).problem() == claim_problem::not_a_pattern);
    }
    {
        // The middle square 5, 6, 9, 10 in the advanced game, all hollow.
        game g{advanced, untimed, 1, at_ms(0)};
        play(g, {{8, 5}, {9, 6}, {10, 9}, {11, 10}});
        CHECK(g.call_quarto(g.turn(), 0x0660, at_ms(0)));
    }
    {
        // Advanced rules still count lines.
        game g = row0_made_by_seat0(advanced);
        CHECK(g.call_quarto(0, row0, at_ms(1500)));
    }
}

TEST_CASE("beginner variant: only the chosen attributes count")
{
    // Row 0: 2, 3, 6, 7 are all tall and all solid, and differ in colour and shape.
    const auto only = [](std::initializer_list<attribute> list) {
        attribute_set s;
        for (attribute a : list) s = s.with(a);
        return rules{.attributes = s};
    };
    struct variant_case {
        rules r;
        bool wins;
    };
    const variant_case cases[] = {
        {only({attribute::height}), true},
        {only({attribute::fill}), true},
        {only({attribute::color}), false},
        {only({attribute::shape}), false},
        {only({attribute::color, attribute::shape}), false},
        {only({attribute::color, attribute::height}), true},
        {rules{}, true},
    };
    for (const auto& c : cases) {
        CAPTURE(int{c.r.attributes.bits()});
        game g{c.r, untimed, 0, at_ms(0)};
        play(g, {{2, 0}, {3, 1}, {6, 2}, {7, 3}});
        const outcome o = g.call_quarto(g.turn(), row0, at_ms(0));
        CHECK(o.ok() == c.wins);
        if (!c.wins) CHECK(o.problem() == claim_problem::no_shared_attribute);
    }
}

TEST_CASE("false_claim lose: a wrong call loses at once and is logged")
{
    const rules strict{.false_claim = false_claim_policy::lose};
    SUBCASE("the placer calls a line that is not aligned")
    {
        game g = row0_made_by_seat0(strict);
        REQUIRE(g.call_quarto(0, col0, at_ms(1500)).ok());
        CHECK(g.result() == std::optional<game_result>{game_result{seat{1}, end_reason::false_claim, col0}});
        CHECK(g.moves().back() == move_record{move_kind::call, 0, 0, col0, 1500});
    }
    SUBCASE("the placer calls something that is no pattern")
    {
        game g = row0_made_by_seat0(strict);
        REQUIRE(g.call_quarto(0, 0x0007, at_ms(1500)).ok());
        CHECK(g.result() == std::optional<game_result>{game_result{seat{1}, end_reason::false_claim, 0x0007}});
    }
    SUBCASE("the opponent claims too late")
    {
        game g = row0_made_by_seat0(strict);
        REQUIRE(g.give(0, pc(8), at_ms(2000)));
        REQUIRE(g.call_quarto(1, row0, at_ms(2000) + window).ok());
        CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::false_claim, row0}});
    }
    SUBCASE("an old line")
    {
        game g = row0_made_by_seat0(strict);
        REQUIRE(g.give(0, pc(8), at_ms(2000)));
        REQUIRE(g.place(1, 4, at_ms(2100)));
        REQUIRE(g.call_quarto(1, row0, at_ms(2200)).ok());
        CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::false_claim, row0}});
    }
    SUBCASE("a correct call still wins")
    {
        game g = row0_made_by_seat0(strict);
        REQUIRE(g.call_quarto(0, row0, at_ms(1500)).ok());
        CHECK(g.result()->reason == end_reason::quarto);
    }
}

TEST_CASE("false_claim lose: calls out of turn or before any placement are still plain errors")
{
    const rules strict{.false_claim = false_claim_policy::lose};
    game g = row0_made_by_seat0(strict);
    {
        const snapshot before{g};
        CHECK(g.call_quarto(1, row0, at_ms(1500)).error() == action_error::not_your_turn);
        CHECK(snapshot{g} == before);
    }
    game fresh{strict, untimed, 0, at_ms(0)};
    CHECK(fresh.call_quarto(0, row0, at_ms(0)).error() == action_error::wrong_phase);
    REQUIRE(fresh.give(0, pc(0), at_ms(0)));
    CHECK(fresh.call_quarto(1, row0, at_ms(0)).error() == action_error::wrong_phase);
    CHECK_FALSE(fresh.finished());
}

TEST_CASE("false_claim reject: a wrong call is refused and the game goes on")
{
    game g = row0_made_by_seat0();
    const snapshot before{g};
    CHECK(g.call_quarto(0, col0, at_ms(1500)).problem() == claim_problem::not_full);
    CHECK(snapshot{g} == before);
    CHECK(g.call_quarto(0, row0, at_ms(1600)));
}

TEST_CASE("after the 16th piece the placer may call Quarto")
{
    game g = fill_board(last_wins_board);
    REQUIRE(g.board().full());
    REQUIRE(g.turn() == 0);
    CHECK(g.phase() == phase::give);
    CHECK(g.available() == 0);
    CHECK(g.give(0, pc(0), at_ms(16'000)).error() == action_error::piece_unavailable);
    REQUIRE(g.call_quarto(0, main_diagonal, at_ms(16'000)));
    CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::quarto, main_diagonal}});
}

TEST_CASE("after the 16th piece the placer passes, then the opponent may claim in the final window")
{
    game g = fill_board(last_wins_board);
    REQUIRE(g.pass(0, at_ms(16'000)));
    CHECK(g.phase() == phase::final_claim);
    CHECK(g.turn() == 1);
    CHECK(g.claim() == std::optional<claim_window>{claim_window{1, at_ms(16'000) + window}});
    CHECK_FALSE(g.moves_clock().running());
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(26'000)});
    CHECK(g.moves().back() == move_record{move_kind::pass, 0, 0, 0, 16'000});
    // The placer can do nothing more; the claimant cannot give or place.
    CHECK(g.call_quarto(0, col3, at_ms(16'001)).error() == action_error::not_your_turn);
    CHECK(g.pass(0, at_ms(16'001)).error() == action_error::not_your_turn);
    CHECK(g.give(1, pc(0), at_ms(16'001)).error() == action_error::wrong_phase);
    CHECK(g.place(1, 0, at_ms(16'001)).error() == action_error::wrong_phase);
    CHECK(g.call_quarto(1, row0, at_ms(16'001)).problem() == claim_problem::no_shared_attribute);
    CHECK(g.call_quarto(1, col3, at_ms(25'999)));
    CHECK(g.result() == std::optional<game_result>{game_result{seat{1}, end_reason::missed_quarto, col3}});
}

TEST_CASE("the final window: a pass by the claimant draws at once")
{
    game g = fill_board(last_wins_board);
    REQUIRE(g.pass(0, at_ms(16'000)));
    REQUIRE(g.pass(1, at_ms(17'000)));
    CHECK(g.result() == std::optional<game_result>{game_result{std::nullopt, end_reason::board_full, 0}});
    CHECK(g.moves().back() == move_record{move_kind::pass, 1, 0, 0, 17'000});
    CHECK(g.call_quarto(1, col3, at_ms(17'001)).error() == action_error::game_over);
}

TEST_CASE("the final window: its expiry draws the game, at the deadline and not before")
{
    game g = fill_board(last_wins_board);
    REQUIRE(g.pass(0, at_ms(16'000)));
    const std::size_t logged = g.moves().size();
    CHECK(g.expire(at_ms(25'999)) == time_event::none);
    CHECK_FALSE(g.finished());
    CHECK(g.expire(at_ms(26'000)) == time_event::game_over);
    CHECK(g.result() == std::optional<game_result>{game_result{std::nullopt, end_reason::board_full, 0}});
    CHECK(g.moves().size() == logged); // time is not a move
    CHECK_FALSE(g.next_deadline());
    CHECK(g.expire(at_ms(99'000)) == time_event::none);
}

TEST_CASE("the final window: a claim at its deadline finds the game already drawn")
{
    game g = fill_board(last_wins_board);
    REQUIRE(g.pass(0, at_ms(16'000)));
    CHECK(g.call_quarto(1, col3, at_ms(26'000)).error() == action_error::game_over);
    CHECK(g.result()->reason == end_reason::board_full);
}

TEST_CASE("a full board with no alignment: pass, pass, draw, and no call is ever valid")
{
    game g = fill_board(drawn_board);
    for (square_mask p : patterns(false)) CHECK(g.call_quarto(0, p, at_ms(16'000)).error() == action_error::invalid_claim);
    REQUIRE(g.pass(0, at_ms(16'000)));
    for (square_mask p : patterns(false)) CHECK(g.call_quarto(1, p, at_ms(16'500)).error() == action_error::invalid_claim);
    REQUIRE(g.pass(1, at_ms(17'000)));
    CHECK(g.result()->reason == end_reason::board_full);
    CHECK_FALSE(g.result()->winner);
}

TEST_CASE("the 16th placement is itself within a claim window: the last claim is on the 15th")
{
    // Seat 1 places the 15th piece (square 14); seat 1 gives the last piece; seat 0's window
    // judges square 14 until seat 0 places on 15.
    game g{rules{}, untimed, 0, at_ms(0)};
    for (int s = 0; s < 15; ++s) give_and_place(g, last_wins_board[s], s, at_ms(1000 * s));
    REQUIRE(g.give(1, pc(last_wins_board[15]), at_ms(15'000)));
    CHECK(g.available() == 0);
    REQUIRE(g.claim() == std::optional<claim_window>{claim_window{0, at_ms(25'000)}});
    CHECK(g.call_quarto(0, 0x4444, at_ms(15'001)).problem() == claim_problem::no_shared_attribute);
    REQUIRE(g.place(0, 15, at_ms(15'500)));
    CHECK_FALSE(g.claim());
    CHECK(g.call_quarto(0, col3, at_ms(15'600)));
}
