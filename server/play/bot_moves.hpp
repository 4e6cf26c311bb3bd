// The computer as a seated player: how it is named, what it has to decide at a moment of the
// game, and a decision of the solver turned into the messages a person in its seat would send
// (place, then quarto, give or pass), so that a bot's move takes the same path as anyone's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "quarto/core/game.hpp"
#include "quarto/core/solver/position.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::play {

// The player id of the computer at `level`: "bot-4". A guest's id is "p" + 8 characters, so no
// person can ever have one; the archive keeps it as the player's id, its name is
// solver::bot_name(level).
std::string bot_player_id(int level);

// The decision at the end of the board (the 16th piece placed), where the solver has no
// position to search: call or claim the last placement when it completes a pattern and the
// bot `sees` it (levels 3 and 4 sometimes do not: solver::bot_miss_rate), else pass.
// Precondition: g.board().full(), the game not finished.
solver::move end_of_board_move(const game& g, bool sees);

// The messages that play `m` for the seat to act in `g`: a placement (when `m` places), then a
// call on the judged placement (the one just made, or without a placement the opponent's last:
// a claim), a give, or a pass when nothing is left to give. A call whose placement completes no
// pattern is dropped (logged by the caller when the game refuses what follows).
std::vector<protocol::room_action> actions_for(const game& g, const solver::move& m);

} // namespace quarto::server::play
