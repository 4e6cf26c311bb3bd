#include "quarto/archive/game_json.hpp"

#include <cmath>

#include "quarto/core/rating/glicko2.hpp"
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

// What a rated game did to each seat's rating, in whole points as players read them; "rd" is
// the deviation after the game, and "provisional" says the rating is shown with a "?".
json ratings_json(const game_record& r)
{
    json seats = json::array();
    for (seat s = 0; s < 2; ++s) {
        const seat_rating_change& change = r.ratings->seats[s];
        const stored_rating& after = change.after;
        const rating::rating shown{.value = after.rating, .deviation = after.deviation, .volatility = after.volatility,
                                   .games = after.games};
        seats.push_back({{"seat", s},
                         {"player", r.players[s].id},
                         {"before", std::lround(change.before.rating)},
                         {"after", std::lround(after.rating)},
                         {"rd", std::lround(after.deviation)},
                         {"provisional", rating::provisional(shown)}});
    }
    return seats;
}

} // namespace

json game_summary_json(const game_record& r)
{
    json out = {{"id", r.id},
            {"room", r.room.empty() ? json(nullptr) : json(r.room)},
            {"room_name", r.room_name},
            {"players", players_json(r)},
            {"rules", protocol::encode_rules(r.game_rules)},
            {"clock", protocol::encode_clock_settings(r.clock)},
            {"first", r.first},
            {"result", protocol::encode_result(r.result)},
            {"started_ms", r.started_ms},
            {"ended_ms", r.ended_ms},
            {"move_count", r.moves.size()},
            {"rated", r.ratings.has_value()}};
    if (r.ratings) out["ratings"] = ratings_json(r);
    return out;
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
