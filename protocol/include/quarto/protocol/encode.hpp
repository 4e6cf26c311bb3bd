// Typed values -> the JSON the server sends. Membership events are built here without "room" and
// "seq"; the room stamps those and serializes each event once for all its recipients.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "quarto/core/game.hpp"
#include "quarto/protocol/error_code.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::protocol {

using json = nlohmann::json;

enum class room_status : std::uint8_t { waiting, playing, finished };
std::string_view to_string(room_status s);

struct player_info {
    std::string id;
    std::string name;
    friend bool operator==(const player_info&, const player_info&) = default;
};

struct seat_info {
    player_info player;
    bool connected = true;
};

// What a room shows of itself; filled by the server on the room's strand.
struct room_view {
    const room_id& id;
    std::uint64_t seq;
    const std::string& name;
    const rules& game_rules;
    const clock_settings& clock;
    room_status status;
    const std::array<std::optional<seat_info>, 2>& seats;
    int spectators;
    const game* current; // the game in progress or the last one; null before the first
    instant now;
    std::string_view game_id; // the archive id of `current` (shown once it has finished)
    std::string_view tournament; // the tournament whose game this room holds; empty if none
};

json encode_rules(const rules& r);
json encode_clock_settings(const clock_settings& c);
json encode_line(square_mask line);
// {"remaining_ms":[A,B],"running":SEAT|null}; remaining entries are null when untimed.
json encode_clock(const game& g, instant now);
// {"seat","remaining_ms"} while a claim window is open at `now`, else null.
json encode_claim(const game& g, instant now);
json encode_result(const game_result& r);
json encode_moves(const game& g);
json encode_moves(std::span<const move_record> moves);

// Direct replies.
json welcome(const player_info& p, const std::string& token, const json& req);
json pong(std::int64_t server_epoch_ms, const json& req);
json error_reply(error_code code, std::string_view message, const json& req);
json room_created(const room_id& id, const json& req);
json rooms_list(std::span<const json> summaries, const json& req);
json synced(const room_id& id, std::uint64_t seq, const json& req);
json room_closed(const room_id& id);

// A room as listed in the lobby.
json room_summary(const room_view& room, bool is_private);
// The full snapshot, as seen from `you` (null for a spectator).
json room_snapshot(const room_view& room, std::optional<seat> you, const json& req);

// Membership events (the room adds "room" and "seq").
// The events of the game itself (started, moves, over, rematch) are in game_events.hpp.
json joined_event(const player_info& p, bool as_spectator, std::optional<seat> at);
json left_event(const player_info& p, bool as_spectator, std::optional<seat> from);
json connection_event(const player_info& p, bool connected); // disconnected / reconnected

} // namespace quarto::protocol
