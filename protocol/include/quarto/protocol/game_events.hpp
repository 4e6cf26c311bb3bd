// The events of a game (game_started, given, placed, passed, game_over, rematch_requested),
// written straight to text with their "room" and "seq": the server sends them to everyone in
// the room on every move, so they skip the nlohmann::json document the other messages are
// built as (see json_writer.hpp). Their fields are those PROTOCOL.md gives these events, with
// "clock" and "claim" as encode_clock and encode_claim write them, and the result fields of
// game_over as encode_result writes them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"

namespace quarto::protocol {

// Where an event belongs: its room, and its place in that room's sequence.
struct event_stamp {
    std::string_view room;
    std::uint64_t seq;
};

std::string game_started_event(const event_stamp& stamp, const game& g, const std::array<player_info, 2>& players,
                               instant now);
std::string given_event(const event_stamp& stamp, const game& g, seat by, piece p, instant now);
std::string placed_event(const event_stamp& stamp, const game& g, seat by, square s, piece p, instant now);
std::string passed_event(const event_stamp& stamp, const game& g, seat by, instant now);
// `game_id`: the id under which the archive keeps this game (GET /api/games/{id}).
std::string game_over_event(const event_stamp& stamp, const game& g, std::string_view game_id, instant now);
std::string rematch_requested_event(const event_stamp& stamp, seat by);

} // namespace quarto::protocol
