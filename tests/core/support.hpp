// Shared helpers for the core tests: readable doctest output for core's types, a snapshot of
// everything a game exposes (to prove a rejected action changed nothing), and short ways to
// play scripted moves.
#pragma once

#include <doctest/doctest.h>

#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "quarto/core/game.hpp"

namespace quarto::test {

inline piece pc(int code) { return piece{static_cast<std::uint8_t>(code)}; }

// No move clock, the default claim window.
inline const clock_settings untimed{.move = std::nullopt, .claim = default_claim_window};

inline std::string mask_text(square_mask m)
{
    std::string s = "{";
    bool first = true;
    for (int i = 0; i < board_squares; ++i)
        if (m & (1u << i)) {
            if (!first) s += ',';
            s += std::to_string(i);
            first = false;
        }
    return s + "}";
}

inline std::string instant_text(instant t) { return std::to_string(t.time_since_epoch().count()) + "ms"; }

inline std::string board_text(const board& b)
{
    std::string s;
    for (int sq = 0; sq < board_squares; ++sq) {
        const auto p = b.at(static_cast<square>(sq));
        s += p ? std::string(1, "0123456789abcdef"[p->code()]) : std::string(".");
        if (sq % 4 == 3 && sq != 15) s += '/';
    }
    return s;
}

// Everything observable about a game, as one comparable value.
struct snapshot {
    enum phase phase;
    seat turn;
    std::optional<piece> in_hand;
    piece_set available;
    board position;
    std::optional<claim_window> claim;
    std::optional<placement> last;
    std::optional<game_result> result;
    std::vector<move_record> moves;
    std::optional<seat> clock_running;
    std::optional<instant> clock_deadline;
    std::optional<instant> next_deadline;

    explicit snapshot(const game& g)
        : phase{g.phase()}, turn{g.turn()}, in_hand{g.in_hand()}, available{g.available()},
          position{g.board()}, claim{g.claim()}, last{g.last_placement()}, result{g.result()},
          moves{g.moves().begin(), g.moves().end()}, clock_running{g.moves_clock().running()},
          clock_deadline{g.moves_clock().deadline()}, next_deadline{g.next_deadline()}
    {
    }
    friend bool operator==(const snapshot&, const snapshot&) = default;
};

// Gives `p` (by the seat to act) and has the other seat place it on `s`, both at `now`.
inline void give_and_place(game& g, int p, int s, instant now)
{
    const seat giver = g.turn();
    const outcome gave = g.give(giver, piece{static_cast<std::uint8_t>(p)}, now);
    REQUIRE_MESSAGE(gave.ok(), "give ", p);
    const outcome placed = g.place(opponent(giver), static_cast<square>(s), now);
    REQUIRE_MESSAGE(placed.ok(), "place on ", s);
}

// Plays (piece, square) pairs in order, all at `now`.
inline void play(game& g, std::initializer_list<std::pair<int, int>> moves, instant now = at_ms(0))
{
    for (const auto& [p, s] : moves) give_and_place(g, p, s, now);
}

inline square_mask squares(std::initializer_list<int> list)
{
    square_mask m = 0;
    for (int s : list) m = static_cast<square_mask>(m | (1u << s));
    return m;
}

inline constexpr square_mask row0 = 0x000F;
inline constexpr square_mask row1 = 0x00F0;
inline constexpr square_mask col0 = 0x1111;
inline constexpr square_mask main_diagonal = 0x8421;
inline constexpr square_mask anti_diagonal = 0x1248;

} // namespace quarto::test

namespace doctest {

template <class T>
struct StringMaker<std::optional<T>> {
    static String convert(const std::optional<T>& v)
    {
        if (!v) return "nullopt";
        return toString(*v);
    }
};

template <>
struct StringMaker<quarto::piece> {
    static String convert(quarto::piece p)
    {
        return ("piece " + std::to_string(p.code()) + " (" + quarto::describe(p) + ")").c_str();
    }
};
template <>
struct StringMaker<quarto::action_error> {
    static String convert(quarto::action_error e) { return std::string{quarto::to_string(e)}.c_str(); }
};
template <>
struct StringMaker<quarto::claim_problem> {
    static String convert(quarto::claim_problem p) { return std::string{quarto::to_string(p)}.c_str(); }
};
template <>
struct StringMaker<quarto::phase> {
    static String convert(quarto::phase p) { return std::string{quarto::to_string(p)}.c_str(); }
};
template <>
struct StringMaker<quarto::end_reason> {
    static String convert(quarto::end_reason r) { return std::string{quarto::to_string(r)}.c_str(); }
};
template <>
struct StringMaker<quarto::move_kind> {
    static String convert(quarto::move_kind k) { return std::string{quarto::to_string(k)}.c_str(); }
};
template <>
struct StringMaker<quarto::time_event> {
    static String convert(quarto::time_event e)
    {
        switch (e) {
        case quarto::time_event::none: return "none";
        case quarto::time_event::claim_window_closed: return "claim_window_closed";
        case quarto::time_event::game_over: return "game_over";
        }
        return "?";
    }
};
template <>
struct StringMaker<quarto::outcome> {
    static String convert(const quarto::outcome& o)
    {
        if (o.ok()) return "ok";
        std::string s{quarto::to_string(o.error())};
        // Two appends, not "/" + string: GCC 12 at -O3 warns about the latter (a false
        // -Wrestrict, GCC bug 105329), which breaks the Release build with warnings as errors.
        if (o.problem() != quarto::claim_problem::none) {
            s += '/';
            s += quarto::to_string(o.problem());
        }
        return s.c_str();
    }
};
template <>
struct StringMaker<quarto::instant> {
    static String convert(quarto::instant t) { return quarto::test::instant_text(t).c_str(); }
};
template <>
struct StringMaker<quarto::board> {
    static String convert(const quarto::board& b) { return quarto::test::board_text(b).c_str(); }
};
template <>
struct StringMaker<quarto::claim_window> {
    static String convert(const quarto::claim_window& w)
    {
        return ("claim{seat " + std::to_string(w.claimant) + " until " + quarto::test::instant_text(w.deadline) + "}")
            .c_str();
    }
};
template <>
struct StringMaker<quarto::placement> {
    static String convert(const quarto::placement& p)
    {
        return ("placement{square " + std::to_string(p.where) + " by " + std::to_string(p.by) + "}").c_str();
    }
};
template <>
struct StringMaker<quarto::game_result> {
    static String convert(const quarto::game_result& r)
    {
        std::string s = "result{";
        s += r.winner ? "winner " + std::to_string(*r.winner) : std::string{"draw"};
        s += ", " + std::string{quarto::to_string(r.reason)} + ", line " + quarto::test::mask_text(r.line) + "}";
        return s.c_str();
    }
};
template <>
struct StringMaker<quarto::move_record> {
    static String convert(const quarto::move_record& m)
    {
        return (std::string{quarto::to_string(m.kind)} + " by " + std::to_string(m.by) + " value " +
                std::to_string(m.value) + " line " + quarto::test::mask_text(m.line) + " at " +
                std::to_string(m.at_ms) + "ms")
            .c_str();
    }
};
template <>
struct StringMaker<quarto::action> {
    static String convert(const quarto::action& a)
    {
        return (std::string{quarto::to_string(a.kind)} + " by " + std::to_string(a.by) + " value " +
                std::to_string(a.value) + " line " + quarto::test::mask_text(a.line))
            .c_str();
    }
};
template <>
struct StringMaker<quarto::test::snapshot> {
    static String convert(const quarto::test::snapshot& s)
    {
        std::ostringstream o;
        o << "phase " << quarto::to_string(s.phase) << ", turn " << int{s.turn} << ", in hand "
          << (s.in_hand ? std::to_string(s.in_hand->code()) : std::string{"-"}) << ", available 0x" << std::hex
          << s.available << std::dec << ", board " << quarto::test::board_text(s.position) << ", claim "
          << StringMaker<std::optional<quarto::claim_window>>::convert(s.claim).c_str() << ", last "
          << StringMaker<std::optional<quarto::placement>>::convert(s.last).c_str() << ", result "
          << StringMaker<std::optional<quarto::game_result>>::convert(s.result).c_str() << ", " << s.moves.size()
          << " moves, clock deadline "
          << StringMaker<std::optional<quarto::instant>>::convert(s.clock_deadline).c_str();
        return o.str().c_str();
    }
};

} // namespace doctest
