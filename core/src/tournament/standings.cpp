// Standings: points and tie-breaks counted in quarter-points, so that every comparison is
// exact; they become doubles only on the way out.
#include "quarto/core/tournament/standings.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "quarto/core/tournament/history.hpp"

namespace quarto::tournament {

namespace {

struct tally {
    int half_points = 0;
    int sonneborn_berger_quarters = 0;
    int buchholz_quarters = 0;
};

// One game seen from one side: the opponent's final points weighted by the result.
void credit_game(tally& t, int own_half_points, int opponent_final_half_points)
{
    t.sonneborn_berger_quarters += own_half_points * opponent_final_half_points;
    t.buchholz_quarters += 2 * opponent_final_half_points;
}

std::vector<tally> tally_games(int players, std::span<const game_outcome> games)
{
    const std::vector<int> final_points = score_half_points(players, games);
    std::vector<tally> tallies(final_points.size());
    for (std::size_t p = 0; p < tallies.size(); ++p) tallies[p].half_points = final_points[p];
    for (const game_outcome& g : games) {
        if (!g.b || check_game(players, g)) continue; // a bye measures no opponent
        credit_game(tallies[g.a], g.half_points_a, final_points[*g.b]);
        credit_game(tallies[*g.b], g.half_points_b, final_points[g.a]);
    }
    return tallies;
}

// What orders players, compared lexicographically, larger first.
using ranking_key = std::array<int, 3>;

ranking_key key_of(const tally& t, tiebreak_system system)
{
    if (system == tiebreak_system::swiss)
        return {t.half_points, t.buchholz_quarters, t.sonneborn_berger_quarters};
    return {t.half_points, t.sonneborn_berger_quarters, 0};
}

standing standing_of(int player, const tally& t)
{
    return standing{.rank = 0,
                    .player = player,
                    .half_points = t.half_points,
                    .sonneborn_berger = t.sonneborn_berger_quarters / 4.0,
                    .buchholz = t.buchholz_quarters / 4.0};
}

} // namespace

std::vector<standing> compute_standings(int players, std::span<const game_outcome> games, tiebreak_system system)
{
    const std::vector<tally> tallies = tally_games(players, games);
    std::vector<int> order(tallies.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int p, int q) {
        return key_of(tallies[p], system) > key_of(tallies[q], system);
    });

    std::vector<standing> table;
    table.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        standing s = standing_of(order[i], tallies[order[i]]);
        const bool tied_with_previous =
            i > 0 && key_of(tallies[order[i]], system) == key_of(tallies[order[i - 1]], system);
        s.rank = tied_with_previous ? table.back().rank : static_cast<int>(i) + 1;
        table.push_back(s);
    }
    return table;
}

} // namespace quarto::tournament
