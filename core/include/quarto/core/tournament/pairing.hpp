// The values tournament logic trades in: who meets whom in a round, and what a played game
// (or a bye) was worth. Players are indices 0..n-1 in registration order.
#pragma once

#include <optional>
#include <vector>

namespace quarto::tournament {

// One board of a round.
struct pairing {
    int first;                 // player index; the player listed first (e.g. white in chess)
    std::optional<int> second; // nullopt: `first` has a bye
    friend bool operator==(const pairing&, const pairing&) = default;
};
using round_pairings = std::vector<pairing>;

// One game played (a pairing with 2 games per pairing yields 2 of these), or one bye.
// Points are in half-points so that every sum stays exact.
struct game_outcome {
    int round;            // 1-based
    int a;                // the player listed first
    std::optional<int> b; // nullopt: a bye for a
    int half_points_a;    // 0, 1 or 2 (loss, draw, win); a bye is 2
    int half_points_b;    // 2 - half_points_a for a real game; 0 for a bye
    friend bool operator==(const game_outcome&, const game_outcome&) = default;
};

} // namespace quarto::tournament
