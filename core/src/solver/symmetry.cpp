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

template <std::size_t N>
void sort_small(std::array<square_mask, N>& values, int from, int to)
{
    // Insertion sort of at most 4 values: fewer branches than std::sort's set-up.
    for (int i = from + 1; i < to; ++i)
        for (int j = i; j > from && values[j] < values[j - 1]; --j) std::swap(values[j], values[j - 1]);
}

} // namespace

std::span<const square_permutation> symmetries(bool squares)
{
    static const std::vector<square_permutation> lines = find_group(false);
    static const std::vector<square_permutation> with_squares = find_group(true);
    return squares ? with_squares : lines;
}

table_key key_of(square_mask occupied, const std::array<square_mask, 4>& with_bit, std::uint8_t hand,
                 std::uint8_t relevant, std::span<const square_permutation> symmetry_group)
{
    // Relabel so that the piece in hand is 0: flip every attribute it has. The others are
    // left out, as 0xFFFF (no attribute's mask on a board that is not full): nothing that can
    // still happen depends on them, and the key still says how many there were.
    std::array<square_mask, 4> masks{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};
    int kept = 0;
    for (int a = 0; a < 4; ++a)
        if (relevant & (1u << a))
            masks[kept++] = (hand & (1u << a)) ? static_cast<square_mask>(with_bit[a] ^ occupied) : with_bit[a];

    table_key best{UINT64_MAX, 0xFFFF};
    for (const auto& sym : symmetry_group) {
        std::array<square_mask, 4> moved = masks;
        for (int i = 0; i < kept; ++i) moved[i] = sym.apply(masks[i]);
        sort_small(moved, 0, kept);
        const table_key k{std::uint64_t{moved[0]} | std::uint64_t{moved[1]} << 16 | std::uint64_t{moved[2]} << 32 |
                              std::uint64_t{moved[3]} << 48,
                          sym.apply(occupied)};
        if (k.occupied < best.occupied || (k.occupied == best.occupied && k.attributes < best.attributes)) best = k;
    }
    return best;
}

} // namespace quarto::solver::detail
