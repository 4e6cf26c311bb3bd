// The board as bitboards: which squares are occupied, and for each attribute which squares
// hold a piece with that attribute's bit set. Ten bytes; copying it is free.
#pragma once

#include <array>
#include <optional>

#include "quarto/core/piece.hpp"
#include "quarto/core/square.hpp"

namespace quarto {

class board {
public:
    constexpr bool occupied(square s) const { return (occupied_ & bit(s)) != 0; }
    constexpr square_mask occupied() const { return occupied_; }
    constexpr int pieces_placed() const { return size(occupied_); }
    constexpr bool full() const { return occupied_ == 0xFFFF; }

    constexpr std::optional<piece> at(square s) const
    {
        if (!occupied(s)) return std::nullopt;
        std::uint8_t code = 0;
        for (int a = 0; a < 4; ++a)
            if (with_bit_[a] & bit(s)) code = static_cast<std::uint8_t>(code | (1u << a));
        return piece{code};
    }

    // Precondition: s is empty.
    constexpr void put(square s, piece p)
    {
        occupied_ = static_cast<square_mask>(occupied_ | bit(s));
        for (int a = 0; a < 4; ++a)
            if (p.code() & (1u << a)) with_bit_[a] = static_cast<square_mask>(with_bit_[a] | bit(s));
    }

    // True when every square of `pattern` is occupied and the pieces there agree on at least
    // one attribute of `counted` (all with the bit, or all without it).
    constexpr bool aligned(square_mask pattern, attribute_set counted) const
    {
        if ((occupied_ & pattern) != pattern) return false;
        for (int a = 0; a < 4; ++a) {
            if (!(counted.bits() & (1u << a))) continue;
            const square_mask with = with_bit_[a] & pattern;
            if (with == pattern || with == 0) return true;
        }
        return false;
    }

    friend constexpr bool operator==(const board&, const board&) = default;

private:
    square_mask occupied_ = 0;
    std::array<square_mask, 4> with_bit_{};
};

} // namespace quarto
