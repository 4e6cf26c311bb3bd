// Time as pure logic: the per-move clock, the claim window against it, untimed games,
// expire() and next_deadline(); resignation in every phase; the injected coin flip.
#include <cstdint>
#include <random>
#include <vector>

#include "support.hpp"

using namespace quarto;
using namespace quarto::test;

namespace {
clock_settings timed(std::int64_t move_ms, std::int64_t claim_ms)
{
    return clock_settings{.move = milliseconds{move_ms}, .claim = milliseconds{claim_ms}};
}

// Seat 0 gave first at 0 ms. 1@0 (by 1), 3@1 (by 0), 5@2 (by 1), all at 0 ms; seat 1 gave 7 at
// 0 ms; seat 0 placed it on 3 at 1000 ms (row 0 is dark) and gives 8 without calling at 2000 ms.
// Seat 1 now places, with a claim window on row 0 that opened at 2000 ms.
game missed_row0(const clock_settings& c)
{
    game g{rules{}, c, 0, at_ms(0)};
    play(g, {{1, 0}, {3, 1}, {5, 2}}, at_ms(0));
    REQUIRE(g.give(1, pc(7), at_ms(0)));
    REQUIRE(g.place(0, 3, at_ms(1000)));
    REQUIRE(g.give(0, pc(8), at_ms(2000)));
    return g;
}
} // namespace

TEST_CASE("move_clock: an untimed clock never has a deadline and never flags")
{
    move_clock c{std::nullopt};
    c.start(1, at_ms(0));
    CHECK(c.running() == std::optional<seat>{1});
    CHECK_FALSE(c.allowance());
    CHECK_FALSE(c.deadline());
    CHECK_FALSE(c.remaining(1, at_ms(1'000'000'000)));
    CHECK_FALSE(c.flagged(at_ms(1'000'000'000)));
}

TEST_CASE("move_clock: remaining time, deadline and flag at the boundary")
{
    move_clock c{milliseconds{5000}};
    c.start(0, at_ms(10'000));
    CHECK(c.deadline() == std::optional<instant>{at_ms(15'000)});
    CHECK(c.remaining(0, at_ms(9'000)) == std::optional<milliseconds>{5000}); // before the start
    CHECK(c.remaining(0, at_ms(11'000)) == std::optional<milliseconds>{4000});
    CHECK(c.remaining(1, at_ms(11'000)) == std::optional<milliseconds>{5000}); // the idle seat
    CHECK_FALSE(c.flagged(at_ms(14'999)));
    CHECK(c.remaining(0, at_ms(14'999)) == std::optional<milliseconds>{1});
    CHECK(c.flagged(at_ms(15'000)));
    CHECK(c.remaining(0, at_ms(15'000)) == std::optional<milliseconds>{0});
    CHECK(c.remaining(0, at_ms(99'000)) == std::optional<milliseconds>{0});

    c.start(1, at_ms(12'000)); // a new move starts afresh
    CHECK(c.running() == std::optional<seat>{1});
    CHECK(c.deadline() == std::optional<instant>{at_ms(17'000)});
    CHECK(c.remaining(0, at_ms(13'000)) == std::optional<milliseconds>{5000});

    c.stop(at_ms(14'500));
    CHECK_FALSE(c.running());
    CHECK_FALSE(c.deadline());
    CHECK_FALSE(c.flagged(at_ms(99'000)));
    CHECK(c.remaining(1, at_ms(99'000)) == std::optional<milliseconds>{2500}); // frozen
    c.stop(at_ms(16'000)); // stopping twice changes nothing
    CHECK(c.remaining(1, at_ms(99'000)) == std::optional<milliseconds>{2500});
}

TEST_CASE("claim_window is open strictly before its deadline")
{
    const claim_window w{1, at_ms(500)};
    CHECK(w.open_at(at_ms(0)));
    CHECK(w.open_at(at_ms(499)));
    CHECK_FALSE(w.open_at(at_ms(500)));
}

TEST_CASE("default clock settings: 60 s per move, 10 s claim window")
{
    const clock_settings c{};
    CHECK(c.move == std::optional<milliseconds>{60'000});
    CHECK(c.claim == milliseconds{10'000});
}

TEST_CASE("the first giver may give one millisecond before the deadline, not at it")
{
    SUBCASE("deadline - 1: accepted")
    {
        game g{rules{}, timed(5000, 10'000), 1, at_ms(100)};
        CHECK(g.expire(at_ms(5099)) == time_event::none);
        CHECK(g.give(1, pc(0), at_ms(5099)));
    }
    SUBCASE("at the deadline: the giver has lost on time, the give is refused")
    {
        game g{rules{}, timed(5000, 10'000), 1, at_ms(100)};
        CHECK(g.give(1, pc(0), at_ms(5100)).error() == action_error::game_over);
        CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::timeout, 0}});
        CHECK(g.moves().empty());
        CHECK(g.moves_clock().remaining(1, at_ms(9999)) == std::optional<milliseconds>{0});
        CHECK_FALSE(g.next_deadline());
    }
}

TEST_CASE("each move gets the whole allowance afresh from the give that starts it")
{
    game g{rules{}, timed(5000, 10'000), 0, at_ms(0)};
    REQUIRE(g.give(0, pc(0), at_ms(4000)));
    CHECK(g.moves_clock().running() == std::optional<seat>{1});
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(9000)});
    REQUIRE(g.place(1, 0, at_ms(8000)));
    // The placer's move goes on until they give: the same deadline.
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(9000)});
    SUBCASE("give at deadline - 1")
    {
        REQUIRE(g.give(1, pc(1), at_ms(8999)));
        CHECK(g.moves_clock().running() == std::optional<seat>{0});
        // Seat 0 has a claim window on square 0 until 18999 and a clock until 13999.
        CHECK(g.next_deadline() == std::optional<instant>{at_ms(13'999)});
    }
    SUBCASE("give at the deadline")
    {
        CHECK(g.give(1, pc(1), at_ms(9000)).error() == action_error::game_over);
        CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::timeout, 0}});
    }
    SUBCASE("expire() at the deadline reports the game over")
    {
        CHECK(g.expire(at_ms(8999)) == time_event::none);
        CHECK(g.expire(at_ms(9000)) == time_event::game_over);
        CHECK(g.result()->winner == std::optional<seat>{0});
        CHECK(g.expire(at_ms(9001)) == time_event::none);
    }
}

TEST_CASE("move allowance shorter than the claim window: the clock decides first")
{
    game g = missed_row0(timed(5000, 10'000));
    // Seat 1: clock until 7000, claim window until 12000.
    CHECK(g.claim() == std::optional<claim_window>{claim_window{1, at_ms(12'000)}});
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(7000)});
    SUBCASE("a claim one millisecond before the clock runs out wins")
    {
        CHECK(g.call_quarto(1, row0, at_ms(6999)));
        CHECK(g.result()->reason == end_reason::missed_quarto);
    }
    SUBCASE("at the clock's deadline the claimant has lost on time")
    {
        CHECK(g.expire(at_ms(7000)) == time_event::game_over);
        CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::timeout, 0}});
        CHECK(g.call_quarto(1, row0, at_ms(7000)).error() == action_error::game_over);
    }
    SUBCASE("a claim at the clock's deadline is refused: game over")
    {
        CHECK(g.call_quarto(1, row0, at_ms(7000)).error() == action_error::game_over);
        CHECK(g.result()->reason == end_reason::timeout);
    }
}

TEST_CASE("claim window shorter than the move allowance: the window closes, the game goes on")
{
    game g = missed_row0(timed(60'000, 10'000));
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(12'000)});
    CHECK(g.call_quarto(1, row0, at_ms(11'999)).ok());
    CHECK(g.result()->reason == end_reason::missed_quarto);

    game h = missed_row0(timed(60'000, 10'000));
    CHECK(h.expire(at_ms(11'999)) == time_event::none);
    CHECK(h.expire(at_ms(12'000)) == time_event::claim_window_closed);
    CHECK_FALSE(h.claim());
    CHECK_FALSE(h.finished());
    CHECK(h.next_deadline() == std::optional<instant>{at_ms(62'000)});
    CHECK(h.call_quarto(1, row0, at_ms(12'001)).problem() == claim_problem::too_late);
    SUBCASE("the mover still has until the clock's deadline to place")
    {
        CHECK(h.place(1, 4, at_ms(61'999)));
    }
    SUBCASE("and loses at it")
    {
        CHECK(h.expire(at_ms(62'000)) == time_event::game_over);
        CHECK(h.result() == std::optional<game_result>{game_result{seat{0}, end_reason::timeout, 0}});
    }
}

TEST_CASE("expire() far past both deadlines at once: the claim window closes and the mover loses")
{
    game g = missed_row0(timed(60'000, 10'000));
    CHECK(g.expire(at_ms(100'000)) == time_event::game_over);
    CHECK(g.result() == std::optional<game_result>{game_result{seat{0}, end_reason::timeout, 0}});
    CHECK_FALSE(g.claim());
    // The clock froze at its deadline: 60 s used.
    CHECK(g.moves_clock().remaining(1, at_ms(200'000)) == std::optional<milliseconds>{0});
}

TEST_CASE("equal move allowance and claim window: at the shared deadline the mover is out of time")
{
    game g = missed_row0(timed(10'000, 10'000));
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(12'000)});
    CHECK(g.expire(at_ms(12'000)) == time_event::game_over);
    CHECK(g.result()->reason == end_reason::timeout);
}

TEST_CASE("untimed games: no move deadline ever, but the claim window still closes")
{
    game g{rules{}, clock_settings{.move = std::nullopt, .claim = milliseconds{10'000}}, 0, at_ms(0)};
    CHECK_FALSE(g.next_deadline());
    CHECK(g.expire(at_ms(1'000'000'000)) == time_event::none);
    REQUIRE(g.give(0, pc(1), at_ms(1'000'000'000)));
    REQUIRE(g.place(1, 0, at_ms(1'000'000'000)));
    CHECK_FALSE(g.next_deadline());
    REQUIRE(g.give(1, pc(2), at_ms(1'000'000'000)));
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(1'000'010'000)});
    CHECK(g.expire(at_ms(1'000'010'000)) == time_event::claim_window_closed);
    CHECK_FALSE(g.next_deadline());
    CHECK_FALSE(g.moves_clock().remaining(0, at_ms(2'000'000'000)));
    CHECK(g.place(0, 1, at_ms(2'000'000'000)));
}

TEST_CASE("next_deadline: nothing due means expire() before it changes nothing")
{
    // Walk a timed game and at each step check that expire(next - 1) is none and
    // expire(next) is not.
    game g = missed_row0(timed(30'000, 10'000));
    const snapshot before{g};
    const instant next = *g.next_deadline();
    CHECK(g.expire(next - milliseconds{1}) == time_event::none);
    CHECK(snapshot{g} == before);
    CHECK(g.expire(next) != time_event::none);
}

TEST_CASE("a timed game's final window: the stopped clock cannot flag, expiry draws")
{
    game g{rules{}, timed(5000, 10'000), 0, at_ms(0)};
    const int drawn[16] = {12, 8, 2, 7, 5, 0, 10, 4, 11, 14, 9, 3, 1, 13, 6, 15};
    for (int s = 0; s < 16; ++s) give_and_place(g, drawn[s], s, at_ms(1000 * s));
    REQUIRE(g.turn() == 0);
    // The placer's clock started at the 16th give (15000): it must pass before 20000.
    CHECK(g.next_deadline() == std::optional<instant>{at_ms(20'000)});
    SUBCASE("the placer does not pass in time: they lose")
    {
        CHECK(g.pass(0, at_ms(20'000)).error() == action_error::game_over);
        CHECK(g.result() == std::optional<game_result>{game_result{seat{1}, end_reason::timeout, 0}});
    }
    SUBCASE("the placer passes; the window outlives the old clock and ends in a draw")
    {
        REQUIRE(g.pass(0, at_ms(19'999)));
        CHECK(g.next_deadline() == std::optional<instant>{at_ms(29'999)});
        CHECK(g.expire(at_ms(29'998)) == time_event::none);
        CHECK(g.expire(at_ms(29'999)) == time_event::game_over);
        CHECK(g.result() == std::optional<game_result>{game_result{std::nullopt, end_reason::board_full, 0}});
    }
}

TEST_CASE("resign: in every phase, by either seat, the other seat wins")
{
    const auto check_resign = [](game g, seat by, instant now) {
        const std::size_t logged = g.moves().size();
        REQUIRE(g.resign(by, now));
        CHECK(g.result() == std::optional<game_result>{game_result{opponent(by), end_reason::resign, 0}});
        REQUIRE(g.moves().size() == logged + 1);
        CHECK(g.moves().back().kind == move_kind::resign);
        CHECK(g.moves().back().by == by);
        CHECK(g.finished());
        CHECK_FALSE(g.next_deadline());
        CHECK_FALSE(g.moves_clock().running());
        CHECK(g.resign(opponent(by), now).error() == action_error::game_over);
    };
    const game start{rules{}, clock_settings{}, 0, at_ms(0)};
    const game placing = missed_row0(clock_settings{}); // phase place with a claim window
    game giving = missed_row0(clock_settings{});
    REQUIRE(giving.place(1, 4, at_ms(3000))); // phase give after a placement
    game final_window{rules{}, clock_settings{.move = std::nullopt, .claim = milliseconds{10'000}}, 0, at_ms(0)};
    const int drawn[16] = {12, 8, 2, 7, 5, 0, 10, 4, 11, 14, 9, 3, 1, 13, 6, 15};
    for (int s = 0; s < 16; ++s) give_and_place(final_window, drawn[s], s, at_ms(0));
    REQUIRE(final_window.pass(0, at_ms(0)));
    REQUIRE(final_window.phase() == phase::final_claim);

    for (seat by : {seat{0}, seat{1}}) {
        CAPTURE(int{by});
        check_resign(start, by, at_ms(10));
        check_resign(placing, by, at_ms(3000));
        check_resign(giving, by, at_ms(3500));
        check_resign(final_window, by, at_ms(10));
    }
}

TEST_CASE("abandon: the absent seat loses, in any phase, and no move is recorded")
{
    for (seat absent : {seat{0}, seat{1}}) {
        CAPTURE(int{absent});
        game g = missed_row0(clock_settings{});
        const std::size_t logged = g.moves().size();
        REQUIRE(g.abandon(absent, at_ms(3000)));
        CHECK(g.result() == std::optional<game_result>{game_result{opponent(absent), end_reason::abandoned, 0}});
        CHECK(g.moves().size() == logged);
        CHECK(g.finished());
        CHECK_FALSE(g.next_deadline());
        CHECK(g.abandon(opponent(absent), at_ms(3000)).error() == action_error::game_over);
    }
    game late{rules{}, timed(5000, 10'000), 0, at_ms(0)};
    CHECK(late.abandon(1, at_ms(5000)).error() == action_error::game_over); // the clock ran out first
    CHECK(late.result()->reason == end_reason::timeout);
    CHECK(to_string(end_reason::abandoned) == "abandoned");
}

TEST_CASE("resign after the clock ran out: the timeout stands")
{
    game g{rules{}, timed(5000, 10'000), 0, at_ms(0)};
    CHECK(g.resign(1, at_ms(5000)).error() == action_error::game_over);
    CHECK(g.result()->reason == end_reason::timeout);
}

namespace {
// Plays back a fixed list of bits, as a uniform random bit generator over {0, 1}.
struct scripted_bits {
    using result_type = std::uint32_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return 1; }
    std::vector<result_type> script;
    std::size_t next = 0;
    result_type operator()() { return script.at(next++); }
};
} // namespace

TEST_CASE("flip_coin returns the seat the injected source chooses")
{
    scripted_bits source{{0, 1, 1, 0}};
    CHECK(flip_coin(source) == 0);
    CHECK(flip_coin(source) == 1);
    CHECK(flip_coin(source) == 1);
    CHECK(flip_coin(source) == 0);
    CHECK(source.next == 4);
}

TEST_CASE("flip_coin is fair over many flips of a seeded mt19937, and reproducible")
{
    for (std::uint32_t seed : {1u, 42u, 20240601u}) {
        std::mt19937 random{seed};
        int zeros = 0;
        constexpr int flips = 20'000;
        for (int i = 0; i < flips; ++i) {
            const seat s = flip_coin(random);
            REQUIRE(s <= 1);
            if (s == 0) ++zeros;
        }
        // Standard deviation 71: +-500 is seven of them.
        CHECK(zeros > flips / 2 - 500);
        CHECK(zeros < flips / 2 + 500);

        std::mt19937 a{seed};
        std::mt19937 b{seed};
        for (int i = 0; i < 100; ++i) CHECK(flip_coin(a) == flip_coin(b));
    }
}
