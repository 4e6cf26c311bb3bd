// Squares 0..15 in row-major order, and sets of squares as 16-bit masks.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>

namespace quarto {

using square = std::uint8_t;
using square_mask = std::uint16_t;

inline constexpr int board_squares = 16;

constexpr std::optional<square> square_from_index(int index)
{
    if (index < 0 || index >= board_squares) return std::nullopt;
    return static_cast<square>(index);
}
constexpr square_mask bit(square s) { return static_cast<square_mask>(1u << s); }
constexpr int row_of(square s) { return s / 4; }
constexpr int column_of(square s) { return s % 4; }
constexpr int size(square_mask m) { return std::popcount(m); }

} // namespace quarto
