// Round-robin schedules from the Berger tables (FIDE Handbook C.05 Annex 1).
#pragma once

#include <vector>

#include "quarto/core/tournament/pairing.hpp"

namespace quarto::tournament {

// Rounds in one cycle: n-1 for even n, n for odd n, 0 for fewer than 2 players.
int round_robin_rounds(int players);

// Standard circle (Berger) schedule: n-1 rounds for even n, n rounds for odd n (a dummy player
// n = a bye each round). Round r's pairings in board order, the player listed first being the
// one the Berger table lists first (white). For odd n the dummy's board is not a board: the
// bye is returned last, as pairing{player, nullopt}, the real boards keeping their order.
// Fewer than 2 players: no rounds. For a double round robin, play the schedule twice with
// first and second swapped in the second cycle.
std::vector<round_pairings> round_robin_schedule(int players);

} // namespace quarto::tournament
