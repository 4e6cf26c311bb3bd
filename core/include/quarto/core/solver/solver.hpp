// The exact value of a Quarto position and a best move: negamax with alpha-beta, a bounded
// transposition table keyed on canonical forms under the rules' symmetries (the 32 board
// permutations that keep the 10 lines, or the 8 of the square when 2x2 squares count, times
// the relabellings of the pieces), and iterative deepening under a node or time budget. Pure:
// no I/O, no clock reads (the caller's `should_stop` reads one if it wants), and no
// allocation once constructed. One solver per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "quarto/core/solver/position.hpp"

namespace quarto::solver {

struct limits {
    // Plies (placements) to look ahead; at the horizon a position counts as a draw. 16 (or
    // anything at least the empty squares) is an exact search.
    int depth = board_squares;
    std::uint64_t max_nodes = UINT64_MAX;
    // Polled every 4096 nodes; true stops the search (the caller's clock, a flag). Neither it
    // nor max_nodes stops the first ply, which always finishes: every result has a best move
    // and evaluate_moves a value for every move.
    std::function<bool()> should_stop;
};

struct result {
    evaluation value;      // exact when `exact`; otherwise the deepest finished look-ahead's
    bool exact = false;    // false when the depth was cut or the budget ran out
    move best;             // a best move (the best found so far when the budget ran out)
    int depth_reached = 0; // plies of the deepest finished iteration
    std::uint64_t nodes = 0;
};

struct move_value {
    move m;
    evaluation value; // for the player who makes the move, as in `result`
    bool exact = false;
};

class solver {
public:
    // The transposition table takes about `table_bytes` (rounded down to a power of two
    // entries, at least a few thousand).
    explicit solver(std::size_t table_bytes = std::size_t{64} << 20);
    ~solver();
    solver(const solver&) = delete;
    solver& operator=(const solver&) = delete;

    // Precondition: check(p) == position_problem::none.
    result solve(const rules& r, const position& p, const limits& l = {});
    // As solve, with the root's moves tried in `order`: every legal move of `p`, each once. Of
    // the moves of the best value the first in `order` is returned (by an exact search: under a
    // budget each deeper search tries the last one's best first), for a caller that prefers
    // some best moves to others (tools/make_book: those that leave the fewest different replies).
    result solve_in_order(const rules& r, const position& p, std::span<const move> order, const limits& l = {});
    // Every legal move and its value; the same budget is shared by all of them.
    std::vector<move_value> evaluate_moves(const rules& r, const position& p, const limits& l = {});
    // One move's value, as evaluate_moves gives it, for a caller that needs only that one (a
    // game's analysis: the move played); nullopt when `m` is not a legal move of `p`.
    std::optional<move_value> evaluate_move(const rules& r, const position& p, const move& m, const limits& l = {});

    void clear_table();
    std::size_t table_bytes() const;
    // Off by default: each search's results give way to the next search's in the table, as
    // suits positions with little in common (a bot's moves in many rooms). On, results keep
    // their places by depth across searches: for exact searches of positions one after another
    // in each other's trees (tools/make_book: the positions that follow one it has just solved).
    void keep_results_across_searches(bool keep);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// Every legal move of `p` (precondition: check(p) == none): with a hand, each empty square
// with each available piece to give (or a call where the placement completes a pattern, or
// nothing to give on the last square); without one, each available piece; plus a call when
// `callable` allows one.
void legal_moves(const rules& r, const position& p, std::vector<move>& out);

} // namespace quarto::solver
