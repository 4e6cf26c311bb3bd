// The fields several server messages share, each written by one function: the room snapshot,
// the lobby line and the game's events all write "clock", "rules" or a line through these.
// Each writes a value (or, for the result, members) at a json_text's cursor; json_writer takes
// them through value_with().
#pragma once

#include <span>

#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/json_text.hpp"

namespace quarto::protocol::fields {

// {"squares","attributes","false_claim"}
void write_rules(json_text& t, const rules& r);
// {"move_ms","claim_ms"}; move_ms null when untimed.
void write_clock_settings(json_text& t, const clock_settings& c);
// {"remaining_ms":[A,B],"running":SEAT|null}; remaining entries are null when untimed.
void write_clock(json_text& t, const game& g, instant now);
// {"seat","remaining_ms"} while a claim window is open at `now`, else null.
void write_claim(json_text& t, const game& g, instant now);
// [s0,s1,s2,s3], ascending.
void write_line(json_text& t, square_mask line);
// The members "result","winner","reason" and (when a pattern was called) "line", without
// braces or a leading comma.
void write_result_members(json_text& t, const game_result& r);
// [{"type","seat","t_ms",...}, ...]
void write_moves(json_text& t, std::span<const move_record> moves);
// {"id","name"}
void write_player(json_text& t, const model::player_info& p);
// {"wins":[A,B],"draws":N}
void write_score(json_text& t, const model::room_score& s);

} // namespace quarto::protocol::fields
