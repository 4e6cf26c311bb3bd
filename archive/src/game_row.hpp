// A games row as both engines store it (the columns of `game_columns`, in order), apart from
// either engine's way of binding and reading values: a record becomes a row to write, and a
// row read back becomes a record again, or nothing when it holds what this server cannot read.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarto/archive/game_record.hpp"

namespace quarto::archive::detail {

inline constexpr const char* game_columns =
    "id, room, room_name, player0_id, player0_name, player1_id, player1_name, squares, attributes, "
    "false_claim, move_ms, claim_ms, first_seat, winner, reason, line, started_ms, ended_ms, moves";
inline constexpr int game_column_count = 19;

// A games query reads the game's ratings with it: `games` joined with rating_joins, selecting
// game_columns and then these (all NULL for a casual game): the pool, then for seat 0 and then
// seat 1 the rating before and after the game, each as rating, deviation, volatility, games,
// last_game_ms.
inline constexpr const char* rating_columns =
    "r0.pool, "
    "r0.before_rating, r0.before_deviation, r0.before_volatility, r0.before_games, r0.before_last_game_ms, "
    "r0.after_rating, r0.after_deviation, r0.after_volatility, r0.after_games, r0.after_last_game_ms, "
    "r1.before_rating, r1.before_deviation, r1.before_volatility, r1.before_games, r1.before_last_game_ms, "
    "r1.after_rating, r1.after_deviation, r1.after_volatility, r1.after_games, r1.after_last_game_ms";
inline constexpr const char* rating_joins =
    " LEFT JOIN rating_changes r0 ON r0.game_id = games.id AND r0.seat = 0"
    " LEFT JOIN rating_changes r1 ON r1.game_id = games.id AND r1.seat = 1";

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
    // The game's ratings (rating_columns): none for a casual game, else the pool's stored name
    // and each seat's change, whose pools record_of fills in from it.
    std::optional<std::string> rating_pool;
    std::array<seat_rating_change, 2> rating_seats{};
};

// Reads rating_columns from a row into `row`, through the engine's readers of a column by
// index: is_null(i), text(i), real(i) and integer(i).
template <class Row>
void read_rating_columns(game_row& row, const Row& r)
{
    int c = game_column_count;
    if (r.is_null(c)) return;
    row.rating_pool = r.text(c++);
    for (seat_rating_change& seat : row.rating_seats) {
        for (stored_rating* side : {&seat.before, &seat.after}) {
            side->rating = r.real(c++);
            side->deviation = r.real(c++);
            side->volatility = r.real(c++);
            side->games = static_cast<int>(r.integer(c++));
            side->last_game_ms = r.integer(c++);
        }
    }
}

game_row row_of(const game_record& r);
// Logs what it cannot read, naming the store by `where`.
std::optional<game_record> record_of(game_row row, std::string_view where);

} // namespace quarto::archive::detail
