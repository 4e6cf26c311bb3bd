// The board permutations that map the winning patterns onto themselves, as tables that move a
// whole 16-bit mask at once, and the canonical form of a position under them and the piece
// relabellings (flip any attributes, permute the counted ones among themselves).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "quarto/core/square.hpp"

namespace quarto::solver::detail {

// A permutation of the 16 squares, with lookup tables for moving masks.
struct square_permutation {
    std::array<square, 16> to{};
    std::array<square_mask, 256> low{}, high{};
    constexpr square_mask apply(square_mask m) const { return static_cast<square_mask>(low[m & 0xFF] | high[m >> 8]); }
};

// 32 permutations for the lines, 8 (the square's symmetries) when 2x2 squares count; the
// identity first.
std::span<const square_permutation> symmetries(bool squares);

// A position with the piece in hand relabelled to 0 (the attribute masks flipped by its bits)
// and the attribute masks in a canonical order: what the transposition table stores.
struct table_key {
    std::uint64_t attributes = 0; // four 16-bit masks
    square_mask occupied = 0;
    friend constexpr bool operator==(const table_key&, const table_key&) = default;
};

// How a position was mapped onto its key: the board permutation, the hand's code (the
// attributes flipped), and which attribute each of the key's first `kept` masks is.
struct key_frame {
    const square_permutation* symmetry = nullptr;
    std::uint8_t flipped = 0;
    int kept = 0;
    std::array<std::uint8_t, 4> attribute{};
};

struct framed_key {
    table_key key;
    key_frame frame;
};

// Only the `relevant` attributes' masks are kept (a subset of the counted ones: those a pattern
// that can still be completed shares), sorted, since the counted attributes may be permuted;
// the key is also the least image under the board permutations of `symmetry_group`.
framed_key framed_key_of(square_mask occupied, const std::array<square_mask, 4>& with_bit, std::uint8_t hand,
                         std::uint8_t relevant, std::span<const square_permutation> symmetry_group);

inline table_key key_of(square_mask occupied, const std::array<square_mask, 4>& with_bit, std::uint8_t hand,
                        std::uint8_t relevant, std::span<const square_permutation> symmetry_group)
{
    return framed_key_of(occupied, with_bit, hand, relevant, symmetry_group).key;
}

} // namespace quarto::solver::detail
