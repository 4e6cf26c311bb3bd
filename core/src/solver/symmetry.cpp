#include "symmetry.hpp"

#include <algorithm>
#include <vector>

#include "quarto/core/patterns.hpp"

namespace quarto::solver::detail {

namespace {

square_permutation make_permutation(const std::array<square, 16>& to)
{
    square_permutation p;
    p.to = to;
    for (unsigned byte = 0; byte < 256; ++byte)
        for (unsigned b = 0; b < 8; ++b) {
            if (!(byte & (1u << b))) continue;
            p.low[byte] = static_cast<square_mask>(p.low[byte] | bit(to[b]));
            p.high[byte] = static_cast<square_mask>(p.high[byte] | bit(to[b + 8]));
        }
    return p;
}

// Every map (row, column) -> (rows[row], columns[column]), transposed or not, that sends the
// patterns onto themselves. The permutations that keep the lines are all of this form, so the
// search finds the whole group (tests check the sizes: 32 and 8).
std::vector<square_permutation> find_group(bool squares)
{
    const auto kept = patterns(squares);
    std::vector<square_permutation> group;
    std::array<int, 4> rows{0, 1, 2, 3};
    do {
        std::array<int, 4> columns{0, 1, 2, 3};
        do {
            for (bool transpose : {false, true}) {
                std::array<square, 16> to{};
                for (int s = 0; s < 16; ++s) {
                    const int r = rows[s / 4], c = columns[s % 4];
                    to[s] = static_cast<square>(transpose ? 4 * c + r : 4 * r + c);
                }
                const auto candidate = make_permutation(to);
                const bool keeps = std::all_of(kept.begin(), kept.end(), [&](square_mask m) {
                    return std::find(kept.begin(), kept.end(), candidate.apply(m)) != kept.end();
                });
                const bool identity = rows == std::array<int, 4>{0, 1, 2, 3} &&
                                      columns == std::array<int, 4>{0, 1, 2, 3} && !transpose;
                if (!keeps) continue;
                if (identity) group.insert(group.begin(), candidate);
                else group.push_back(candidate);
            }
        } while (std::next_permutation(columns.begin(), columns.end()));
    } while (std::next_permutation(rows.begin(), rows.end()));
    return group;
}

} // namespace

std::span<const square_permutation> symmetries(bool squares)
{
    static const std::vector<square_permutation> lines = find_group(false);
    static const std::vector<square_permutation> with_squares = find_group(true);
    return squares ? with_squares : lines;
}

framed_key framed_key_of(square_mask occupied, const std::array<square_mask, 4>& with_bit, std::uint8_t hand,
                         std::uint8_t relevant, std::span<const square_permutation> symmetry_group)
{
    // Relabel so that the piece in hand is 0: flip every attribute it has. The others are
    // left out, as 0xFFFF (no attribute's mask on a board that is not full): nothing that can
    // still happen depends on them, and the key still says how many there were.
    std::array<square_mask, 4> masks{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};
    framed_key best{{UINT64_MAX, 0xFFFF}, {nullptr, hand, 0, {0, 1, 2, 3}}};
    int& kept = best.frame.kept;
    std::array<std::uint8_t, 4> attribute{};
    for (int a = 0; a < 4; ++a)
        if (relevant & (1u << a)) {
            attribute[static_cast<std::size_t>(kept)] = static_cast<std::uint8_t>(a);
            masks[static_cast<std::size_t>(kept++)] =
                (hand & (1u << a)) ? static_cast<square_mask>(with_bit[a] ^ occupied) : with_bit[a];
        }

    for (const auto& sym : symmetry_group) {
        std::array<square_mask, 4> moved = masks;
        std::array<std::uint8_t, 4> order = attribute;
        // Insertion sort of at most 4 values, the attributes along: fewer branches than std::sort.
        for (int i = 0; i < kept; ++i) {
            moved[static_cast<std::size_t>(i)] = sym.apply(masks[static_cast<std::size_t>(i)]);
            for (int j = i; j > 0 && moved[static_cast<std::size_t>(j)] < moved[static_cast<std::size_t>(j - 1)]; --j) {
                std::swap(moved[static_cast<std::size_t>(j)], moved[static_cast<std::size_t>(j - 1)]);
                std::swap(order[static_cast<std::size_t>(j)], order[static_cast<std::size_t>(j - 1)]);
            }
        }
        const table_key k{std::uint64_t{moved[0]} | std::uint64_t{moved[1]} << 16 | std::uint64_t{moved[2]} << 32 |
                              std::uint64_t{moved[3]} << 48,
                          sym.apply(occupied)};
        if (k.occupied < best.key.occupied || (k.occupied == best.key.occupied && k.attributes < best.key.attributes)) {
            best.key = k;
            best.frame.symmetry = &sym;
            best.frame.attribute = order;
        }
    }
    return best;
}

} // namespace quarto::solver::detail
