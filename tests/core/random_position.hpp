// Random positions for the solver's and the bots' tests.
#pragma once

#include <algorithm>
#include <array>

#include "quarto/core/solver/position.hpp"

namespace quarto::test {

// A random position with `empties` empty squares and a piece in hand; pieces may already be
// aligned (an uncalled Quarto loses its value, so real games have such boards).
template <class Generator>
solver::position random_position(Generator& random, int empties)
{
    std::array<int, 16> pieces{}, squares{};
    for (int i = 0; i < 16; ++i) pieces[i] = squares[i] = i;
    std::shuffle(pieces.begin(), pieces.end(), random);
    std::shuffle(squares.begin(), squares.end(), random);
    solver::position p;
    for (int i = 0; i < 16 - empties; ++i)
        p.placed.put(static_cast<square>(squares[i]), piece{static_cast<std::uint8_t>(pieces[i])});
    p.hand = piece{static_cast<std::uint8_t>(pieces[15])};
    return p;
}

} // namespace quarto::test
