// The winning patterns: 4 rows, 4 columns, 2 diagonals, and (advanced variant) the nine 2x2
// squares. Precomputed masks so that checking a placement costs a handful of instructions.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "quarto/core/square.hpp"

namespace quarto {

// Lines first, then the 2x2 squares: the standard game uses the first 10, the advanced all 19.
inline constexpr std::array<square_mask, 19> all_patterns = [] {
    std::array<square_mask, 19> p{};
    int n = 0;
    for (int r = 0; r < 4; ++r) p[n++] = static_cast<square_mask>(0xFu << (4 * r));
    for (int c = 0; c < 4; ++c) p[n++] = static_cast<square_mask>(0x1111u << c);
    p[n++] = 0x8421; // 0, 5, 10, 15
    p[n++] = 0x1248; // 3, 6, 9, 12
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) p[n++] = static_cast<square_mask>(0x33u << (4 * r + c));
    return p;
}();
inline constexpr int line_count = 10;

constexpr std::span<const square_mask> patterns(bool with_squares)
{
    return std::span<const square_mask>{all_patterns}.first(with_squares ? 19 : line_count);
}

// The patterns through one square, lines first: at most 3 lines and 4 2x2 squares.
struct patterns_at {
    std::array<square_mask, 7> masks{};
    std::uint8_t lines = 0; // how many of `masks` are lines
    std::uint8_t all = 0;   // lines and 2x2 squares

    constexpr std::span<const square_mask> get(bool with_squares) const
    {
        return std::span<const square_mask>{masks}.first(with_squares ? all : lines);
    }
};

inline constexpr std::array<patterns_at, 16> patterns_through = [] {
    std::array<patterns_at, 16> table{};
    for (int s = 0; s < 16; ++s) {
        patterns_at& at = table[s];
        for (int i = 0; i < 19; ++i) {
            if (!(all_patterns[i] & (1u << s))) continue;
            at.masks[at.all++] = all_patterns[i];
            if (i < line_count) ++at.lines;
        }
    }
    return table;
}();

} // namespace quarto
