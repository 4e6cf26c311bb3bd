#include "analysis/evaluate.hpp"

#include "quarto/protocol/analysis.hpp"

namespace quarto::server::analysis {
namespace {

// Less time than this is not worth a search that may overrun it: one ply instead.
constexpr std::chrono::milliseconds minimum_search{10};

// The budget until `until`, or nullopt when too little is left for it: then one ply ahead, which
// costs next to nothing and still tells the immediate wins and losses apart. (The solver reads
// the clock only every few thousand nodes: with no time left, even the first poll would come
// late.)
std::optional<solver::limits> budget_until(analysis_worker::context& c, deadline until)
{
    if (until - std::chrono::steady_clock::now() < minimum_search) return std::nullopt;
    solver::limits budget;
    budget.should_stop = [&c, until] { return c.stopping() || std::chrono::steady_clock::now() >= until; };
    return budget;
}

solver::limits one_ply()
{
    solver::limits l;
    l.depth = 1;
    return l;
}

} // namespace

std::vector<solver::move_value> evaluate_position(analysis_worker::context& c, const rules& r,
                                                  const solver::position& p, deadline until)
{
    solver::solver& s = c.solver();
    const auto budget = budget_until(c, until);
    auto moves = s.evaluate_moves(r, p, budget ? *budget : one_ply());
    protocol::sort_best_first(moves);
    return moves;
}

solver::result solve_position(analysis_worker::context& c, const rules& r, const solver::position& p, deadline until)
{
    const auto budget = budget_until(c, until);
    return c.solver().solve(r, p, budget ? *budget : one_ply());
}

std::optional<solver::move_value> evaluate_move(analysis_worker::context& c, const rules& r, const solver::position& p,
                                                const solver::move& m, deadline until)
{
    const auto budget = budget_until(c, until);
    return c.solver().evaluate_move(r, p, m, budget ? *budget : one_ply());
}

} // namespace quarto::server::analysis
