// Glicko-2 ratings as lichess runs them: Glickman's algorithm ("Example of the Glicko-2
// system", Mark E. Glickman, 2013) with lichess's constants, clamps and rating periods.
// Pure functions of values: the caller passes the days that went by, nothing reads a clock,
// nothing allocates.
#pragma once

#include <span>

namespace quarto::rating {

// A player's rating in one pool, on the Glicko scale (1500 is the mean of a new player).
struct rating {
    double value;      // r
    double deviation;  // RD: how uncertain r is, in rating points
    double volatility; // sigma: how erratic the player's results have been
    int games;         // rated games played in the pool

    friend constexpr bool operator==(const rating&, const rating&) = default;
};

// The constants of a rating system. The defaults are lichess's: tau is scalachess's Tau.default
// (rating/src/main/scala/glicko/model.scala); the rest are from lila's
// modules/rating/src/main/Glicko.scala (minDeviation, maxDeviation, maxVolatility, minRating,
// maxRatingDelta, the calculator's RatingPeriodsPerDay) and scalachess's provisionalDeviation.
struct system_constants {
    double tau = 0.75;                    // constrains how fast volatility moves
    double periods_per_day = 0.21436;     // "so a typical player's RD goes from 60 -> 110 in 1 year"
    double min_deviation = 45.0;          // RD never drops below this...
    double max_deviation = 500.0;         // ...nor grows above this
    double max_volatility = 0.1;          // "past this, it might not stabilize ever again"
    double provisional_deviation = 110.0; // at or above this RD a rating is provisional
    double min_rating = 400.0;            // lila's Glicko.minRating: no rating below it
    double max_change = 700.0;            // lila's maxRatingDelta: one game moves a rating at most this far

    friend constexpr bool operator==(const system_constants&, const system_constants&) = default;
};

inline constexpr system_constants lichess{};

// What a player starts at in each pool: lila's Glicko.default (RD at its ceiling, lila's
// defaultVolatility).
inline constexpr rating new_player{.value = 1500.0, .deviation = 500.0, .volatility = 0.09, .games = 0};

// One game of a rating period, seen from the player: the opponent's rating before the period,
// and the player's score (1 win, 0.5 draw, 0 loss).
struct result {
    rating opponent;
    double score;
};

// Glickman's steps 1 to 8 for one player over a rating period that lasted `periods` periods
// (1 in Glickman's paper; lichess rates each game as a period of its own and passes 0, since
// after_idle has already grown RD for the time before it). No result: only RD grows (step 6).
// Nothing is clamped here. If the volatility iteration fails to converge (it does not for
// finite inputs), the player comes back unchanged: lichess leaves such a game unrated.
rating update(const rating& player, std::span<const result> results, double tau, double periods = 1.0);

// The player's rating after one rated game against `opponent` (both as they stood before it,
// each already brought forward with after_idle), clamped as lichess clamps it: at most
// max_change from where it was, at least min_rating, RD and volatility within their bounds.
// `games` counts the game.
rating after_game(const rating& player, const rating& opponent, double score,
                  const system_constants& system = lichess);

// The rating `days` after the player's last game: RD grows as Glickman's step 6 says for that
// many rating periods (a fraction of one included), within [min_deviation, max_deviation].
// Negative days count as none.
rating after_idle(const rating& player, double days, const system_constants& system = lichess);

// A provisional rating is shown with a "?" and not ranked.
constexpr bool provisional(const rating& r, const system_constants& system = lichess)
{
    return r.deviation >= system.provisional_deviation;
}

} // namespace quarto::rating
