// Plain minimax over Quarto's rules, for checking the solver: no table, no symmetry, no
// pruning but what the rules themselves end (a Quarto) and a win at the next placement, which
// nothing beats. Exponential: a few seconds at 8 empty squares in an optimized build.
#pragma once

#include <algorithm>

#include "quarto/core/rules.hpp"

namespace quarto::test {

// The value for the player to place `hand`, by plain minimax: +(17 - P) for a win made by the
// P-th placement, the opposite for a loss, 0 for a draw.
inline int minimax(const rules& r, const board& b, piece_set available, piece hand)
{
    const int placed = b.pieces_placed();
    for (square s = 0; s < board_squares; ++s) {
        if (b.occupied(s)) continue;
        board next = b;
        next.put(s, hand);
        if (r.quarto_through(next, s)) return 17 - (placed + 1);
    }
    int best = -100;
    for (square s = 0; s < board_squares; ++s) {
        if (b.occupied(s)) continue;
        board next = b;
        next.put(s, hand);
        if (next.full()) {
            best = std::max(best, 0);
            continue;
        }
        for (int g = 0; g < piece::count; ++g) {
            if (!(available & (1u << g))) continue;
            best = std::max(best, -minimax(r, next, static_cast<piece_set>(available & ~(1u << g)),
                                           piece{static_cast<std::uint8_t>(g)}));
            // Not a win now: nothing beats a win at our next placement, so stop looking.
            if (best == 17 - (placed + 3)) return best;
        }
    }
    return best;
}

} // namespace quarto::test
