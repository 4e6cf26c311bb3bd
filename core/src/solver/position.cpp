#include "quarto/core/solver/position.hpp"

namespace quarto::solver {

namespace {

// The pieces on the board, or nullopt when one is there twice.
std::optional<piece_set> pieces_on(const board& b)
{
    piece_set seen = 0;
    for (square s = 0; s < board_squares; ++s) {
        const auto p = b.at(s);
        if (!p) continue;
        if (seen & bit(*p)) return std::nullopt;
        seen = static_cast<piece_set>(seen | bit(*p));
    }
    return seen;
}

} // namespace

piece_set position::available() const
{
    piece_set used = pieces_on(placed).value_or(0);
    if (hand) used = static_cast<piece_set>(used | bit(*hand));
    return static_cast<piece_set>(all_pieces & ~used);
}

position_problem check(const position& p)
{
    const auto on_board = pieces_on(p.placed);
    if (!on_board || (p.hand && (*on_board & bit(*p.hand)))) return position_problem::piece_twice;
    if (p.callable && !p.placed.occupied(*p.callable)) return position_problem::callable_empty;
    if (p.placed.full()) return p.hand ? position_problem::hand_on_full : position_problem::board_full;
    return position_problem::none;
}

std::string_view to_string(position_problem p)
{
    switch (p) {
    case position_problem::none: return "none";
    case position_problem::piece_twice: return "a piece is on the board twice, or on the board and in hand";
    case position_problem::board_full: return "the board is full: nothing is left to play";
    case position_problem::hand_on_full: return "a piece is in hand but no square is empty";
    case position_problem::callable_empty: return "the square to call on is empty";
    }
    return "unknown";
}

std::optional<position> position_of(const game& g)
{
    position p{g.board(), g.in_hand(), std::nullopt};
    const auto last = g.last_placement();
    switch (g.phase()) {
    case phase::give:
        // After their own placement, the giver may still call it. With no piece left to give
        // (the 16th placement) the choice is between a call and a pass, which the board full
        // position cannot express: the caller decides from rules::quarto_through.
        if (g.board().full()) return std::nullopt;
        if (last && last->by == g.turn()) p.callable = last->where;
        return p;
    case phase::place:
        if (g.claim() && last) p.callable = last->where;
        return p;
    case phase::final_claim:
    case phase::finished: return std::nullopt;
    }
    return std::nullopt;
}

std::optional<position> after(const position& p, const move& m)
{
    if (m.call) return std::nullopt;
    position next = p;
    next.callable.reset();
    if (m.place && p.hand) next.placed.put(*m.place, *p.hand);
    next.hand = m.give;
    return next;
}

std::string board_text(const board& b)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string text(board_squares, '.');
    for (square s = 0; s < board_squares; ++s)
        if (const auto p = b.at(s)) text[s] = digits[p->code()];
    return text;
}

std::optional<board> board_from_text(std::string_view text)
{
    if (text.size() != board_squares) return std::nullopt;
    board b;
    for (square s = 0; s < board_squares; ++s) {
        const char c = text[s];
        int code = -1;
        if (c >= '0' && c <= '9') code = c - '0';
        else if (c >= 'a' && c <= 'f') code = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') code = c - 'A' + 10;
        else if (c != '.') return std::nullopt;
        if (code >= 0) b.put(s, piece{static_cast<std::uint8_t>(code)});
    }
    return b;
}

} // namespace quarto::solver
