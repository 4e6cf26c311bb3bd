// The computer opponent's levels, from random play to perfect play. A bot's move is chosen
// here; the server only runs it off its I/O threads and plays it as a seated player's actions.
#pragma once

#include <chrono>
#include <functional>
#include <random>

#include "quarto/core/solver/solver.hpp"

namespace quarto::solver {

inline constexpr int min_bot_level = 1;
inline constexpr int max_bot_level = 5;

// Level 1: random, but never gives a piece that wins at once when another is left, and calls
// the Quartos it makes. 2: looks one move ahead (takes a win, avoids a placement that leaves
// the opponent only winning pieces). 3 and 4: a deeper search within a small budget; they
// sometimes miss a Quarto, theirs or the opponent's (3 often, 4 rarely), as a person would.
// 5: perfect play wherever an exact search finishes within the budget, the best move of the
// deepest search otherwise; always calls and claims. From level 3 up, the first give (the
// empty board) is a random piece without a search: every piece is as good.
// Precondition: level in 1..5, check(p) == none. `should_stop` bounds the time (the caller's
// clock); `random` is the caller's, seeded as it likes (tests seed it).
move bot_move(int level, const rules& r, const position& p, solver& s, std::mt19937_64& random,
              const std::function<bool()>& should_stop = {});

// A move chosen without a search, in microseconds, for when a search's answer would come too
// late for the move clock: a Quarto that can be called is called, else a random move among
// those that hand over no win at once. Precondition: check(p) == none.
move hurried_move(const rules& r, const position& p, std::mt19937_64& random);

// How long a bot of `level` may think about a move: 500 ms, and 950 ms for level 5, whose
// answer must come within a second (the search notices the end of its budget within a few
// milliseconds: it polls the clock every 4096 nodes).
std::chrono::milliseconds think_budget(int level);

// How often a bot of `level` misses a Quarto it could call or claim (0 for 1, 2 and 5). For
// the decisions bot_move does not make: after the 16th placement, the caller calls or passes.
double bot_miss_rate(int level);

// The name a bot plays under: "Computer (level 4)".
std::string bot_name(int level);

} // namespace quarto::solver
