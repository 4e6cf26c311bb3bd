// What every part of the server shares: settings, time, the registries.
#pragma once

#include "config.hpp"
#include "metrics.hpp"
#include "player_registry.hpp"
#include "server_clock.hpp"

namespace quarto::server {

class room_registry;

struct server_context {
    explicit server_context(config c) : settings{std::move(c)} {}

    const config settings;
    server_clock clock;
    player_registry players;
    room_registry* rooms = nullptr;
    struct metrics metrics;
};

} // namespace quarto::server
