// Tournament messages the server sends. The snapshot and GET /api/tournaments/{id} are the
// same document (the latter without "req").
#pragma once

#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "quarto/core/tournament/standings.hpp"
#include "quarto/model/tournament.hpp"

namespace quarto::protocol {

using json = nlohmann::json;

std::string tournament_created(const model::tournament_id& id, const json& req);
// To its subscribers when a tournament nobody registered for is dropped.
std::string tournament_closed(const model::tournament_id& id);
// One page of the `total` tournaments, from `offset` on.
std::string tournaments_list(std::span<const json> summaries, std::size_t total, std::size_t offset, const json& req);
// {"id","name","format","status","players":N} as list_tournaments shows it.
json tournament_summary(const model::tournament_record& t);
std::string tournament_snapshot(const model::tournament_record& t, std::uint64_t seq,
                                std::span<const tournament::standing> standings, const json& req);
// To each paired player: where to play (they are already seated there) and against whom.
json tournament_pairing_event(const model::tournament_record& t, int round, const std::string& room,
                              const std::string& opponent, int game_number, bool you_start);
// To each player with a game (or a bye: no opponent) in a round that waits for its start time:
// whom they play, and when.
json tournament_round_event(const model::tournament_record& t, const model::tournament_round& round, const std::string* opponent);

// {"rounds","games_per_pairing","rules","clock","max_players","start_at_ms","round_pause_seconds"}
json tournament_settings_json(const model::tournament_settings& s);

} // namespace quarto::protocol
