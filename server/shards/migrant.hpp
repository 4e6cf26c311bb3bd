// A client on its way from one shard to another: its connection (socket and buffers), its
// player and rate limit, and what it was doing when it moved.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "net/rate_limiter.hpp"
#include "net/ws_connection.hpp"
#include "play/player_registry.hpp"

namespace quarto::server::shards {

struct migrant {
    net::ws_connection::handover connection;
    std::shared_ptr<void> ticket; // its place under the per-address cap
    std::string address; // as the per-address caps count it
    std::string remote;
    net::rate_limiter limiter;
    net::rate_limiter joins;
    std::shared_ptr<const play::player_record> player;
    std::string pending;    // the message that made it move: handled first on arrival
    bool resume = false;    // it said hello with a token: take the player's places back there
    std::deque<std::string> held; // messages that came while its hello was being looked up
};

} // namespace quarto::server::shards
