// A games row as both engines store it (the columns of `game_columns`, in order), apart from
// either engine's way of binding and reading values: a record becomes a row to write, and a
// row read back becomes a record again, or nothing when it holds what this server cannot read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarto/archive/game_record.hpp"

namespace quarto::archive::detail {

inline constexpr const char* game_columns =
    "id, room, room_name, player0_id, player0_name, player1_id, player1_name, squares, attributes, "
    "false_claim, move_ms, claim_ms, first_seat, winner, reason, line, started_ms, ended_ms, moves";

struct game_row {
    std::string id, room, room_name;
    std::string player0_id, player0_name, player1_id, player1_name;
    bool squares = false;
    std::int64_t attributes = 0;
    std::string false_claim; // "reject" or "lose"
    std::optional<std::int64_t> move_ms;
    std::int64_t claim_ms = 0;
    std::int64_t first_seat = 0;
    std::optional<std::int64_t> winner;
    std::string reason; // as core spells it, so that the rows read well in a database shell
    std::int64_t line = 0;
    std::int64_t started_ms = 0;
    std::int64_t ended_ms = 0;
    std::string moves; // move_text.hpp
};

game_row row_of(const game_record& r);
// Logs what it cannot read, naming the store by `where`.
std::optional<game_record> record_of(game_row row, std::string_view where);

} // namespace quarto::archive::detail
