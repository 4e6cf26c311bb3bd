// Text frame -> typed client message, with full validation. Unknown fields are ignored.
#pragma once

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
};

struct parsed_message {
    client_message message;
    nlohmann::json req; // the client's "req" (string or number), or null
};

std::variant<parsed_message, parse_error> parse_client_message(std::string_view text);

} // namespace quarto::protocol
