#include "quarto/core/solver/opening_book.hpp"

#include <algorithm>
#include <bit>
#include <tuple>
#include <vector>

#include "quarto/core/solver/solver.hpp"
#include "symmetry.hpp"
#include "threats.hpp"

namespace quarto::solver {

namespace {

// tools/make_book writes these files, one per variant, each sorted; variants in order here.
// The first entry is no position's (every rule set counts 1 to 4 attributes: variant 0 is
// none), so that the array has one even before any book is made.
constexpr book_entry entries[] = {
    {0, 0, 0, 0},
#include "book/lines_1_attribute.inc"
#include "book/lines_2_attributes.inc"
#include "book/lines_3_attributes.inc"
#include "book/lines_4_attributes.inc"
#include "book/squares_1_attribute.inc"
#include "book/squares_2_attributes.inc"
#include "book/squares_3_attributes.inc"
#include "book/squares_4_attributes.inc"
};

constexpr auto order = [](const book_entry& e) { return std::tuple{e.variant, e.occupied, e.attributes}; };

detail::framed_key framed(const rules& r, const position& p)
{
    const detail::pattern_set patterns{r};
    const detail::node n = patterns.start(p);
    return detail::framed_key_of(n.occupied, n.with_bit, p.hand->code(), patterns.relevant(n), detail::symmetries(r.squares));
}

// The move `e` stores, mapped through `frame` onto `p`'s squares and pieces; nullopt when it is
// not legal there (a book made for other rules).
std::optional<move> mapped(const rules& r, const position& p, const detail::key_frame& frame, const book_entry& e)
{
    move m;
    const auto canonical_square = static_cast<square>(e.move & 0xF);
    for (square s = 0; s < board_squares; ++s)
        if (frame.symmetry->to[s] == canonical_square) m.place = s;
    m.call = (e.move & (1u << 8)) != 0;
    if (e.move & (1u << 9)) {
        // Any piece left that has the stored values of the attributes that still matter: they
        // differ only in attributes nothing can depend on any more.
        const piece_set available = p.available();
        for (unsigned code = 0; code < piece::count && !m.give; ++code) {
            if (!(available & (1u << code))) continue;
            const unsigned relabelled = code ^ frame.flipped;
            bool same = true;
            for (int i = 0; i < frame.kept && same; ++i)
                same = ((relabelled >> frame.attribute[static_cast<std::size_t>(i)]) & 1u) == ((e.move >> (4 + i)) & 1u);
            if (same) m.give = piece{static_cast<std::uint8_t>(code)};
        }
    }
    std::vector<move> legal;
    legal_moves(r, p, legal);
    if (std::find(legal.begin(), legal.end(), m) == legal.end()) return std::nullopt;
    return m;
}

} // namespace

std::uint8_t book_variant(const rules& r)
{
    return static_cast<std::uint8_t>((r.squares ? 8 : 0) | std::popcount(r.attributes.bits()));
}

std::span<const book_entry> book_entries() { return std::span{entries}.subspan(1); }

book_entry book_entry_of(const rules& r, const position& p, const move& m)
{
    const auto [key, frame] = framed(r, p);
    book_entry e{key.attributes, key.occupied, book_variant(r), 0};
    if (m.place) e.move = frame.symmetry->to[*m.place];
    if (m.call) e.move |= 1u << 8;
    if (m.give) {
        e.move |= 1u << 9;
        const unsigned relabelled = m.give->code() ^ frame.flipped;
        for (int i = 0; i < frame.kept; ++i)
            if (relabelled & (1u << frame.attribute[static_cast<std::size_t>(i)])) e.move |= static_cast<std::uint16_t>(1u << (4 + i));
    }
    return e;
}

std::optional<move> book_move(const rules& r, const position& p)
{
    if (!p.hand || p.empty_squares() == 0 || (p.callable && r.quarto_through(p.placed, *p.callable))) return std::nullopt;
    const auto [key, frame] = framed(r, p);
    const book_entry wanted{key.attributes, key.occupied, book_variant(r), 0};
    const auto all = book_entries();
    const auto it = std::lower_bound(all.begin(), all.end(), wanted,
                                     [](const book_entry& a, const book_entry& b) { return order(a) < order(b); });
    if (it == all.end() || order(*it) != order(wanted)) return std::nullopt;
    return mapped(r, p, frame, *it);
}

std::optional<move> move_of(const rules& r, const position& p, const book_entry& e)
{
    const auto [key, frame] = framed(r, p);
    if (key.attributes != e.attributes || key.occupied != e.occupied) return std::nullopt;
    return mapped(r, p, frame, e);
}

} // namespace quarto::solver
