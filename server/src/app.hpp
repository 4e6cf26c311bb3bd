// The whole server: the io_context and its threads, the registries, the listener, signals,
// the idle-room sweeper, and an orderly shutdown.
#pragma once

#include <chrono>
#include <memory>

#include "config.hpp"
#include "listener.hpp"
#include "net.hpp"
#include "room_registry.hpp"
#include "server_context.hpp"
#include "session_tracker.hpp"
#include "tournament_registry.hpp"

namespace quarto::server {

class app {
public:
    explicit app(config settings);
    // Binds, logs "listening on http://HOST:PORT", and serves until SIGINT/SIGTERM. Returns the
    // process exit code.
    int run();

private:
    void sweep();
    void shut_down();
    void wait_for_sessions();

    // Declared before ioc_: handlers still queued when ioc_ is destroyed own sessions whose
    // destructors use these.
    server_context context_;
    session_tracker sessions_;
    net::io_context ioc_;
    room_registry rooms_;
    tournament_registry tournaments_;
    std::shared_ptr<listener> listener_;
    net::signal_set signals_;
    net::steady_timer sweep_timer_;    // wakes the idle-room sweeper periodically
    net::steady_timer shutdown_timer_; // polls, until the deadline, for every client to have closed
    std::chrono::steady_clock::time_point shutdown_deadline_; // end of --shutdown-grace
};

} // namespace quarto::server
