// The whole server: the shards and their threads, the archive, the listener, signals, and an
// orderly shutdown.
#pragma once

#include <chrono>
#include <memory>

#include "config/config.hpp"
#include "net/listener.hpp"
#include "shards/server_state.hpp"

namespace quarto::server {

class app {
public:
    explicit app(config settings);
    ~app();
    // Binds, logs "listening on http://HOST:PORT", and serves until SIGINT/SIGTERM. Returns the
    // process exit code.
    int run();

private:
    // Opens the archive and brings the stored tournaments back; false (logged) when it cannot.
    bool restore();
    void shut_down();
    void wait_for_clients();

    shards::server_state state_;
    std::shared_ptr<net::listener> listener_;
    std::unique_ptr<asio::signal_set> signals_;       // on shard 0
    std::unique_ptr<asio::steady_timer> shutdown_timer_; // polls, until the deadline, for every client to have closed
    std::chrono::steady_clock::time_point shutdown_deadline_; // end of --shutdown-grace
};

} // namespace quarto::server
