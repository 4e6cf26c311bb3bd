// Level 5's moves early in a game, where its search cannot prove one within its time: each
// position (up to the board symmetries and piece relabellings) level 5 can face there when it
// plays the book's moves, whatever the opponent plays, with a move of the position's exact
// value. Made by the project's own solver (tools/make_book/make_book.cpp); sizes and how long
// each rule variant's book takes: bench/RESULTS.md, "The solver and the computer opponent".
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "quarto/core/solver/position.hpp"

namespace quarto::solver {

// A position in its canonical frame and the move stored for it.
struct book_entry {
    std::uint64_t attributes = 0; // the canonical key (symmetry.hpp's table_key)
    std::uint16_t occupied = 0;
    std::uint8_t variant = 0;     // book_variant(rules)
    // The move in the canonical frame: the square (bits 0-3), the piece given (bits 4-7, one
    // per kept attribute), bit 8 a call, bit 9 a piece given.
    std::uint16_t move = 0;
    friend constexpr bool operator==(const book_entry&, const book_entry&) = default;
};

// Which book a rule variant uses: the 2x2 squares or not, and how many attributes count (the
// counted attributes can be permuted, so which ones does not matter).
std::uint8_t book_variant(const rules& r);

// The book's move for `p`, mapped onto its own squares and pieces, where `p` has a piece in hand
// and no Quarto to call or claim; nullopt when the book has none.
std::optional<move> book_move(const rules& r, const position& p);

// `m` played in `p` as the book stores it (for tools/make_book): precondition, p has a hand and
// m is legal, or empty for the key alone.
book_entry book_entry_of(const rules& r, const position& p, const move& m);

// The move `e` stores, mapped onto `p`'s squares and pieces: nullopt when `e` is not `p`'s
// entry, or its move is not legal there.
std::optional<move> move_of(const rules& r, const position& p, const book_entry& e);

// Every entry, sorted by variant, occupied, attributes.
std::span<const book_entry> book_entries();

} // namespace quarto::solver
