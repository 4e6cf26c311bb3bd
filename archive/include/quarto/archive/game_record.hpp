// One finished game as the archive keeps it: who played, under which rules and clock, who won
// the coin flip, every accepted action with its time, how it ended, and when (wall clock).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "quarto/archive/accounts.hpp"
#include "quarto/core/game.hpp"
#include "quarto/model/player.hpp"

namespace quarto::archive {

struct game_record {
    std::string id;        // stable, unique across the archive (the room's game_over carries it)
    std::string room;      // the room it was played in (rooms ids are reused across restarts)
    std::string room_name;
    std::array<model::player_info, 2> players; // by seat
    rules game_rules;
    clock_settings clock;
    seat first = 0; // won the coin flip and gave first
    game_result result{std::nullopt, end_reason::board_full, 0};
    std::vector<move_record> moves; // core's log: at_ms since the game started
    std::int64_t started_ms = 0;    // wall clock, milliseconds since the Unix epoch
    std::int64_t ended_ms = 0;
    // A rated game's ratings (none: a casual game). Storing the game applies them (store.hpp).
    std::optional<game_ratings> ratings;

    friend bool operator==(const game_record&, const game_record&) = default;
};

// Where a finished game was played; the rest comes from the game itself.
struct game_origin {
    std::string id;
    std::string room;
    std::string room_name;
    std::array<model::player_info, 2> players;
    std::int64_t started_ms = 0;
    std::int64_t ended_ms = 0;
};

// Precondition: g.finished().
game_record make_game_record(game_origin origin, const game& g);

} // namespace quarto::archive
