#include "quarto/archive/game_record.hpp"

namespace quarto::archive {

game_record make_game_record(game_origin origin, const game& g)
{
    game_record r;
    r.id = std::move(origin.id);
    r.room = std::move(origin.room);
    r.room_name = std::move(origin.room_name);
    r.players = std::move(origin.players);
    r.game_rules = g.rules();
    r.clock = g.clock();
    r.first = g.first();
    r.result = *g.result();
    r.moves.assign(g.moves().begin(), g.moves().end());
    r.started_ms = origin.started_ms;
    r.ended_ms = origin.ended_ms;
    return r;
}

} // namespace quarto::archive
