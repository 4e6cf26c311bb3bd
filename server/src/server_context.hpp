// What every part of the server shares: settings, time, the registries, the archive.
#pragma once

#include <atomic>
#include <memory>

#include "address_limiter.hpp"
#include "config.hpp"
#include "metrics.hpp"
#include "player_registry.hpp"
#include "quarto/archive/game_archive.hpp"
#include "server_clock.hpp"

namespace quarto::server {

class room_registry;
class tournament_registry;

struct server_context {
    explicit server_context(config c)
        : settings{std::move(c)},
          connections_per_address{std::make_shared<address_limiter>(settings.max_connections_per_address)}
    {
    }

    const config settings;
    server_clock clock;
    player_registry players;
    room_registry* rooms = nullptr;
    tournament_registry* tournaments = nullptr;
    struct metrics metrics;
    // Opened by app::run before the server accepts; closed (every queued game written) after
    // the I/O threads have stopped.
    std::unique_ptr<archive::game_archive> archive;
    // Counted at accept, or with --trust-proxy at the WebSocket upgrade (the TCP peer is then
    // the proxy, the client is named by X-Forwarded-For).
    std::shared_ptr<address_limiter> connections_per_address;
    // Set once on SIGTERM/SIGINT, before the live sessions are told: a session that starts
    // after that sees it and closes at once.
    std::atomic<bool> shutting_down{false};
};

} // namespace quarto::server
