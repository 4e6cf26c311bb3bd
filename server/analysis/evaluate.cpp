#include "analysis/evaluate.hpp"

#include "quarto/protocol/analysis.hpp"

namespace quarto::server::analysis {

std::vector<solver::move_value> evaluate_position(analysis_worker::context& c, const rules& r,
                                                  const solver::position& p, deadline until)
{
    solver::solver& s = c.solver_for(r);
    solver::limits budget;
    budget.should_stop = [&c, until] { return c.stopping() || std::chrono::steady_clock::now() >= until; };
    auto moves = s.evaluate_moves(r, p, budget);
    if (moves.empty()) {
        // Stopped before even one placement ahead was looked at: one ply costs next to nothing
        // and still tells the immediate wins and losses apart, so every move gets a value.
        solver::limits one_ply;
        one_ply.depth = 1;
        moves = s.evaluate_moves(r, p, one_ply);
    }
    protocol::sort_best_first(moves);
    return moves;
}

} // namespace quarto::server::analysis
