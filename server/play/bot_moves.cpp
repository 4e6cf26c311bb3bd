#include "play/bot_moves.hpp"

#include <string_view>

namespace quarto::server::play {

namespace {
constexpr std::string_view bot_id_prefix = "bot-";
} // namespace

std::string bot_player_id(int level) { return std::string{bot_id_prefix} + std::to_string(level); }

solver::move end_of_board_move(const game& g, bool sees)
{
    solver::move m;
    if (const auto last = g.last_placement(); last && sees)
        m.call = g.rules().quarto_through(g.board(), last->where).has_value();
    return m;
}

std::vector<protocol::room_action> actions_for(const game& g, const solver::move& m)
{
    std::vector<protocol::room_action> out;
    board after = g.board();
    std::optional<square> judged;
    if (m.place && g.in_hand()) {
        out.emplace_back(protocol::place{*m.place});
        after.put(*m.place, *g.in_hand());
        judged = *m.place;
    } else if (const auto last = g.last_placement()) {
        judged = last->where;
    }
    if (m.call && judged) {
        if (const auto line = g.rules().quarto_through(after, *judged)) {
            out.emplace_back(protocol::call_quarto{*line});
            return out;
        }
    }
    if (m.give) out.emplace_back(protocol::give{*m.give});
    else if (out.empty() || after.full()) out.emplace_back(protocol::pass{});
    return out;
}

} // namespace quarto::server::play
