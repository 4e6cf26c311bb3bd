// Client messages of protocol v1 as typed values. Parsing (parse.hpp) guarantees every
// field is present, of the right type and in range, so the server never re-checks them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "quarto/core/game.hpp"
#include "quarto/protocol/tournament.hpp"

namespace quarto::protocol {

using room_id = std::string;

inline constexpr int protocol_version = 1;
inline constexpr std::size_t max_name_length = 32; // in bytes of UTF-8

struct hello {
    std::optional<std::string> name;  // a new guest
    std::optional<std::string> token; // resume a known player
};
struct ping {};
struct list_rooms {};
struct create_room {
    std::string name; // may be empty: the server names it
    rules game_rules;
    clock_settings clock;
    bool is_private = false;
};
struct join {
    room_id room;
    bool as_spectator = false;
};
struct leave {
    room_id room;
};
struct sync {
    room_id room;
    std::uint64_t since = 0;
};
struct give {
    room_id room;
    piece what{0};
};
struct place {
    room_id room;
    square where = 0;
};
struct call_quarto {
    room_id room;
    square_mask line = 0;
};
struct pass {
    room_id room;
};
struct resign {
    room_id room;
};
struct rematch {
    room_id room;
};

// Tournaments.
struct create_tournament {
    tournament_settings settings;
};
struct list_tournaments {};
struct join_tournament {
    tournament_id tournament;
};
struct withdraw_tournament {
    tournament_id tournament;
};
struct start_tournament {
    tournament_id tournament;
};
struct pause_tournament {
    tournament_id tournament;
};
struct resume_tournament {
    tournament_id tournament;
};
struct remove_player {
    tournament_id tournament;
    std::string player;
};
struct watch_tournament {
    tournament_id tournament;
};
struct unwatch_tournament {
    tournament_id tournament;
};

using client_message =
    std::variant<hello, ping, list_rooms, create_room, join, leave, sync, give, place, call_quarto, pass, resign,
                 rematch, create_tournament, list_tournaments, join_tournament, withdraw_tournament,
                 start_tournament, pause_tournament, resume_tournament, remove_player, watch_tournament,
                 unwatch_tournament>;

// The messages about a tournament (all but create_tournament and list_tournaments name one).
template <class Message>
concept tournament_message =
    std::is_same_v<Message, join_tournament> || std::is_same_v<Message, withdraw_tournament> ||
    std::is_same_v<Message, start_tournament> || std::is_same_v<Message, pause_tournament> ||
    std::is_same_v<Message, resume_tournament> || std::is_same_v<Message, remove_player> ||
    std::is_same_v<Message, watch_tournament> || std::is_same_v<Message, unwatch_tournament>;

// Bounds accepted for clock settings, in milliseconds.
inline constexpr std::int64_t min_move_ms = 100, max_move_ms = 3'600'000;
inline constexpr std::int64_t min_claim_ms = 100, max_claim_ms = 600'000;

} // namespace quarto::protocol
