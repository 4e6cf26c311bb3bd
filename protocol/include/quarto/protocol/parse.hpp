// Text frame -> typed client message, with full validation. Unknown fields are ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "quarto/protocol/error_code.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::protocol {

struct parse_error {
    error_code code;
    std::string message;
    nlohmann::json req; // echoed back when the message had a usable "req"; null otherwise
    std::string type;   // the message's "type" when it could be read, else empty
};

struct parsed_message {
    client_message message;
    nlohmann::json req; // the client's "req" (string or number), or null
};

std::variant<parsed_message, parse_error> parse_client_message(std::string_view text);

// The "rules" and "clock" objects of create_room and create_tournament, read on their own
// (the archive stores them in this form); nullopt when invalid.
std::optional<rules> read_rules(const nlohmann::json& value);
std::optional<clock_settings> read_clock_settings(const nlohmann::json& value, clock_settings defaults = {});

// A player's name by hello's rules (trimmed of spaces, 1..32 bytes, no control character), for
// the HTTP routes that take one; nullopt with `problem` said when it breaks them.
std::optional<std::string> read_player_name(const nlohmann::json& value, std::string& problem);

// Only the "req" of a message, for refusals that do not read the rest (rate limiting).
nlohmann::json request_id_of(std::string_view text);

} // namespace quarto::protocol
