// Archived games as the HTTP API serves them (protocol/PROTOCOL.md, section 15). Rules, clock
// settings, results and moves are encoded by the protocol's own encoders, so they read exactly
// as they do over the WebSocket.
#pragma once

#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

#include "quarto/archive/game_record.hpp"

namespace quarto::archive {

// GET /api/games/{id}: the whole record.
nlohmann::json game_json(const game_record& r);
// One entry of GET /api/games?player=NAME: the record without its moves, with "move_count".
nlohmann::json game_summary_json(const game_record& r);
// The answer to GET /api/games?player=NAME.
nlohmann::json games_list_json(std::string_view player, std::span<const game_record> games);

} // namespace quarto::archive
