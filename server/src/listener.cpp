#include "listener.hpp"

#include <spdlog/spdlog.h>

#include "http_session.hpp"

namespace quarto::server {

listener::listener(net::io_context& ioc, server_context& context, session_tracker& tracker)
    : ioc_{ioc}, context_{context}, tracker_{tracker}, acceptor_{net::make_strand(ioc)},
      retry_timer_{acceptor_.get_executor()}
{
}

beast::error_code listener::open(const tcp::endpoint& endpoint)
{
    beast::error_code ec;
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
        beast::error_code ignored;
        acceptor_.close(ignored);
    }
    return ec;
}

void listener::run() { do_accept(); }

void listener::stop()
{
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
        beast::error_code ignored;
        self->acceptor_.close(ignored);
        self->retry_timer_.cancel();
    });
}

void listener::do_accept()
{
    // Each connection gets its own strand: its handlers never run concurrently.
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(beast::error_code ec, connection_socket socket)
{
    if (ec == net::error::operation_aborted) return; // stopped
    if (ec) {
        // Out of file descriptors and similar: the condition may pass, so retry shortly
        // rather than spin.
        spdlog::warn("accept: {}", ec.message());
        retry_timer_.expires_after(std::chrono::milliseconds(100));
        retry_timer_.async_wait([self = shared_from_this()](beast::error_code) {
            if (self->acceptor_.is_open()) self->do_accept();
        });
        return;
    }
    beast::error_code peer_error;
    const auto peer = socket.remote_endpoint(peer_error);
    // Behind a trusted proxy every connection comes from the proxy: http_session counts
    // WebSocket upgrades by the forwarded address instead.
    auto ticket = context_.settings.trust_proxy
                      ? address_limiter::ticket{}
                      : context_.connections_per_address->admit(peer_error ? std::string{} : peer.address().to_string());
    if (!context_.settings.trust_proxy && !ticket) {
        spdlog::info("refused {}: --max-connections-per-address reached", peer.address().to_string());
        beast::error_code ignored;
        socket.close(ignored);
    } else {
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<http_session>(std::move(socket), context_, tracker_, std::move(ticket))->run();
    }
    if (acceptor_.is_open()) do_accept();
}

} // namespace quarto::server
