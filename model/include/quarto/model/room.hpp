// A room's parts as values: its id, where it stands, its seats and the score between the two
// players seated in it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarto/model/player.hpp"

namespace quarto::model {

using room_id = std::string;

enum class room_status : std::uint8_t { waiting, playing, finished };
// "waiting", "playing", "finished": the wire's names, and the metrics' labels.
std::string_view to_string(room_status s);

struct seat_info {
    player_info player;
    bool connected = true;
    // A player away from a game in progress: in how many ms the opponent may claim the win.
    std::optional<std::int64_t> claim_victory_in_ms;
};

// The games the two seated players have finished in this room since they sat down together.
struct room_score {
    std::array<int, 2> wins{};
    int draws = 0;
    friend bool operator==(const room_score&, const room_score&) = default;
};

} // namespace quarto::model
