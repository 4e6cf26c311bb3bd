// Client messages of protocol v1 as typed values. Parsing (parse.hpp) guarantees every
// field is present, of the right type and in range, so the server never re-checks them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "quarto/core/game.hpp"
#include "quarto/model/bot_opponent.hpp"
#include "quarto/model/room.hpp"
#include "quarto/model/tournament.hpp"

namespace quarto::protocol {

inline constexpr int protocol_version = 1;
inline constexpr std::size_t max_name_length = 32; // in bytes of UTF-8
// One page of a lobby list: whatever the number of rooms or tournaments, a reply stays far
// below 256 KB (a room's summary is at most ~600 bytes, a tournament's ~700).
inline constexpr int default_page_size = 100;
inline constexpr int max_page_size = 200;

// Client messages come in four categories, so that each part of the server sees only its own:
// the session (the connection itself), the lobby (creating and listing), a room (the game and
// its membership) and a tournament. A room and a tournament message name their room or
// tournament once, beside the action.

// The session.
struct hello {
    std::optional<std::string> name;  // a new guest
    std::optional<std::string> token; // resume a known player
    std::optional<std::string> session; // an account's session id (as its cookie holds it)
};
struct ping {};
// A new name for the player who said hello: same id, token, seats and places.
struct rename {
    std::string name;
};
using session_message = std::variant<hello, ping, rename>;

// The lobby.
// A page of the list: the entries from `offset` on (in the list's order), at most `limit`.
struct page_request {
    std::int64_t offset = 0;
    int limit = default_page_size;
};
struct list_rooms {
    page_request page;
};
struct create_room {
    std::string name; // may be empty: the server names it
    rules game_rules;
    clock_settings clock;
    bool is_private = false;
    std::optional<model::bot_opponent> opponent; // none: the other seat waits for a person
    bool rated = false; // its games change the players' ratings: accounts only, rated rules only
};
struct list_tournaments {
    page_request page;
};
struct create_tournament {
    model::tournament_settings settings;
};
using lobby_message = std::variant<list_rooms, create_room, list_tournaments, create_tournament>;

// A room: its membership (join, leave, sync) and the game (the rest).
struct join {
    bool as_spectator = false;
};
struct leave {};
struct sync {
    std::uint64_t since = 0;
};
struct give {
    piece what{0};
};
struct place {
    square where = 0;
};
struct call_quarto {
    square_mask line = 0;
};
struct pass {};
struct resign {};
struct rematch {};
// The opponent has been away long enough: the game is won (reason "abandoned").
struct claim_victory {};
using room_action = std::variant<join, leave, sync, give, place, call_quarto, pass, resign, rematch, claim_victory>;
struct room_message {
    model::room_id room;
    room_action action;
};

// A tournament.
struct join_tournament {};
struct withdraw_tournament {};
struct start_tournament {};
struct pause_tournament {};
struct resume_tournament {};
struct remove_player {
    std::string player;
};
struct watch_tournament {};
struct unwatch_tournament {};
// The director enters the computer (one per tournament).
struct add_bot {
    model::bot_opponent opponent;
};
using tournament_action = std::variant<join_tournament, withdraw_tournament, start_tournament, pause_tournament,
                                       resume_tournament, remove_player, watch_tournament, unwatch_tournament, add_bot>;
struct tournament_message {
    model::tournament_id tournament;
    tournament_action action;
};

using client_message = std::variant<session_message, lobby_message, room_message, tournament_message>;

// Bounds accepted for clock settings, in milliseconds.
inline constexpr std::int64_t min_move_ms = 100, max_move_ms = 3'600'000;
inline constexpr std::int64_t min_claim_ms = 100, max_claim_ms = 600'000;

} // namespace quarto::protocol
