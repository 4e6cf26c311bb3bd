// A game's moves as the archive stores them in one column (games.moves, schema version 2): a
// JSON array with one compact array per accepted action,
//   [["give",0,3,0,120],["place",1,5,0,900],...,["call",1,0,15,4210]]
// i.e. [kind, seat, value, line, t_ms] with kind as core names it. One text per game keeps a
// save to one row insert, and the sqlite3 shell can still read it (json_each, ->>).
// The format belongs to the schema version: changing it takes a new migration step.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quarto/core/game.hpp"

namespace quarto::archive {

// The text of `moves`, without whitespace.
std::string moves_to_text(std::span<const move_record> moves);

// The moves `text` holds, or nullopt when it is not that format: not a JSON array of
// [kind, seat, value, line, t_ms] arrays, an unknown kind, or a number out of its range (seat 0-1,
// value 0-15, line 0-65535, t_ms 0-4294967295, all plain non-negative integers). JSON
// whitespace between tokens is accepted; string escapes are not (no kind needs one).
std::optional<std::vector<move_record>> moves_from_text(std::string_view text);

} // namespace quarto::archive
