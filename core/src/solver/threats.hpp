// The search's view of a board: bitboards, and the pieces that would complete a pattern now.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "quarto/core/rules.hpp"
#include "quarto/core/solver/position.hpp"

namespace quarto::solver::detail {

// A board and the pieces still to give (the one in hand excluded), as the search copies them.
struct node {
    square_mask occupied = 0;
    std::array<square_mask, 4> with_bit{}; // squares whose piece has attribute bit a
    piece_set available = 0;

    static node of(const position& p)
    {
        node n;
        n.occupied = p.placed.occupied();
        for (square s = 0; s < board_squares; ++s)
            if (const auto pc = p.placed.at(s); pc)
                for (int a = 0; a < 4; ++a)
                    if (pc->code() & (1u << a)) n.with_bit[a] = static_cast<square_mask>(n.with_bit[a] | bit(s));
        n.available = p.available();
        return n;
    }
    node with(square s, std::uint8_t piece_code) const
    {
        node n = *this;
        n.occupied = static_cast<square_mask>(occupied | bit(s));
        for (int a = 0; a < 4; ++a)
            if (piece_code & (1u << a)) n.with_bit[a] = static_cast<square_mask>(with_bit[a] | bit(s));
        return n;
    }
    node without(std::uint8_t piece_code) const
    {
        node n = *this;
        n.available = static_cast<piece_set>(available & ~(1u << piece_code));
        return n;
    }
};

// The pieces with attribute bit a set, one bit per piece code.
inline constexpr std::array<piece_set, 4> pieces_with_bit{0xAAAA, 0xCCCC, 0xF0F0, 0xFF00};

// The rules' patterns and counted attributes, ready for the search.
struct pattern_set {
    struct rules rules {};
    std::array<square_mask, 19> masks{};
    int count = 0;

    pattern_set() = default;
    explicit pattern_set(const struct rules& r) : rules{r}
    {
        for (square_mask m : r.winning_patterns()) masks[static_cast<std::size_t>(count++)] = m;
    }

    // What pattern `p` adds to the deadly pieces of `n`: with exactly one empty square, the
    // pieces that share a counted attribute value with its three.
    piece_set completing(const node& n, square_mask p) const
    {
        const square_mask filled = static_cast<square_mask>(p & n.occupied);
        if (std::popcount(static_cast<unsigned>(p ^ filled)) != 1) return 0;
        const std::uint8_t counted = rules.attributes.bits();
        unsigned out = 0;
        for (int a = 0; a < 4; ++a) {
            if (!(counted & (1u << a))) continue;
            const square_mask with = static_cast<square_mask>(n.with_bit[a] & p);
            if (with == filled) out |= pieces_with_bit[a];
            else if (with == 0) out |= static_cast<piece_set>(~pieces_with_bit[a]);
        }
        return static_cast<piece_set>(out);
    }

    // Every piece that, placed on some empty square of `n`, completes an aligned pattern: the
    // pieces the player to move must not give.
    piece_set deadly(const node& n) const
    {
        unsigned out = 0;
        for (int i = 0; i < count; ++i) out |= completing(n, masks[static_cast<std::size_t>(i)]);
        return static_cast<piece_set>(out);
    }

    // The patterns of a node with one empty square, and what each completes: enough to find
    // the deadly pieces after any placement without looking at the other patterns again.
    struct threats {
        std::array<square_mask, 19> masks{};
        std::array<piece_set, 19> pieces{};
        int count = 0;
        piece_set all = 0;
    };

    threats threats_of(const node& n) const
    {
        threats t;
        for (int i = 0; i < count; ++i) {
            const square_mask p = masks[static_cast<std::size_t>(i)];
            const piece_set completes = completing(n, p);
            if (!completes) continue;
            t.masks[static_cast<std::size_t>(t.count)] = p;
            t.pieces[static_cast<std::size_t>(t.count++)] = completes;
            t.all = static_cast<piece_set>(t.all | completes);
        }
        return t;
    }

    // deadly(next) where `next` is `n` with a piece placed on `s`, from `n`'s threats: those
    // not through `s` stay, and only the patterns through `s` can have become threats.
    piece_set deadly_after(const threats& t, const node& next, square s) const
    {
        unsigned out = 0;
        for (int i = 0; i < t.count; ++i)
            if (!(t.masks[static_cast<std::size_t>(i)] & bit(s))) out |= t.pieces[static_cast<std::size_t>(i)];
        for (square_mask p : patterns_through[s].get(rules.squares)) out |= completing(next, p);
        return static_cast<piece_set>(out);
    }
};

} // namespace quarto::solver::detail
