#include "analysis/game_analysis.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "analysis/game_turns.hpp"

namespace quarto::server::analysis {
namespace {

protocol::analysed_position analyse_turn(analysis_worker::context& c, const rules& r, const game_turn& t, deadline until)
{
    protocol::analysed_position a;
    a.step = t.step;
    a.mover = t.mover;
    a.at = t.at;
    a.played = t.played;
    a.ended_by = t.ended_by;
    // The value and one best move first; every move's value only where the move played made
    // the result worse, for the best moves to show.
    const solver::result solved = solve_position(c, r, t.at, until);
    a.before = solved.value;
    a.before_exact = solved.exact;
    if (t.played) {
        const auto played = *t.played == solved.best
                                ? std::optional{solver::move_value{solved.best, solved.value, solved.exact}}
                                : evaluate_move(c, r, t.at, *t.played, until);
        if (played) {
            a.after = played->value;
            a.after_exact = played->exact;
        }
    } else if (t.lost_by_mover) {
        a.after = solver::evaluation{solver::game_value::loss, 0};
        a.after_exact = true;
    }
    // Only the result counts: a win taken in 5 plies instead of 3 is still the win.
    a.changed = a.after && a.after->value < a.before.value;
    if (a.changed) {
        for (const auto& m : evaluate_position(c, r, t.at, until)) {
            if (a.best.size() == protocol::max_best_moves) break;
            if (m.value == a.before) a.best.push_back(m.m);
        }
        if (a.best.empty()) a.best.push_back(solved.best); // every move's values cut short by the budget
    }
    return a;
}

} // namespace

protocol::game_analysis analyse_game(analysis_worker::context& c, const archive::game_record& record, deadline until)
{
    const auto started = std::chrono::steady_clock::now();
    protocol::game_analysis out;
    out.game = record.id;
    auto turns = turns_of(record);
    std::erase_if(turns, [&](const game_turn& t) {
        const auto problem = solver::check(t.at);
        if (problem != solver::position_problem::none)
            spdlog::error("analysis: game {}: the position at move {} is impossible ({}); skipped", record.id, t.step,
                          solver::to_string(problem));
        return problem != solver::position_problem::none;
    });
    out.positions.resize(turns.size());
    // The positions no budget here solves come first in a game: each keeps a short look-ahead's
    // time, and the rest is shared by the others.
    std::vector<std::size_t> unsolvable_before(turns.size() + 1, 0);
    for (std::size_t k = 0; k < turns.size(); ++k)
        unsolvable_before[k + 1] = unsolvable_before[k] + (turns[k].at.empty_squares() > most_empty_solved ? 1 : 0);
    for (std::size_t k = turns.size(); k-- > 0;) {
        const auto now = std::chrono::steady_clock::now();
        auto left = until > now ? until - now : std::chrono::steady_clock::duration::zero();
        std::size_t sharing = k + 1;
        if (turns[k].at.empty_squares() <= most_empty_solved) {
            const auto kept = std::chrono::steady_clock::duration{unsolvable_look_ahead} * static_cast<long>(unsolvable_before[k]);
            left = left > kept ? left - kept : std::chrono::steady_clock::duration::zero();
            sharing -= unsolvable_before[k];
        }
        out.positions[k] = analyse_turn(c, record.game_rules, turns[k], now + left / static_cast<long>(sharing));
    }
    out.ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    return out;
}

} // namespace quarto::server::analysis
