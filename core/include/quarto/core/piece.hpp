// Pieces and their four attributes. A piece is a 4-bit code: bit 1 dark, bit 2 tall,
// bit 4 square, bit 8 hollow; a clear bit is the opposite (light, short, round, solid).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace quarto {

enum class attribute : std::uint8_t { color = 1, height = 2, shape = 4, fill = 8 };

inline constexpr std::array<attribute, 4> all_attributes{attribute::color, attribute::height,
                                                         attribute::shape, attribute::fill};

// A subset of the four attributes. The beginner variant counts only some of them.
class attribute_set {
public:
    constexpr attribute_set() = default;
    static constexpr attribute_set all() { return attribute_set{0xF}; }
    static constexpr std::optional<attribute_set> from_bits(unsigned bits)
    {
        if (bits > 0xF) return std::nullopt;
        return attribute_set{static_cast<std::uint8_t>(bits)};
    }

    constexpr attribute_set with(attribute a) const
    {
        return attribute_set{static_cast<std::uint8_t>(bits_ | static_cast<std::uint8_t>(a))};
    }
    constexpr bool contains(attribute a) const { return (bits_ & static_cast<std::uint8_t>(a)) != 0; }
    constexpr bool empty() const { return bits_ == 0; }
    constexpr std::uint8_t bits() const { return bits_; }
    friend constexpr bool operator==(attribute_set, attribute_set) = default;

private:
    constexpr explicit attribute_set(std::uint8_t bits) : bits_{bits} {}
    std::uint8_t bits_ = 0;
};

class piece {
public:
    static constexpr int count = 16;

    static constexpr std::optional<piece> from_code(int code)
    {
        if (code < 0 || code >= count) return std::nullopt;
        return piece{static_cast<std::uint8_t>(code)};
    }
    // Precondition: code < 16 (use from_code for untrusted input).
    constexpr explicit piece(std::uint8_t code) : code_{static_cast<std::uint8_t>(code & 0xF)} {}

    constexpr std::uint8_t code() const { return code_; }
    // True for the "set bit" value: dark, tall, square, hollow.
    constexpr bool has(attribute a) const { return (code_ & static_cast<std::uint8_t>(a)) != 0; }
    friend constexpr bool operator==(piece, piece) = default;

private:
    std::uint8_t code_;
};

// The set of pieces not yet given, one bit per piece code.
using piece_set = std::uint16_t;
inline constexpr piece_set all_pieces = 0xFFFF;
constexpr piece_set bit(piece p) { return static_cast<piece_set>(1u << p.code()); }

// "dark tall square hollow": the words a player (or a screen reader) uses.
std::string describe(piece p);

} // namespace quarto
