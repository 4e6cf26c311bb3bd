// A position as the solver sees it, its value, and a move. Conventions (PROTOCOL.md uses the
// same): a ply is one placement, so a game has at most 16; a move is a player's whole turn:
// place the piece in hand, then call Quarto or give a piece.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarto/core/board.hpp"
#include "quarto/core/game.hpp"
#include "quarto/core/rules.hpp"

namespace quarto::solver {

// Who is to move and what they hold. With `hand`, the player to move places it (then calls or
// gives). Without it, the player to move gives: on the very first turn of a game, or after their
// own placement (as `game` is in phase give).
struct position {
    board placed;
    std::optional<piece> hand;
    // The last placement, while a Quarto through it may still be called (by the placer, before
    // giving) or claimed (by the opponent, in the claim window). The solver's own lines always
    // call at once; this is for positions taken from real games.
    std::optional<square> callable;

    // Pieces neither on the board nor in hand.
    piece_set available() const;
    int empty_squares() const { return board_squares - placed.pieces_placed(); }
    friend bool operator==(const position&, const position&) = default;
};

enum class position_problem : std::uint8_t {
    none,
    piece_twice,      // a piece is on two squares, or on the board and in hand
    board_full,       // all 16 squares are taken: nothing is left to play
    hand_on_full,     // a piece in hand and no empty square for it
    callable_empty,   // `callable` names an empty square
};
position_problem check(const position& p);
std::string_view to_string(position_problem p);

// The position of a game in progress, for the seat to act (place or give phase). Nullopt when
// the game is over or in its final claim window (nothing is left to choose but to claim or not).
std::optional<position> position_of(const game& g);

// The game's value for the player to move, under best play by both.
enum class game_value : std::int8_t { loss = -1, draw = 0, win = 1 };

struct evaluation {
    game_value value = game_value::draw;
    // Plies (placements) until the game ends under best play: the winner hurries, the loser
    // delays; a draw ends when the board is full. 0: a Quarto can be called right now.
    std::uint8_t distance = 0;
    friend constexpr bool operator==(const evaluation&, const evaluation&) = default;
};

// The better of two evaluations for the player to move.
constexpr bool better(const evaluation& a, const evaluation& b);

struct move {
    std::optional<square> place; // where the piece in hand goes; none when the position has no hand
    std::optional<piece> give;   // none when the move calls Quarto or fills the board
    bool call = false;           // call Quarto (the placement, or the `callable` square, completes a pattern)
    friend constexpr bool operator==(const move&, const move&) = default;
};

// The position after `m` (precondition: m is legal in p). A call ends the game: no position.
std::optional<position> after(const position& p, const move& m);

// The board as PROTOCOL.md writes it: 16 characters, `.` or a hex digit, square 0 first.
std::string board_text(const board& b);
std::optional<board> board_from_text(std::string_view text);

constexpr bool better(const evaluation& a, const evaluation& b)
{
    const auto rank = [](const evaluation& e) {
        const int d = e.distance;
        return e.value == game_value::win ? 100 - d : e.value == game_value::loss ? -100 + d : 0;
    };
    return rank(a) > rank(b);
}

} // namespace quarto::solver
