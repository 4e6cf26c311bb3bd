// The client messages the load generator sends (PROTOCOL.md sections 4-6), written straight
// into a string: no JSON library on the hot path.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "quarto/core/game.hpp"

namespace quarto::load {

std::string hello_message(std::string_view name);
// hello with the token a welcome gave: the player again, with their rooms (PROTOCOL.md section 4).
std::string resume_message(std::string_view token);
// A private room with the default rules and claim window, `move_ms` per move (nullopt: untimed).
std::string create_room_message(std::string_view name, std::optional<int> move_ms = std::nullopt);
std::string join_message(std::string_view room, bool as_spectator);
// give, place, quarto (with the 4 squares of `a.line`), pass or resign.
// With `req` > 0, the message carries it (an error in answer echoes it).
std::string action_message(std::string_view room, const action& a, int req = 0);
std::string rematch_message(std::string_view room);

} // namespace quarto::load
