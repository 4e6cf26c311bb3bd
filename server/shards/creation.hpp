// The lobby's rules for what a player asks to create: a room (its default name, the cap on rooms
// open from one address) and a tournament (how far ahead it may start, the caps on unfinished
// tournaments per director and per address). The connection that asked only routes the request
// and answers with what these give.
#pragma once

#include <string>
#include <variant>

#include "play/client_ref.hpp"
#include "play/player_registry.hpp"
#include "quarto/protocol/error_code.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::play {
class room;
}
namespace quarto::server::tournaments {
class tournament;
}

namespace quarto::server::shards {

class shard;

// Why nothing was created: the error the asking client gets.
struct creation_refused {
    protocol::error_code code;
    std::string message;
};

// A new room on `home` with `creator` seated, holding its place under the cap on rooms per
// `address`; or why not.
std::variant<play::room*, creation_refused> create_room(shard& home, protocol::create_room request,
                                                        const play::client_ref& creator, const play::player_record& p,
                                                        const std::string& address);

// A new tournament on `home` directed by `director` (not yet opened: the creator's reply goes
// first), holding its places under the caps until it is over; or why not.
std::variant<tournaments::tournament*, creation_refused> create_tournament(shard& home, protocol::create_tournament request,
                                                                           const play::player_record& director,
                                                                           const std::string& address);

} // namespace quarto::server::shards
