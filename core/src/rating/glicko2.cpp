// Glickman's Glicko-2 steps ("Example of the Glicko-2 system", 2013), computed the way lichess
// computes them. lichess's calculator is scalachess's rating/src/main/scala/glicko/impl/
// RatingCalculator.scala (a port of Jeremy Gooch's Java one); its constants are in lila's
// modules/rating/src/main/Glicko.scala, and lila's modules/round/src/main/PerfsUpdater.scala
// and modules/rating/src/main/Perf.scala say how a game is rated.
#include "quarto/core/rating/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace quarto::rating {

namespace {

// Glicko <-> Glicko-2 scale (Glickman's step 2; lichess's MULTIPLIER and DEFAULT_RATING).
constexpr double scale = 173.7178;
constexpr double centre = 1500.0;

// The volatility iteration (step 5.4) stops when its bracket is this narrow (Glickman's
// epsilon, lichess's CONVERGENCE_TOLERANCE) or after this many rounds (lichess's ITERATION_MAX,
// past which it gives up on the game).
constexpr double tolerance = 0.000001;
constexpr int max_iterations = 1000;

struct opponent_terms {
    double g;        // step 3's g(phi_j)
    double expected; // step 3's E(mu, mu_j, phi_j)
};

opponent_terms terms(double mu, const rating& opponent)
{
    const double mu_j = (opponent.value - centre) / scale;
    const double phi_j = opponent.deviation / scale;
    const double g = 1.0 / std::sqrt(1.0 + 3.0 * phi_j * phi_j / (std::numbers::pi * std::numbers::pi));
    return {g, 1.0 / (1.0 + std::exp(-g * (mu - mu_j)))};
}

// Step 6: phi grows with the volatility for each rating period, fractions of one included
// (lichess's calculateNewRD, which it also uses for idle time).
double grown(double phi, double sigma, double periods) { return std::sqrt(phi * phi + periods * sigma * sigma); }

double clamp_deviation(double rd, const system_constants& system)
{
    return std::min(std::max(rd, system.min_deviation), system.max_deviation);
}

// lichess caps a rating before it enters a game (Perf.scala's toGlickoPlayer) and after it
// leaves one (addOrReset): the rating not under its floor, RD within its bounds, volatility
// under its ceiling, each on its own. The volatility found during a game is not capped before
// step 6 uses it.
rating capped(rating r, const system_constants& system)
{
    r.value = std::max(r.value, system.min_rating);
    r.deviation = clamp_deviation(r.deviation, system);
    r.volatility = std::min(r.volatility, system.max_volatility);
    return r;
}

} // namespace

rating update(const rating& player, std::span<const result> results, double tau, double periods)
{
    const double mu = (player.value - centre) / scale;
    const double phi = player.deviation / scale;
    const double sigma = player.volatility;
    if (results.empty()) {
        rating idle = player;
        idle.deviation = grown(phi, sigma, periods) * scale;
        return idle;
    }

    // Steps 3 and 4: the estimated variance v from the game outcomes, and the improvement
    // delta = v * sum(g (s - E)).
    double v_inverse = 0.0;
    double improvement = 0.0; // sum(g (s - E)), which step 7 reuses
    for (const result& r : results) {
        const opponent_terms t = terms(mu, r.opponent);
        v_inverse += t.g * t.g * t.expected * (1.0 - t.expected);
        improvement += t.g * (r.score - t.expected);
    }
    const double v = 1.0 / v_inverse;
    const double delta = v * improvement;

    // Step 5: the new volatility, the root of f by the Illinois algorithm.
    const double a = std::log(sigma * sigma);
    const double phi2 = phi * phi;
    const auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi2 + v + ex;
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double lo = a; // Glickman's A
    double hi;     // Glickman's B
    if (delta * delta > phi2 + v) {
        hi = std::log(delta * delta - phi2 - v);
    } else {
        int k = 1;
        while (f(a - k * std::abs(tau)) < 0.0) ++k;
        hi = a - k * std::abs(tau);
    }
    double f_lo = f(lo);
    double f_hi = f(hi);
    int iterations = 0;
    while (std::abs(hi - lo) > tolerance && iterations < max_iterations) {
        ++iterations;
        const double c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        const double f_c = f(c);
        // `<=` as lichess has it (Glickman: "if f(C) f(B) <= 0").
        if (f_c * f_hi <= 0.0) {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;
        }
        hi = c;
        f_hi = f_c;
    }
    if (iterations == max_iterations) return player;
    const double new_sigma = std::exp(lo / 2.0);

    // Steps 6 to 8.
    const double phi_star = grown(phi, new_sigma, periods);
    const double new_phi = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double new_mu = mu + new_phi * new_phi * improvement;
    return rating{.value = new_mu * scale + centre,
                  .deviation = new_phi * scale,
                  .volatility = new_sigma,
                  .games = player.games + static_cast<int>(results.size())};
}

rating after_game(const rating& player, const rating& opponent, double score, const system_constants& system)
{
    // lila rates a game as a period of its own with skipDeviationIncrease = true (PerfsUpdater):
    // step 6 adds nothing, because the time before the game was added when the ratings were
    // read (after_idle).
    const rating before = capped(player, system);
    const result game[] = {{.opponent = capped(opponent, system), .score = score}};
    rating after = update(before, game, system.tau, 0.0);
    // lila's addOrReset: one game moves a rating at most maxRatingDelta, whatever Glicko-2 says
    // (a new player beating a settled 2600 would otherwise gain some 1,370 points).
    after.value = std::clamp(after.value, before.value - system.max_change, before.value + system.max_change);
    return capped(after, system);
}

rating after_idle(const rating& player, double days, const system_constants& system)
{
    // lila's Glicko.liveDeviation: step 6 over days * 0.21436 periods, then clamped to [45, 500].
    rating r = player;
    const double periods = std::max(days, 0.0) * system.periods_per_day;
    r.deviation = clamp_deviation(grown(player.deviation / scale, player.volatility, periods) * scale, system);
    return r;
}

} // namespace quarto::rating
