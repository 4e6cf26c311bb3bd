// Swiss-system pairing for the next round, from the games so far.
#pragma once

#include <span>

#include "quarto/core/tournament/pairing.hpp"

namespace quarto::tournament {

// Pairs the `active` players (active[i] false, or i beyond active.size(): withdrawn or removed)
// for the next round, given every game so far (games of inactive players still count for
// scores and for who has met whom). Players are ranked by half-points, then by index (the
// registration order). The pairing is chosen by these criteria, each deciding only among the
// pairings that are best on the ones before it:
//   1. Fewest rematches: two players who have met are paired again only when every pairing
//      (with any choice of bye) repeats at least that many pairs.
//   2. The bye (odd number of active players) goes to a player with the fewest byes so far,
//      and among those to the lowest ranked. So: the lowest-ranked player without a bye.
//   3. Score groups from the top: the boards are formed top down, each by the highest-ranked
//      unpaired player. They meet the opponent closest in score that still allows criterion 1
//      for everyone below: someone in their own score group if possible (so an odd player
//      floats down to the next group), else the highest-ranked of the nearest lower group.
//   4. Within a score group, the Dutch order: of the group's m unpaired players (top one
//      first), the top one meets the one at position m/2, then m/2+1, ..., then m/2-1 down
//      to 1 (round 1 of 8 players: 0-4, 1-5, 2-6, 3-7).
// Rematch-freedom is decided exactly (maximum matching on the graph of pairs not yet played),
// so the search never backtracks blindly: polynomial in the number of players.
// On each board the player who was listed first less often so far (as game_outcome::a,
// minus as b) is listed first; the higher-ranked on a tie. Boards are returned top score
// first (the order they were formed), the bye last as pairing{player, nullopt}.
round_pairings swiss_pairing(int players, std::span<const game_outcome> history,
                             std::span<const bool> active);

} // namespace quarto::tournament
