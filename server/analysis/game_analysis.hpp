// A whole archived game analysed: for every position where a player chose a move, the value
// before and after the move played, and the best moves where it made the result worse.
#pragma once

#include "analysis/evaluate.hpp"
#include "quarto/archive/game_record.hpp"
#include "quarto/protocol/analysis.hpp"

namespace quarto::server::analysis {

// Bumped when the analysis of the same game would come out different (a stronger search, a
// new field): an analysis cached by an older version is computed again.
inline constexpr int analysis_version = 3; // 2: positions say `callable`; 3: a faster solver

// Positions with more empty squares than this are not solved within a game's budget: a value at
// 13 empty squares takes 12 s or more here (bench/RESULTS.md). They get a short
// look-ahead each, and the time goes to the positions that can be solved.
inline constexpr int most_empty_solved = 12;
inline constexpr std::chrono::milliseconds unsolvable_look_ahead{20};

// Searches until `until` in all: the positions from the last to the first, each given an equal
// share of the time left (the unsolvable ones' look-aheads kept aside). The late positions are
// solved exactly in next to no time, so the time they leave goes to the early ones, where exact
// searches take far longer.
protocol::game_analysis analyse_game(analysis_worker::context& c, const archive::game_record& record, deadline until);

} // namespace quarto::server::analysis
