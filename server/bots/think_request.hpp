// What a room asks of the computer: choose a move for this position, within this time. A
// value (a copy of the position, never the room's game), so that it can cross to a thinking
// thread while the room goes on.
#pragma once

#include <chrono>
#include <cstdint>

#include "quarto/core/rules.hpp"
#include "quarto/core/solver/position.hpp"

namespace quarto::server::bots {

struct think_request {
    int level = 1;
    rules game_rules;
    solver::position position;
    // Thinking stops this long after it starts (or after it was asked for, if it waited in
    // the queue): the room keeps its bot inside the move clock.
    std::chrono::milliseconds budget{1000};
    std::uint64_t seed = 0; // the bot's randomness, drawn by the room
};

} // namespace quarto::server::bots
