// The JSON of the analysis endpoints (PROTOCOL.md section 15, "Analysis"): a position with
// every legal move's value (GET /api/analysis), and every position of an archived game with the
// value before and after the move played (GET /api/games/{id}/analysis). Values are always for
// the player to move, distances in plies (placements), as the solver gives them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "quarto/core/solver/solver.hpp"

namespace quarto::protocol {

// "win", "draw", "loss".
std::string_view value_name(solver::game_value v);

// {"value","distance","exact"}
nlohmann::json evaluation_json(const solver::evaluation& e, bool exact);
// {"square","give","quarto"}: square and give null when the move does not place or give.
nlohmann::json move_json(const solver::move& m);
// {"squares","attributes"}: the rules that decide a position's value (false_claim does not).
nlohmann::json analysis_rules_json(const rules& r);

// Best first: the better evaluation, then the exact one, then by square, piece and call, so
// that equal moves always come in the same order.
void sort_best_first(std::vector<solver::move_value>& moves);

// The value of a position from its moves' values (`moves` sorted best first, not empty): the
// best move's. Exact when every move's value is, or when the best is an exact win: the solver
// finds every win within the depth it reached, so no unfinished move can win sooner.
solver::move_value value_of(std::span<const solver::move_value> moves);

// GET /api/analysis: {"rules","board","hand","value","distance","exact","moves":[...]}, each
// move with its own value; `moves` sorted best first, not empty.
nlohmann::json position_analysis_json(const rules& r, const solver::position& p,
                                      std::span<const solver::move_value> moves);

// One position of an analysed game: the start of a player's move.
struct analysed_position {
    std::size_t step = 0; // the record's moves applied before it (the replay's step)
    seat mover = 0;
    solver::position at;
    solver::evaluation before;
    bool before_exact = false;
    // The move played; none when the game ended before it was complete (on time, abandoned,
    // resigned, or a false Quarto call).
    std::optional<solver::move> played;
    // How the game ended during this move, when it did not end by the move itself: resign,
    // false_claim, timeout or abandoned.
    std::optional<end_reason> ended_by;
    // The value for the mover once the move was made (a resignation or a false call: a loss
    // at distance 0); none when no move was made (time, abandonment).
    std::optional<solver::evaluation> after;
    bool after_exact = false;
    // The move made the result worse for the mover (a win thrown away, a draw lost).
    bool changed = false;
    // When `changed`: the best moves (at most max_best_moves of them).
    std::vector<solver::move> best;
};

inline constexpr std::size_t max_best_moves = 8;

struct game_analysis {
    std::string game;
    std::vector<analysed_position> positions;
    std::int64_t ms = 0; // how long the analysis took
    // Every position's values exact.
    bool exact() const;
};

// {"game","exact","ms","positions":[...]}; the server adds "cached" when it answers.
nlohmann::json game_analysis_json(const game_analysis& a);

} // namespace quarto::protocol
