// Accepts TCP connections on one io_context and hands each to `on_accept` (the front's HTTP
// sessions). Connections over --max-connections-per-address are closed at once.
#pragma once

#include <functional>
#include <memory>

#include "net/address_limiter.hpp"
#include "net/asio.hpp"

namespace quarto::server::net {

class listener : public std::enable_shared_from_this<listener> {
public:
    using accept_handler = std::function<void(loop_socket socket, std::shared_ptr<void> ticket)>;

    // With `count_per_address` false (behind a trusted proxy) the cap is applied later, by the
    // forwarded address.
    listener(asio::io_context& io, std::shared_ptr<address_limiter> limiter, bool count_per_address,
             accept_handler on_accept);
    // Binds and listens; returns the error, if any, and leaves the acceptor closed.
    beast::error_code open(const tcp::endpoint& endpoint);
    // Takes a socket that is listening already (socket activation); it is closed by stop().
    beast::error_code adopt(int listening_fd);
    tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
    void run();
    // On the io_context's thread: no connection is accepted after it returns.
    void stop();

private:
    void do_accept();
    void on_accept(beast::error_code ec, loop_socket socket);

    asio::io_context& io_;
    std::shared_ptr<address_limiter> limiter_;
    const bool count_per_address_;
    accept_handler handler_;
    tcp::acceptor acceptor_;
    asio::steady_timer retry_timer_; // paces accept retries after errors such as EMFILE
};

} // namespace quarto::server::net
