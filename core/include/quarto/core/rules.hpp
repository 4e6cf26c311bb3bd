// The variant a room plays: which patterns win, which attributes count, and what a wrong
// Quarto call costs.
#pragma once

#include <cstdint>

#include "quarto/core/board.hpp"
#include "quarto/core/patterns.hpp"

namespace quarto {

enum class false_claim_policy : std::uint8_t {
    reject, // the call is refused with an error and the game goes on
    lose,   // the caller loses the game
};

struct rules {
    bool squares = false; // advanced variant: the nine 2x2 squares win too
    attribute_set attributes = attribute_set::all(); // beginner variant: a non-empty subset
    false_claim_policy false_claim = false_claim_policy::reject;

    constexpr std::span<const square_mask> winning_patterns() const { return patterns(squares); }

    constexpr bool is_pattern(square_mask candidate) const
    {
        for (square_mask p : winning_patterns())
            if (p == candidate) return true;
        return false;
    }

    // A pattern of these rules through `placed` that is aligned on `b`, if any.
    constexpr std::optional<square_mask> quarto_through(const board& b, square placed) const
    {
        for (square_mask p : patterns_through[placed].get(squares))
            if (b.aligned(p, attributes)) return p;
        return std::nullopt;
    }

    friend constexpr bool operator==(const rules&, const rules&) = default;
};

} // namespace quarto
