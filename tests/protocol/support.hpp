// Helpers shared by the protocol tests: parse a frame and insist on success or on a given
// error, and read error codes as their wire names so failures print readably.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include <doctest/doctest.h>

#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/parse.hpp"

namespace protocol_tests {

using json = nlohmann::json;
using quarto::protocol::parse_client_message;
using quarto::protocol::parse_error;
using quarto::protocol::parsed_message;

inline std::string wire_name(quarto::protocol::error_code code)
{
    return std::string{quarto::protocol::to_string(code)};
}

// The frame must parse; returns the whole result (message and req).
inline parsed_message parse_ok(std::string_view text)
{
    auto result = parse_client_message(text);
    if (const auto* e = std::get_if<parse_error>(&result))
        FAIL_CHECK("refused with " << wire_name(e->code) << " (" << e->message << "): " << std::string{text});
    REQUIRE(std::holds_alternative<parsed_message>(result));
    return std::get<parsed_message>(std::move(result));
}

// The frame must parse as a message of type T.
template <class T>
T parse_as(std::string_view text)
{
    const parsed_message parsed = parse_ok(text);
    INFO("frame: " << std::string{text});
    REQUIRE(std::holds_alternative<T>(parsed.message));
    return std::get<T>(parsed.message);
}

// The frame must be refused; returns the error.
inline parse_error parse_refused(std::string_view text)
{
    auto result = parse_client_message(text);
    INFO("frame: " << std::string{text});
    REQUIRE(std::holds_alternative<parse_error>(result));
    const parse_error& e = std::get<parse_error>(result);
    CHECK_FALSE(e.message.empty());
    return e;
}

// The frame must be refused with `code` (by wire name).
inline void check_refused(std::string_view text, std::string_view code)
{
    const parse_error e = parse_refused(text);
    INFO("frame: " << std::string{text} << " -> " << e.message);
    CHECK(wire_name(e.code) == std::string{code});
}

inline void check_bad_message(std::string_view text) { check_refused(text, "bad_message"); }

} // namespace protocol_tests
