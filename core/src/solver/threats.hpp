// The search's view of a board: bitboards, and for every winning pattern what its pieces still
// share, kept up to date placement by placement, so that the pieces that would complete a
// pattern now cost a few instructions instead of a pass over every pattern.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "quarto/core/rules.hpp"
#include "quarto/core/solver/position.hpp"

namespace quarto::solver::detail {

inline constexpr int max_patterns = 19;

// A board and the pieces still to give (the one in hand excluded), as the search copies them.
struct node {
    square_mask occupied = 0;
    std::array<square_mask, 4> with_bit{}; // squares whose piece has attribute bit a
    piece_set available = 0;
    // The pieces on the board, kept rather than counted: std::popcount is a library call on
    // Debian's baseline x86-64 (no POPCNT instruction), and it took half of the search's time.
    int placed = 0;
    // Per pattern (bit i: the rules' pattern i): one empty square left; not full, and its
    // pieces still share a counted attribute value (so a piece could still complete it).
    std::uint32_t threes = 0;
    std::uint32_t live = 0;
    // Per pattern: the low nibble, the counted attributes every piece on it has; the high
    // nibble, the counted attributes none of them has. Three whole words, read as such by
    // shared_of() (the bytes past the rules' patterns are never selected).
    std::array<std::uint8_t, 24> shared{};
    static_assert(max_patterns <= 24);

    node without(std::uint8_t piece_code) const
    {
        node n = *this;
        n.available = static_cast<piece_set>(available & ~(1u << piece_code));
        return n;
    }
};

// The rules' patterns and counted attributes, ready for the search.
class pattern_set {
public:
    struct rules rules {};

    pattern_set() = default;
    explicit pattern_set(const struct rules& r) : rules{r}
    {
        const auto all = r.winning_patterns();
        count_ = static_cast<int>(all.size());
        for (int i = 0; i < count_; ++i) {
            masks_[static_cast<std::size_t>(i)] = all[static_cast<std::size_t>(i)];
            for (square s = 0; s < board_squares; ++s)
                if (all[static_cast<std::size_t>(i)] & bit(s)) through_[s][through_count_[s]++] = static_cast<std::uint8_t>(i);
        }
        const unsigned counted = r.attributes.bits();
        fresh_shared_ = static_cast<std::uint8_t>(counted | counted << 4);
        for (unsigned shared = 0; shared < 256; ++shared) {
            unsigned pieces = 0;
            for (unsigned code = 0; code < 16; ++code)
                if ((code & shared & 0xF) || (~code & (shared >> 4) & 0xF)) pieces |= 1u << code;
            completing_[shared] = static_cast<piece_set>(pieces);
        }
    }

    node start(const position& p) const
    {
        node n;
        n.live = (1u << count_) - 1;
        n.shared.fill(fresh_shared_);
        for (square s = 0; s < board_squares; ++s)
            if (const auto pc = p.placed.at(s); pc) n = place(n, s, pc->code());
        n.available = p.available();
        return n;
    }

    // `n` with the piece `code` placed on the empty square `s`.
    node place(const node& n, square s, std::uint8_t code) const
    {
        node m = n;
        m.occupied = static_cast<square_mask>(n.occupied | bit(s));
        ++m.placed;
        // Without branches: which way each goes depends on the piece and the board, and
        // mispredicted they cost more than the arithmetic.
        for (int a = 0; a < 4; ++a)
            m.with_bit[a] = static_cast<square_mask>(n.with_bit[a] | (((code >> a) & 1u) << s));
        const auto keep = static_cast<std::uint8_t>(code | (~code & 0xFu) << 4);
        for (int k = 0; k < through_count_[s]; ++k) {
            const std::uint8_t i = through_[s][static_cast<std::size_t>(k)];
            m.shared[i] &= keep;
            const unsigned rest = masks_[i] & ~m.occupied & 0xFFFFu;
            // The empty squares only shrink, so the pattern has one left exactly when it is a three.
            const unsigned one = static_cast<unsigned>(rest != 0) & static_cast<unsigned>((rest & (rest - 1)) == 0);
            const unsigned dead = static_cast<unsigned>(rest == 0) | static_cast<unsigned>(m.shared[i] == 0);
            m.threes = (m.threes & ~(1u << i)) | one << i;
            m.live &= ~(dead << i);
        }
        return m;
    }

    // Every piece that, placed on some empty square of `n`, completes an aligned pattern: the
    // pieces the player to move must not give. A piece completes a three when it has an
    // attribute all its pieces have or lacks one they all lack, so one look-up of what the
    // threes share, or'ed together, finds them all.
    piece_set deadly(const node& n) const { return completing_[shared_of(n, n.threes & n.live)]; }

    // The attributes that can still matter: those some pattern that can still be completed
    // has in common. Two pieces that differ only in the others are the same piece from here
    // to the end (a pattern that can no longer be completed never becomes completable again).
    std::uint8_t relevant(const node& n) const
    {
        const unsigned shared = shared_of(n, n.live);
        return static_cast<std::uint8_t>((shared | shared >> 4) & 0xF);
    }

private:
    // The bytes of `n.shared` of the patterns in `which`, or'ed: eight at a time, through a mask
    // of the bytes each eight bits of `which` select (a loop over the bits mispredicted).
    static unsigned shared_of(const node& n, std::uint32_t which)
    {
        static_assert(std::endian::native == std::endian::little, "byte b of a word is pattern 8w + b");
        std::uint64_t all = 0;
        for (std::size_t w = 0; w < 3; ++w) {
            std::uint64_t bytes;
            std::memcpy(&bytes, n.shared.data() + 8 * w, sizeof bytes);
            all |= bytes & byte_masks[(which >> (8 * w)) & 0xFF];
        }
        all |= all >> 32;
        all |= all >> 16;
        all |= all >> 8;
        return static_cast<unsigned>(all & 0xFF);
    }

    static constexpr std::array<std::uint64_t, 256> byte_masks = [] {
        std::array<std::uint64_t, 256> masks{};
        for (unsigned bits = 0; bits < 256; ++bits)
            for (unsigned b = 0; b < 8; ++b)
                if (bits & (1u << b)) masks[bits] |= std::uint64_t{0xFF} << (8 * b);
        return masks;
    }();

    int count_ = 0;
    std::array<square_mask, max_patterns> masks_{};
    std::array<std::array<std::uint8_t, 7>, board_squares> through_{};
    std::array<std::uint8_t, board_squares> through_count_{};
    std::uint8_t fresh_shared_ = 0;
    // By a pattern's shared byte: the pieces that share one of its values.
    std::array<piece_set, 256> completing_{};
};

} // namespace quarto::solver::detail
