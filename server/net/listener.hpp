// Accepts TCP connections and deals them out to the loops in turn: each new socket is made on
// its loop's io_context and handed to `on_accept` with that loop's index (called on the
// listener's own loop). Connections over --max-connections-per-address are closed at once.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "net/address_limiter.hpp"
#include "net/asio.hpp"

namespace quarto::server::net {

class listener : public std::enable_shared_from_this<listener> {
public:
    using accept_handler = std::function<void(std::size_t loop, loop_socket socket, std::shared_ptr<void> ticket)>;

    // `home` runs the acceptor; `loops` receive the connections. With `count_per_address`
    // false (behind a trusted proxy) the cap is applied later, by the forwarded address.
    listener(asio::io_context& home, std::vector<asio::io_context*> loops, std::shared_ptr<address_limiter> limiter,
             bool count_per_address, accept_handler on_accept);
    // Binds and listens; returns the error, if any, and leaves the acceptor closed.
    beast::error_code open(const tcp::endpoint& endpoint);
    tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
    void run();
    // On `home`'s thread: no connection is accepted after it returns.
    void stop();

private:
    void do_accept();
    void on_accept(beast::error_code ec, loop_socket socket);

    std::vector<asio::io_context*> loops_;
    std::shared_ptr<address_limiter> limiter_;
    const bool count_per_address_;
    accept_handler handler_;
    tcp::acceptor acceptor_;
    asio::steady_timer retry_timer_; // paces accept retries after errors such as EMFILE
    std::size_t next_ = 0;           // the loop the next connection goes to
};

} // namespace quarto::server::net
