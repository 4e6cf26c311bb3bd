// An archived game as the solver sees it: the positions at which a player chose a move (the
// first give, then every placement of a piece received), each with the move that was made.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "quarto/archive/game_record.hpp"
#include "quarto/core/solver/position.hpp"

namespace quarto::server::analysis {

struct game_turn {
    std::size_t step = 0; // the record's moves applied before it
    seat mover = 0;
    solver::position at;
    // The whole move (place, then give, call or pass), when the mover finished it.
    std::optional<solver::move> played;
    // How the game ended during this turn without a finished move (the mover resigned, called a
    // false Quarto, ran out of time; or the other seat resigned or abandoned): the record's
    // reason.
    std::optional<end_reason> ended_by;
    // The mover ended the game against themselves: resigned, or made a false call.
    bool lost_by_mover = false;
};

// Replays the record through core's game, at the recorded times. A record the rules refuse
// (a damaged file) yields the turns up to the refused move.
std::vector<game_turn> turns_of(const archive::game_record& record);

} // namespace quarto::server::analysis
