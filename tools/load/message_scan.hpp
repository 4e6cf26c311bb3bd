// Reads the few fields the load generator needs from a server message without building a JSON
// DOM: one pass over the top-level object, nested values skipped. Key order does not matter
// (PROTOCOL.md section 1). String values are returned raw (escapes left in place): the fields
// read here (type, room, code, reason, token, status) never contain any.
#pragma once

#include <cstdint>
#include <string_view>

namespace quarto::load {

struct server_message {
    std::string_view type;
    std::string_view room;
    std::string_view code;   // error
    std::string_view reason; // game_over
    std::string_view token;  // welcome
    std::string_view status; // the room snapshot's
    std::string_view game;   // the room snapshot's "game" object, raw (read_snapshot_game)
    int seat = -1;           // given, placed, passed, rematch_requested; -1 when absent or null
    int piece = -1;          // given, placed
    int square = -1;         // placed
    int first = -1;          // game_started
    int you_seat = -1;       // the room snapshot's "you":{"seat":N}; -1 for a spectator (null)
    std::int64_t seq = -1;   // room events
    int req = -1;            // an error's, when the message it answers had a number
};

// False when `text` is not a JSON object this scanner can read.
bool scan_message(std::string_view text, server_message& out);

} // namespace quarto::load
