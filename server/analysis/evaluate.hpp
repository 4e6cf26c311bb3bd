// A position's moves and values within a time budget: the searches the two analysis endpoints
// share.
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "analysis/analysis_worker.hpp"

namespace quarto::server::analysis {

using deadline = std::chrono::steady_clock::time_point;

// How long one GET /api/analysis may search, and a whole GET /api/games/{id}/analysis. The
// issue's target is 2 s for a game; the rest is the margin for what the clock does not stop:
// the solver polls it every few thousand nodes, and a loaded machine gives the worker (at nice
// 10) few of its cycles (measured: 2.19 s in all for a budget of 1.8 s, with the tests running
// beside it on 2 busy cores).
inline constexpr std::chrono::milliseconds position_budget{1000};
inline constexpr std::chrono::milliseconds game_budget{1500};

// Every legal move of `p` with its value, best first (protocol::sort_best_first); never empty.
// The search stops at `until` or when the worker stops; the values it did not finish are the
// deepest look-ahead's, marked inexact. Precondition: solver::check(p) == none.
std::vector<solver::move_value> evaluate_position(analysis_worker::context& c, const rules& r,
                                                  const solver::position& p, deadline until);

// The position's value and a best move: far less search than every move's value (4 to 9 times
// at 11 empty squares), as a game's analysis needs for each position.
solver::result solve_position(analysis_worker::context& c, const rules& r, const solver::position& p, deadline until);

// The value of move `m` of `p`, or nullopt when it is not legal there.
std::optional<solver::move_value> evaluate_move(analysis_worker::context& c, const rules& r, const solver::position& p,
                                                const solver::move& m, deadline until);

} // namespace quarto::server::analysis
