// The events of a game (game_started, given, placed, passed, game_over, rematch_requested,
// resumed),
// appended to a caller's string with their "room" and "seq": the server writes them on every
// move into a buffer it reuses, so no allocation is needed per event. Their fields are those
// PROTOCOL.md gives these events; "clock", "claim", "line" and the result members come from
// the same field writers as the room snapshot's.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"

namespace quarto::protocol {

void game_started_event(std::string& out, const event_stamp& stamp, const game& g,
                        const std::array<model::player_info, 2>& players, instant now);
void given_event(std::string& out, const event_stamp& stamp, const game& g, seat by, piece p, instant now);
void placed_event(std::string& out, const event_stamp& stamp, const game& g, seat by, square s, piece p, instant now);
void passed_event(std::string& out, const event_stamp& stamp, const game& g, seat by, instant now);
// A seat's rating change in a rated game, in whole points: {"seat","before","after","rd","provisional"}.
struct rating_change {
    int before = 0;
    int after = 0;
    int deviation = 0; // after the game
    bool provisional = true;
};

// `game_id`: the id under which the archive keeps this game (GET /api/games/{id}).
// `score`, when given: the room's running score, this game counted. `ratings`, for a rated
// game: both seats' changes.
void game_over_event(std::string& out, const event_stamp& stamp, const game& g, std::string_view game_id, instant now,
                     const model::room_score* score = nullptr, const std::array<rating_change, 2>* ratings = nullptr);
void rematch_requested_event(std::string& out, const event_stamp& stamp, seat by);
// A room restored after a restart: its status, and the clocks and claim window as they now
// stand (`g`: the room's game, null before its first).
void resumed_event(std::string& out, const event_stamp& stamp, model::room_status status, const game* g, instant now);

} // namespace quarto::protocol
