// What every part of the server shares: settings, time, the registries, the archive.
#pragma once

#include <memory>

#include "config.hpp"
#include "metrics.hpp"
#include "player_registry.hpp"
#include "quarto/archive/game_archive.hpp"
#include "server_clock.hpp"

namespace quarto::server {

class room_registry;
class tournament_registry;

struct server_context {
    explicit server_context(config c) : settings{std::move(c)} {}

    const config settings;
    server_clock clock;
    player_registry players;
    room_registry* rooms = nullptr;
    tournament_registry* tournaments = nullptr;
    struct metrics metrics;
    // Opened by app::run before the server accepts; closed (every queued game written) after
    // the I/O threads have stopped.
    std::unique_ptr<archive::game_archive> archive;
};

} // namespace quarto::server
