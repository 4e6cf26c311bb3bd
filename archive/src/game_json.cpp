#include "quarto/archive/game_json.hpp"

#include "quarto/protocol/encode.hpp"

namespace quarto::archive {
namespace {

using nlohmann::json;

json players_json(const game_record& r)
{
    json players = json::array();
    for (seat s = 0; s < 2; ++s)
        players.push_back({{"seat", s}, {"id", r.players[s].id}, {"name", r.players[s].name}});
    return players;
}

} // namespace

json game_summary_json(const game_record& r)
{
    return {{"id", r.id},
            {"room", r.room.empty() ? json(nullptr) : json(r.room)},
            {"room_name", r.room_name},
            {"players", players_json(r)},
            {"rules", protocol::encode_rules(r.game_rules)},
            {"clock", protocol::encode_clock_settings(r.clock)},
            {"first", r.first},
            {"result", protocol::encode_result(r.result)},
            {"started_ms", r.started_ms},
            {"ended_ms", r.ended_ms},
            {"move_count", r.moves.size()}};
}

json game_json(const game_record& r)
{
    json out = game_summary_json(r);
    out.erase("move_count");
    out["moves"] = protocol::encode_moves(r.moves);
    return out;
}

json games_list_json(std::string_view player, std::span<const game_record> games)
{
    json list = json::array();
    for (const game_record& g : games) list.push_back(game_summary_json(g));
    return {{"player", player}, {"games", std::move(list)}};
}

} // namespace quarto::archive
