#include "analysis/game_turns.hpp"

#include <spdlog/spdlog.h>

namespace quarto::server::analysis {

std::vector<game_turn> turns_of(const archive::game_record& record)
{
    std::vector<game_turn> turns;
    game g{record.game_rules, record.clock, record.first, at_ms(0)};
    bool open = false;     // turns.back() is still being played
    solver::move building; // what its mover has done so far
    const auto begin_turn = [&](std::size_t step) {
        const auto p = solver::position_of(g);
        open = p.has_value();
        building = {};
        if (open) turns.push_back(game_turn{step, g.turn(), *p, std::nullopt, std::nullopt, false});
    };

    const auto& moves = record.moves;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const move_record& m = moves[i];
        // A move starts with the first give, and then whenever a piece has been received.
        if (i == 0 || moves[i - 1].kind == move_kind::give) begin_turn(i);
        if (!g.apply(action{m.kind, m.by, m.value, m.line}, at_ms(m.at_ms))) {
            spdlog::error("analysis: game {}: its move {} does not replay; analysed up to it", record.id, i + 1);
            if (open) turns.pop_back();
            return turns;
        }
        if (!open || m.by != turns.back().mover) continue; // the other seat: a pass, a resignation
        game_turn& t = turns.back();
        switch (m.kind) {
        case move_kind::place: building.place = static_cast<square>(m.value); break;
        case move_kind::give:
            building.give = piece{m.value};
            t.played = building;
            open = false;
            break;
        case move_kind::call:
            building.call = true;
            if (g.result() && g.result()->reason == end_reason::false_claim) {
                t.ended_by = end_reason::false_claim;
                t.lost_by_mover = true;
            } else {
                t.played = building;
            }
            open = false;
            break;
        case move_kind::pass: // after the 16th placement, not called
            t.played = building;
            open = false;
            break;
        case move_kind::resign:
            t.ended_by = end_reason::resign;
            t.lost_by_mover = true;
            open = false;
            break;
        }
    }
    // The last piece given was never placed: the game ended on time, or abandoned, or it ended
    // with nothing played at all.
    if (moves.empty() || moves.back().kind == move_kind::give) begin_turn(moves.size());
    if (open) turns.back().ended_by = record.result.reason;
    return turns;
}

} // namespace quarto::server::analysis
