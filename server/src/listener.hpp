// Accepts TCP connections and starts an http_session for each.
#pragma once

#include <memory>

#include "net.hpp"
#include "server_context.hpp"

namespace quarto::server {

class session_tracker;

class listener : public std::enable_shared_from_this<listener> {
public:
    listener(net::io_context& ioc, server_context& context, session_tracker& tracker);
    // Binds and listens; returns the error, if any, and leaves the acceptor closed.
    beast::error_code open(const tcp::endpoint& endpoint);
    tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
    void run();
    void stop(); // thread-safe

private:
    void do_accept();
    void on_accept(beast::error_code ec, connection_socket socket);

    net::io_context& ioc_;
    server_context& context_;
    session_tracker& tracker_;
    tcp::acceptor acceptor_;
    net::steady_timer retry_timer_; // paces accept retries after errors such as EMFILE
};

} // namespace quarto::server
