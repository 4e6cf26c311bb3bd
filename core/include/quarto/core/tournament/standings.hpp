// Final or intermediate standings with the tie-breaks of a round robin or a Swiss.
#pragma once

#include <span>
#include <vector>

#include "quarto/core/tournament/pairing.hpp"

namespace quarto::tournament {

enum class tiebreak_system { round_robin, swiss }; // RR: Sonneborn-Berger; Swiss: Buchholz then SB

struct standing {
    int rank;                // 1-based; players equal on points and all tiebreaks share a rank
    int player;
    int half_points;
    double sonneborn_berger; // sum over games: opponent's final points x (1 win, 1/2 draw, 0 loss)
    double buchholz;         // sum of the final points of the opponents played (byes add 0)
    friend bool operator==(const standing&, const standing&) = default;
};

// Ordered best first: points, then the system's tiebreaks, then player index. Ranks are
// shared by players equal on points and on the system's tiebreaks (1, 2, 2, 4).
// A bye counts as a win for points but adds nothing to SB or Buchholz: there was no opponent
// whose strength it could measure. Both sums run over games, so an opponent met twice counts
// twice. Games of withdrawn players count as played; the tiebreak values use everyone's final
// points, withdrawn or not. Tiebreak values are exact multiples of 0.25.
std::vector<standing> compute_standings(int players, std::span<const game_outcome> games,
                                        tiebreak_system system);

} // namespace quarto::tournament
