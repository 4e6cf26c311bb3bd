// Shared helpers for the tournament tests: readable doctest output for the tournament values
// and short ways to write pairings and games by hand.
#pragma once

#include <doctest/doctest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "quarto/core/tournament.hpp"

namespace quarto::tournament::test {

// Appends only: GCC 12 at -O3 gives a false -Wrestrict on "literal" + std::string (GCC bug
// 105329).
inline std::string pairing_text(const pairing& p)
{
    std::string s = std::to_string(p.first);
    s += '-';
    s += p.second ? std::to_string(*p.second) : std::string{"bye"};
    return s;
}

inline std::string boards_text(const round_pairings& boards)
{
    std::string s = "[";
    for (const pairing& p : boards) {
        if (s.size() > 1) s += ' ';
        s += pairing_text(p);
    }
    s += ']';
    return s;
}

inline pairing board(int first, int second) { return pairing{first, second}; }
inline pairing bye(int player) { return pairing{player, std::nullopt}; }

// A game of round `round`: a scored `half_points_a` (0, 1 or 2) against b.
inline game_outcome game(int round, int a, int b, int half_points_a)
{
    return game_outcome{round, a, b, half_points_a, 2 - half_points_a};
}
inline game_outcome bye_game(int round, int a) { return game_outcome{round, a, std::nullopt, 2, 0}; }

} // namespace quarto::tournament::test

namespace doctest {

template <>
struct StringMaker<quarto::tournament::pairing> {
    static String convert(const quarto::tournament::pairing& p)
    {
        return quarto::tournament::test::pairing_text(p).c_str();
    }
};
template <>
struct StringMaker<quarto::tournament::round_pairings> {
    static String convert(const quarto::tournament::round_pairings& boards)
    {
        return quarto::tournament::test::boards_text(boards).c_str();
    }
};
template <>
struct StringMaker<quarto::tournament::standing> {
    static String convert(const quarto::tournament::standing& s)
    {
        std::ostringstream o;
        o << "{rank " << s.rank << ", player " << s.player << ", half-points " << s.half_points << ", SB "
          << s.sonneborn_berger << ", Buchholz " << s.buchholz << "}";
        return o.str().c_str();
    }
};
template <>
struct StringMaker<quarto::tournament::history_error> {
    static String convert(const quarto::tournament::history_error& e)
    {
        return ("game " + std::to_string(e.game) + ": " + std::string{quarto::tournament::to_string(e.problem)})
            .c_str();
    }
};

} // namespace doctest
