// Reads the moves a game is played with (give, place, quarto, pass, resign, rematch) without
// building a JSON document, when they take the form every client sends: one object whose
// members are "type", "room", the move's number ("piece" or "square") or line (4 squares) and
// an optional "req", in any order, with plain ASCII strings and small integers. Anything else (escapes, non-ASCII text, other
// members, repeated members, numbers out of range, invalid JSON) is left to the full parser,
// which also words every error; so this reader never refuses, it only declines.
#pragma once

#include <optional>
#include <string_view>

#include "quarto/protocol/parse.hpp"

namespace quarto::protocol::detail {

// True when `text` was such a move: `out` then holds it (and is left as it was otherwise).
bool read_plain_move(std::string_view text, parsed_message& out);

} // namespace quarto::protocol::detail
