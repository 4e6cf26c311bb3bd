// Glicko-2 against its published numbers: Glickman's worked example ("Example of the Glicko-2
// system", 2013) and lichess's own test table, then the parts lichess adds around the
// algorithm: idle time, the clamps, the provisional flag.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "quarto/core/rating/glicko2.hpp"

using namespace quarto::rating;

#define CHECK_CLOSE(actual, expected, tolerance)                                                   \
    CHECK_MESSAGE(std::abs((actual) - (expected)) <= (tolerance),                                  \
                  #actual " = " << (actual) << ", expected " << (expected) << " +- " << (tolerance))

namespace {

constexpr rating glicko(double value, double deviation, double volatility)
{
    return rating{.value = value, .deviation = deviation, .volatility = volatility, .games = 0};
}

// One side of a row of lichess's table: the expected value, RD and volatility, each within
// the tolerance lichess's test allows.
struct expected {
    double value, value_tolerance;
    double deviation, deviation_tolerance;
    double volatility, volatility_tolerance;
};

struct table_row {
    const char* name;
    rating white, black;
    double white_score; // 1 white wins, 0 black wins, 0.5 draw
    expected white_after, black_after;
};

void check_row(const table_row& row)
{
    INFO(row.name);
    const rating w = after_game(row.white, row.black, row.white_score);
    const rating b = after_game(row.black, row.white, 1.0 - row.white_score);
    for (const auto& [got, want] : {std::pair{w, row.white_after}, std::pair{b, row.black_after}}) {
        CHECK_CLOSE(got.value, want.value, want.value_tolerance);
        CHECK_CLOSE(got.deviation, want.deviation, want.deviation_tolerance);
        CHECK_CLOSE(got.volatility, want.volatility, want.volatility_tolerance);
        CHECK(got.games == 1);
    }
}

} // namespace

TEST_CASE("Glickman's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300")
{
    // "Example of the Glicko-2 system", the worked example: tau 0.5, the three games in one
    // rating period; the paper's answer is r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (the
    // paper cuts sigma' at five places: it is 0.059996).
    const std::array<result, 3> games{{
        {.opponent = glicko(1400, 30, 0.06), .score = 1.0},
        {.opponent = glicko(1550, 100, 0.06), .score = 0.0},
        {.opponent = glicko(1700, 300, 0.06), .score = 0.0},
    }};
    const rating after = update(glicko(1500, 200, 0.06), games, 0.5, 1.0);
    CHECK_CLOSE(after.value, 1464.06, 0.02);
    CHECK_CLOSE(after.deviation, 151.52, 0.01);
    CHECK_CLOSE(after.volatility, 0.05999, 0.00001);
    CHECK(after.games == 3);
}

TEST_CASE("lichess's table: one game each, tau 0.75, no deviation increase")
{
    // scalachess test-kit/src/test/scala/rating/glicko/impl/RatingCalculatorTest.scala, lines
    // 20-186 (commit cbffc9d7e2c6), the same rows and tolerances as lila's
    // modules/rating/src/test/RatingCalculatorTest.scala (commit 57a9709856901b0c): white and
    // black rated on one game with updateRatings(results, skipDeviationIncrease = true).
    constexpr rating fresh = new_player;          // lines 20-26: 1500/500/0.09
    constexpr rating old = glicko(1500, 80, 0.06); // lines 59-65
    constexpr rating w1 = glicko(1400, 79, 0.06), b1 = glicko(1550, 110, 0.065);
    constexpr rating w2 = glicko(1200, 60, 0.053), b2 = glicko(1850, 200, 0.062);
    const std::array<table_row, 12> table{{
        // lines 28-57
        {"default deviation: white wins", fresh, fresh, 1.0,
         {1741, 1, 396, 1, 0.0899983, 0.00000001}, {1258, 1, 396, 1, 0.0899983, 0.0000001}},
        {"default deviation: black wins", fresh, fresh, 0.0,
         {1258, 1, 396, 1, 0.0899983, 0.00000001}, {1741, 1, 396, 1, 0.0899983, 0.0000001}},
        {"default deviation: draw", fresh, fresh, 0.5,
         {1500, 1, 396, 1, 0.0899954, 0.0000001}, {1500, 1, 396, 1, 0.0899954, 0.0000001}},
        // lines 66-95
        {"low deviation: white wins", old, old, 1.0,
         {1517, 1, 78, 1, 0.06, 0.00001}, {1482, 1, 78, 1, 0.06, 0.00001}},
        {"low deviation: black wins", old, old, 0.0,
         {1482, 1, 78, 1, 0.06, 0.00001}, {1517, 1, 78, 1, 0.06, 0.00001}},
        {"low deviation: draw", old, old, 0.5,
         {1500, 1, 78, 1, 0.06, 0.00001}, {1500, 1, 78, 1, 0.06, 0.00001}},
        // lines 96-140: 1400/79/0.06 against 1550/110/0.065
        {"mixed: white wins", w1, b1, 1.0,
         {1422, 1, 77, 1, 0.06, 0.00001}, {1506, 1, 105, 1, 0.065, 0.00001}},
        {"mixed: black wins", w1, b1, 0.0,
         {1389, 1, 78, 1, 0.06, 0.00001}, {1568, 1, 105, 1, 0.065, 0.00001}},
        {"mixed: draw", w1, b1, 0.5,
         {1406, 1, 78, 1, 0.06, 0.00001}, {1537, 1, 105.87, 0.01, 0.065, 0.00001}},
        // lines 142-186: 1200/60/0.053 against 1850/200/0.062
        {"more mixed: white wins", w2, b2, 1.0,
         {1216.7, 0.1, 59.9, 0.1, 0.053013, 0.000001}, {1636, 0.1, 196.9, 0.1, 0.062028, 0.000001}},
        {"more mixed: black wins", w2, b2, 0.0,
         {1199.3, 0.1, 59.9, 0.1, 0.052999, 0.000001}, {1855.4, 0.1, 196.9, 0.1, 0.061999, 0.000001}},
        {"more mixed: draw", w2, b2, 0.5,
         {1208.0, 0.1, 59.90056, 0.1, 0.053002, 0.000001},
         {1745.7, 0.1, 196.98729, 0.1, 0.062006, 0.000001}},
    }};
    for (const table_row& row : table) check_row(row);
}

TEST_CASE("lichess's tighter table: ratings to 0.005, deviations to 0.00005")
{
    // scalachess test-kit/src/test/scala/rating/glicko/GlickoCalculatorTest.scala, lines 20-136
    // (commit cbffc9d7e2c6): the same calculator through GlickoCalculator.computeGame with
    // skipDeviationIncrease = true, checked closer.
    constexpr rating even = glicko(1500, 350, 0.06); // lines 9-11
    constexpr rating w1 = glicko(1400, 79, 0.06), b1 = glicko(1550, 110, 0.065);
    constexpr rating w2 = glicko(1200, 60, 0.053), b2 = glicko(1850, 200, 0.062);
    constexpr double r = 0.005, d = 0.00005;
    const std::array<table_row, 9> table{{
        {"even: white wins", even, even, 1.0,
         {1662.21, r, 290.2305, d, 0.0599993, 0.0000001}, {1337.79, r, 290.2305, d, 0.0599993, 0.0000001}},
        {"even: black wins", even, even, 0.0,
         {1337.79, r, 290.2305, d, 0.0599993, 0.0000001}, {1662.21, r, 290.2305, d, 0.0599993, 0.0000001}},
        {"even: draw", even, even, 0.5,
         {1500, r, 290.2305, d, 0.0599977, 0.0000001}, {1500, r, 290.2305, d, 0.0599977, 0.0000001}},
        {"mixed: white wins", w1, b1, 1.0,
         {1422.63, r, 77.4956, d, 0.06, 0.00001}, {1506.32, r, 105.8706, d, 0.065, 0.00001}},
        {"mixed: black wins", w1, b1, 0.0,
         {1389.99, r, 77.4956, d, 0.06, 0.00001}, {1568.90, r, 105.8706, d, 0.065, 0.00001}},
        {"mixed: draw", w1, b1, 0.5,
         {1406.31, r, 77.4956, d, 0.06, 0.00001}, {1537.61, r, 105.8706, d, 0.065, 0.00001}},
        {"more mixed: white wins", w2, b2, 1.0,
         {1216.73, r, 59.9006, d, 0.053013, 0.000001}, {1635.99, r, 196.9873, d, 0.062028, 0.000001}},
        {"more mixed: black wins", w2, b2, 0.0,
         {1199.29, r, 59.9006, d, 0.052999, 0.000001}, {1855.42, r, 196.9873, d, 0.061999, 0.000001}},
        {"more mixed: draw", w2, b2, 0.5,
         {1208.01, r, 59.9006, d, 0.053002, 0.000001}, {1745.71, r, 196.9873, d, 0.062006, 0.000001}},
    }};
    for (const table_row& row : table) check_row(row);
}

TEST_CASE("a period without games only grows RD (step 6)")
{
    const rating before = glicko(1500, 200, 0.06);
    const rating after = update(before, {}, 0.5, 1.0);
    CHECK_CLOSE(after.deviation, std::sqrt(200.0 * 200.0 + 0.06 * 0.06 * 173.7178 * 173.7178), 1e-9);
    CHECK(after.value == before.value);
    CHECK(after.volatility == before.volatility);
    CHECK(after.games == 0);
}

TEST_CASE("idle time grows RD at 0.21436 rating periods a day, up to 500")
{
    // lila's Glicko.scala: the rate was "chosen so a typical player's RD goes from 60 -> 110 in
    // 1 year".
    const rating typical = glicko(1700, 60, 0.06);
    CHECK_CLOSE(after_idle(typical, 365).deviation, 110.0, 0.05);

    // Glickman's step 6 over days * 0.21436 periods, in the Glicko-2 scale.
    for (const double days : {0.5, 1.0, 10.0, 100.0}) {
        CAPTURE(days);
        const double phi = 60 / 173.7178;
        const double want = std::sqrt(phi * phi + days * 0.21436 * 0.06 * 0.06) * 173.7178;
        CHECK_CLOSE(after_idle(typical, days).deviation, want, 1e-9);
    }
    // Only RD moves.
    const rating a_year = after_idle(typical, 365);
    CHECK(a_year.value == typical.value);
    CHECK(a_year.volatility == typical.volatility);
    CHECK(a_year.games == typical.games);

    // Ten years would take it to about 592: it stops at 500.
    const rating long_gone = glicko(1700, 400, 0.09);
    CHECK(after_idle(long_gone, 3650).deviation == 500.0);
    // No time, or a clock that went back: RD stays (to the last bits of the square root).
    CHECK_CLOSE(after_idle(typical, 0).deviation, 60.0, 1e-12);
    CHECK_CLOSE(after_idle(typical, -30).deviation, 60.0, 1e-12);
}

TEST_CASE("provisional while RD >= 110")
{
    // scalachess rating/src/main/scala/glicko/model.scala, lines 16 and 32.
    CHECK(provisional(new_player));
    CHECK(provisional(glicko(1500, 110.0, 0.06)));
    CHECK_FALSE(provisional(glicko(1500, 109.99, 0.06)));
    CHECK_FALSE(provisional(glicko(1500, 45.0, 0.06)));
    // A year idle takes a typical player (RD 60) back to it.
    CHECK_FALSE(provisional(after_idle(glicko(1500, 60, 0.06), 360)));
    CHECK(provisional(after_idle(glicko(1500, 60, 0.06), 370)));
}

TEST_CASE("volatility is capped at 0.1 after a game, and before one")
{
    // A settled player (RD 45) with a volatile history beats one 1100 points stronger: the
    // algorithm alone takes sigma past 0.1, lichess keeps it at 0.1.
    const rating settled = glicko(1500, 45, 0.0999);
    const rating strong = glicko(2600, 45, 0.05);
    const std::array<result, 1> upset{{{.opponent = strong, .score = 1.0}}};
    REQUIRE(update(settled, upset, lichess.tau, 0.0).volatility > 0.1);
    CHECK(after_game(settled, strong, 1.0).volatility == 0.1);
    // A volatility stored above the ceiling plays as the ceiling: an expected loss then takes
    // it just under 0.1, where 0.3 left uncapped would have come out capped at 0.1.
    const rating restless = glicko(1500, 200, 0.3);
    CHECK(after_game(restless, strong, 0.0) == after_game(glicko(1500, 200, 0.1), strong, 0.0));
    CHECK(after_game(restless, strong, 0.0).volatility < 0.1);
}

TEST_CASE("RD stays within [45, 500] after a game, and before one")
{
    // At the floor already, any game narrows RD further: it stays at 45.
    const rating settled = glicko(2000, 45, 0.05);
    const rating peer = glicko(2000, 45, 0.05);
    const std::array<result, 1> draw{{{.opponent = peer, .score = 0.5}}};
    REQUIRE(update(settled, draw, lichess.tau, 0.0).deviation < 45.0);
    CHECK(after_game(settled, peer, 0.5).deviation == 45.0);
    // An RD stored past the ceiling plays as 500, as the player's and as the opponent's.
    const rating beyond = glicko(1500, 650, 0.09);
    CHECK(after_game(beyond, peer, 1.0) == after_game(new_player, peer, 1.0));
    CHECK(after_game(peer, beyond, 1.0) == after_game(peer, new_player, 1.0));
}

TEST_CASE("a new player's first games: finite, counted, provisional")
{
    rating player = new_player;
    const rating strong = glicko(2600, 45, 0.05);
    for (int game = 0; game < 5; ++game) player = after_game(player, strong, game % 2 == 0 ? 1.0 : 0.0);
    CHECK(std::isfinite(player.value));
    CHECK(player.deviation >= 45.0);
    CHECK(player.deviation <= 500.0);
    CHECK(player.volatility <= 0.1);
    CHECK(player.games == 5);
    CHECK(provisional(player));
}

TEST_CASE("one game moves a rating at most 700 points, and never under 400 (lila's Perf and Glicko.cap)")
{
    // Glicko-2 alone gives a new player who beats a settled 2600 some 1,370 points.
    const rating strong = glicko(2600, 45, 0.05);
    const std::array<result, 1> upset{{{.opponent = strong, .score = 1.0}}};
    REQUIRE(update(new_player, upset, lichess.tau, 0.0).value > 1500.0 + 1000.0);
    CHECK(after_game(new_player, strong, 1.0).value == 1500.0 + 700.0);
    // And the loser's fall is as Glicko-2 says: far less than 700 at RD 45.
    const rating fallen = after_game(strong, new_player, 0.0);
    CHECK(fallen.value > 2600.0 - 50.0);
    CHECK(fallen.value < 2600.0);
    // The floor: a loss at 420 ends at 400, and a rating stored under 400 plays as 400.
    const rating low = glicko(420, 200, 0.06);
    const rating peer = glicko(420, 45, 0.06);
    const std::array<result, 1> loss{{{.opponent = peer, .score = 0.0}}};
    REQUIRE(update(low, loss, lichess.tau, 0.0).value < 400.0);
    CHECK(after_game(low, peer, 0.0).value == 400.0);
    CHECK(after_game(glicko(300, 200, 0.06), peer, 1.0) == after_game(glicko(400, 200, 0.06), peer, 1.0));
}
