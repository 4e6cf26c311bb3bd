// The fields several server messages share, each written by one function: a room snapshot,
// a lobby summary and the game's events all write "clock", "rules" or a line through these.
#pragma once

#include <span>

#include <nlohmann/json.hpp>

#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/json_writer.hpp"

namespace quarto::protocol::fields {

// {"squares","attributes","false_claim"}
void write_rules(json_writer& w, const rules& r);
// {"move_ms","claim_ms"}; move_ms null when untimed.
void write_clock_settings(json_writer& w, const clock_settings& c);
// {"remaining_ms":[A,B],"running":SEAT|null}; remaining entries are null when untimed.
void write_clock(json_writer& w, const game& g, instant now);
// {"seat","remaining_ms"} while a claim window is open at `now`, else null.
void write_claim(json_writer& w, const game& g, instant now);
// [s0,s1,s2,s3], ascending.
void write_line(json_writer& w, square_mask line);
// The members "result","winner","reason" and (when a pattern was called) "line", written into
// the object being written.
void write_result_members(json_writer& w, const game_result& r);
// [{"type","seat","t_ms",...}, ...]
void write_moves(json_writer& w, std::span<const move_record> moves);
// {"id","name"}
void write_player(json_writer& w, const player_info& p);
// "req": the client's value, when it gave one.
void write_req(json_writer& w, const nlohmann::json& req);

} // namespace quarto::protocol::fields
