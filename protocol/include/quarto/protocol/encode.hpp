// Typed values -> the JSON text the server sends. Every message and every field has one
// encoder, written straight to text with json_writer (fields.hpp holds the field writers that
// several messages share). Room messages carry their "room" and "seq" (an event_stamp); the
// room serializes each event once for all its recipients.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "quarto/core/game.hpp"
#include "quarto/model/player.hpp"
#include "quarto/model/room.hpp"
#include "quarto/protocol/error_code.hpp"
#include "quarto/protocol/json_text.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::protocol {

using json = nlohmann::json;

// Where an event belongs: its room, and its place in that room's sequence.
struct event_stamp {
    std::string_view room;
    std::uint64_t seq;
};

// What a room shows of itself; filled by the server from the room's state.
struct room_view {
    const model::room_id& id;
    std::uint64_t seq;
    const std::string& name;
    const rules& game_rules;
    const clock_settings& clock;
    model::room_status status;
    const std::array<std::optional<model::seat_info>, 2>& seats;
    int spectators;
    const game* current; // the game in progress or the last one; null before the first
    instant now;
    std::string_view game_id;    // the archive id of `current` (shown once it has finished)
    std::string_view tournament; // the tournament whose game this room holds; empty if none
    const model::room_score* score = nullptr; // shown when given (the snapshot)
    bool rated = false;                        // its games change the players' ratings
};

// JSON values of the settings and results, for documents built with nlohmann::json (the
// archive's game document, tournaments). They are parsed from the same writers the messages
// use, so a field is encoded one way everywhere.
json encode_rules(const rules& r);
json encode_clock_settings(const clock_settings& c);
json encode_result(const game_result& r);
json encode_moves(std::span<const move_record> moves);

// What a hello with a token resumes: the rooms and tournaments whose snapshots follow the
// welcome, then resumed_all.
struct resume_list {
    std::span<const model::room_id> rooms;
    std::span<const std::string> tournaments;
};

// An account's rating in one pool, as welcome and GET /api/players show it: rating and
// deviation unrounded.
struct pool_rating {
    std::string_view pool; // "standard", "advanced"
    double rating = 0;
    double deviation = 0;
    double volatility = 0;
    int games = 0;
    bool provisional = true;
};
// {"rating","rd","volatility","provisional","games"}
void write_pool_rating(json_text& t, const pool_rating& r);

// Direct replies. `req` is echoed when it is not null.
// `resuming`: given after a hello with a token (the lists, empty ones too), null after one with
// a name. `account`: an account's ratings by pool (null for a guest: "account": false). An
// empty `token` is left out: an account's identity is its session, which welcome never shows.
std::string welcome(const model::player_info& p, const std::string& token, const json& req,
                    const resume_list* resuming = nullptr, std::span<const pool_rating> const* account = nullptr);
// After the welcome of a hello with a token, once every snapshot of the resume has been sent.
std::string resumed_all();
std::string pong(std::int64_t server_epoch_ms, const json& req);
// The answer to rename: the player's id and new name (as welcome names them).
std::string renamed(const model::player_info& p, const json& req);
std::string error_reply(error_code code, std::string_view message, const json& req);
std::string room_created(const model::room_id& id, const json& req);
// `summaries`: room_summary texts, one page of the `total` public rooms from `offset` on.
std::string rooms_list(std::span<const std::string> summaries, std::size_t total, std::size_t offset, const json& req);
std::string synced(const model::room_id& id, std::uint64_t seq, const json& req);
std::string room_closed(const model::room_id& id);

// A room as listed in the lobby (one element of `rooms`).
std::string room_summary(const room_view& room, bool is_private);
// The full snapshot, as seen from `you` (null for a spectator).
std::string room_snapshot(const room_view& room, std::optional<seat> you, const json& req);

// Membership events, stamped.
std::string joined_event(const event_stamp& stamp, const model::player_info& p, bool as_spectator, std::optional<seat> at);
std::string left_event(const event_stamp& stamp, const model::player_info& p, bool as_spectator, std::optional<seat> from);
// disconnected / reconnected
// `claim_victory_in_ms`: for a player gone from a game in progress (see seat_info).
std::string connection_event(const event_stamp& stamp, const model::player_info& p, bool connected,
                             std::optional<std::int64_t> claim_victory_in_ms = std::nullopt);
// A player in the room (seated at `at`, or watching) took a new name.
std::string player_renamed_event(const event_stamp& stamp, const model::player_info& p, std::optional<seat> at);

} // namespace quarto::protocol
