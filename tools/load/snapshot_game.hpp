// The game of a room snapshot (PROTOCOL.md section 10, `game`) as the bots need it to pick up a
// game after a reconnection: who gave first and the accepted moves in order. Read with a JSON
// DOM: snapshots come once per reconnection, never on the path of a move.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "quarto/core/game.hpp"

namespace quarto::load {

struct snapshot_move {
    enum class kind : std::uint8_t { give, place, pass, end }; // end: a call or a resignation
    kind type = kind::give;
    seat by = 0;
    std::uint8_t value = 0; // the piece given, or the square placed on
};

struct snapshot_game {
    std::optional<seat> first; // none before the room's first game
    std::vector<snapshot_move> moves;
};

// nullopt when `game_json` is not a snapshot's game object.
std::optional<snapshot_game> read_snapshot_game(std::string_view game_json);

} // namespace quarto::load
