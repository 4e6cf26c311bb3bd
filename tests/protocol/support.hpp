// Helpers shared by the protocol tests: parse a frame and insist on success or on a given
// error, and read error codes as their wire names so failures print readably.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include <doctest/doctest.h>

#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/parse.hpp"
#include "quarto/protocol/request_id.hpp"

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

// The message of type T inside a client message, whatever its category (a room's or a
// tournament's action included); null when it is another type.
template <class T, class Variant>
struct is_alternative : std::false_type {};
template <class T, class... Ts>
struct is_alternative<T, std::variant<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};

template <class T, class Variant>
const T* find_in(const Variant& v)
{
    if constexpr (is_alternative<T, Variant>::value) return std::get_if<T>(&v);
    else return nullptr;
}

template <class T>
const T* find_message(const quarto::protocol::client_message& m)
{
    using namespace quarto::protocol;
    if (const auto* s = std::get_if<session_message>(&m)) return find_in<T>(*s);
    if (const auto* l = std::get_if<lobby_message>(&m)) return find_in<T>(*l);
    if (const auto* r = std::get_if<room_message>(&m)) return find_in<T>(r->action);
    if (const auto* t = std::get_if<tournament_message>(&m)) return find_in<T>(t->action);
    return nullptr;
}

template <class T>
bool holds(const quarto::protocol::client_message& m)
{
    return find_message<T>(m) != nullptr;
}

// A parsed message of type T, with the room or tournament its category names (empty if none).
template <class T>
struct parsed_as : T {
    std::string room;
    std::string tournament;
};

// The frame must parse as a message of type T.
template <class T>
parsed_as<T> parse_as(std::string_view text)
{
    const parsed_message parsed = parse_ok(text);
    INFO("frame: " << std::string{text});
    const T* found = find_message<T>(parsed.message);
    REQUIRE(found != nullptr);
    parsed_as<T> out{*found, {}, {}};
    if (const auto* r = std::get_if<quarto::protocol::room_message>(&parsed.message)) out.room = r->room;
    if (const auto* t = std::get_if<quarto::protocol::tournament_message>(&parsed.message)) out.tournament = t->tournament;
    return out;
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
