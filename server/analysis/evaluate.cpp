#include "analysis/evaluate.hpp"

#include "quarto/protocol/analysis.hpp"

namespace quarto::server::analysis {
namespace {

// Less time than this is not worth a search that may overrun it: one ply instead.
constexpr std::chrono::milliseconds minimum_search{10};

} // namespace

std::vector<solver::move_value> evaluate_position(analysis_worker::context& c, const rules& r,
                                                  const solver::position& p, deadline until)
{
    solver::solver& s = c.solver();
    std::vector<solver::move_value> moves;
    // The solver reads the clock only every few thousand nodes: with no time left, even the
    // first poll would come late. One ply ahead costs next to nothing and still tells the
    // immediate wins and losses apart.
    if (until - std::chrono::steady_clock::now() >= minimum_search) {
        solver::limits budget;
        budget.should_stop = [&c, until] { return c.stopping() || std::chrono::steady_clock::now() >= until; };
        moves = s.evaluate_moves(r, p, budget);
    }
    if (moves.empty()) { // no time, or stopped before one ply was looked at
        solver::limits one_ply;
        one_ply.depth = 1;
        moves = s.evaluate_moves(r, p, one_ply);
    }
    protocol::sort_best_first(moves);
    return moves;
}

} // namespace quarto::server::analysis
