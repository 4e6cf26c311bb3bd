// Checking and summing a tournament's history of games. Every tournament function ignores a
// game that check_game() rejects, so one bad record cannot corrupt a whole table; the server
// should call check_history() on what it loads and refuse (and report) what it rejects.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "quarto/core/tournament/pairing.hpp"

namespace quarto::tournament {

enum class history_problem {
    round_out_of_range,  // round < 1
    player_out_of_range, // a or b outside 0..players-1
    plays_itself,        // a == b
    bad_game_points,     // a real game whose half-points are not {0,2}, {1,1} or {2,0}
    bad_bye_points,      // a bye not recorded as half_points_a 2, half_points_b 0
};
std::string_view to_string(history_problem);

struct history_error {
    std::size_t game; // index into the history
    history_problem problem;
    friend bool operator==(const history_error&, const history_error&) = default;
};

std::optional<history_problem> check_game(int players, const game_outcome& game);
// The first game the tournament functions would ignore, if any.
std::optional<history_error> check_history(int players, std::span<const game_outcome> history);

// Half-points per player: every accepted game and bye counted (byes are 2, a win).
std::vector<int> score_half_points(int players, std::span<const game_outcome> history);
// Byes received per player.
std::vector<int> byes_received(int players, std::span<const game_outcome> history);

} // namespace quarto::tournament
