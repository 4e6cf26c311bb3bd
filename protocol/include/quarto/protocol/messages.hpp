// Client messages of protocol v1 as typed values. Parsing (parse.hpp) guarantees every
// field is present, of the right type and in range, so the server never re-checks them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "quarto/core/game.hpp"

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

using client_message = std::variant<hello, ping, list_rooms, create_room, join, leave, sync, give,
                                    place, call_quarto, pass, resign, rematch>;

// Bounds accepted for clock settings, in milliseconds.
inline constexpr std::int64_t min_move_ms = 100, max_move_ms = 3'600'000;
inline constexpr std::int64_t min_claim_ms = 100, max_claim_ms = 600'000;

} // namespace quarto::protocol
