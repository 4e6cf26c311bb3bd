// What the transport's tests share: readable codec values and string_views in failure messages,
// and client frames built by hand (masked, as a browser sends them) independently of ws_codec.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "frame/ws_codec.hpp"

namespace quarto::server::net::test {

inline const char* name(header_status s)
{
    switch (s) {
    case header_status::incomplete: return "incomplete";
    case header_status::complete: return "complete";
    case header_status::invalid: return "invalid";
    }
    return "?";
}

inline const char* name(opcode op)
{
    switch (op) {
    case opcode::continuation: return "continuation";
    case opcode::text: return "text";
    case opcode::binary: return "binary";
    case opcode::close: return "close";
    case opcode::ping: return "ping";
    case opcode::pong: return "pong";
    }
    return "?";
}

inline constexpr std::array<std::uint8_t, 4> default_key{0x37, 0xFA, 0x21, 0x3D};

// The header of a frame as a client writes it, with the shortest length form unless
// `length_form` forces one (0: shortest, 7, 16 or 64).
inline std::string client_header(std::uint8_t first_byte, std::uint64_t length, bool masked = true,
                                 std::array<std::uint8_t, 4> key = default_key, int length_form = 0)
{
    if (length_form == 0) length_form = length < 126 ? 7 : length <= 0xFFFF ? 16 : 64;
    std::string h;
    h += static_cast<char>(first_byte);
    const auto mask_bit = static_cast<std::uint8_t>(masked ? 0x80 : 0);
    if (length_form == 7) {
        h += static_cast<char>(mask_bit | static_cast<std::uint8_t>(length));
    } else if (length_form == 16) {
        h += static_cast<char>(mask_bit | 126);
        h += static_cast<char>((length >> 8) & 0xFF);
        h += static_cast<char>(length & 0xFF);
    } else {
        h += static_cast<char>(mask_bit | 127);
        for (int shift = 56; shift >= 0; shift -= 8) h += static_cast<char>((length >> shift) & 0xFF);
    }
    if (masked)
        for (auto b : key) h += static_cast<char>(b);
    return h;
}

// A whole client frame: `first_byte` is FIN | opcode (0x81 a final text frame).
inline std::string client_frame(std::uint8_t first_byte, std::string_view payload, bool masked = true,
                                std::array<std::uint8_t, 4> key = default_key)
{
    std::string f = client_header(first_byte, payload.size(), masked, key);
    for (std::size_t i = 0; i < payload.size(); ++i)
        f += static_cast<char>(static_cast<std::uint8_t>(payload[i]) ^ (masked ? key[i % 4] : 0));
    return f;
}

inline std::string close_payload(std::uint16_t code, std::string_view reason = {})
{
    std::string p;
    p += static_cast<char>(code >> 8);
    p += static_cast<char>(code & 0xFF);
    p += reason;
    return p;
}

} // namespace quarto::server::net::test

// doctest 2.4 prints what it has no StringMaker for as "{?}": string views (frame::header(),
// frame::payload()), containers, optionals, time points. Every file of this target includes
// this header, so each type has one printer.
template <>
struct doctest::StringMaker<std::string_view> {
    static String convert(std::string_view s) { return String{s.data(), static_cast<String::size_type>(s.size())}; }
};
template <class T>
struct doctest::StringMaker<std::vector<T>> {
    static String convert(const std::vector<T>& v)
    {
        String out = "{";
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i > 0) out += ", ";
            if constexpr (std::is_same_v<T, std::string>) out += ("\"" + v[i] + "\"").c_str();
            else out += toString(v[i]);
        }
        return out + "}";
    }
};
template <class T>
struct doctest::StringMaker<std::optional<T>> {
    static String convert(const std::optional<T>& o) { return o ? toString(*o) : String{"nullopt"}; }
};
template <std::size_t N>
struct doctest::StringMaker<std::array<std::uint8_t, N>> {
    static String convert(const std::array<std::uint8_t, N>& a)
    {
        std::string out;
        for (const auto b : a) {
            static constexpr char digits[] = "0123456789abcdef";
            out += digits[b >> 4];
            out += digits[b & 0xF];
        }
        return out.c_str();
    }
};
template <>
struct doctest::StringMaker<std::chrono::steady_clock::time_point> {
    static String convert(std::chrono::steady_clock::time_point t)
    {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
        return (std::to_string(ms) + " ms").c_str();
    }
};
template <>
struct doctest::StringMaker<quarto::server::net::header_status> {
    static String convert(quarto::server::net::header_status s) { return quarto::server::net::test::name(s); }
};
template <>
struct doctest::StringMaker<quarto::server::net::opcode> {
    static String convert(quarto::server::net::opcode op) { return quarto::server::net::test::name(op); }
};
