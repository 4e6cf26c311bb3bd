// The events of a move (given, placed, passed), written straight to text with their "room" and
// "seq": the server sends one on every move to everyone in the room, so they skip the
// nlohmann::json document the other messages are built as (see json_writer.hpp). Their fields
// are those of the protocol's "given", "placed" and "passed" events, with "clock" and "claim"
// as encode_clock and encode_claim give them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "quarto/core/game.hpp"

namespace quarto::protocol {

// Where an event belongs: its room, and its place in that room's sequence.
struct event_stamp {
    std::string_view room;
    std::uint64_t seq;
};

std::string given_event(const event_stamp& stamp, const game& g, seat by, piece p, instant now);
std::string placed_event(const event_stamp& stamp, const game& g, seat by, square s, piece p, instant now);
std::string passed_event(const event_stamp& stamp, const game& g, seat by, instant now);

} // namespace quarto::protocol
