#include "listener.hpp"

#include <spdlog/spdlog.h>

#include "http_session.hpp"

namespace quarto::server {

listener::listener(net::io_context& ioc, server_context& context, session_tracker& tracker)
    : ioc_{ioc}, context_{context}, tracker_{tracker}, acceptor_{net::make_strand(ioc)}
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
    });
}

void listener::do_accept()
{
    // Each connection gets its own strand: its handlers never run concurrently.
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(beast::error_code ec, tcp::socket socket)
{
    if (ec == net::error::operation_aborted) return; // stopped
    if (ec) {
        spdlog::warn("accept: {}", ec.message());
        // Out of file descriptors and similar: keep accepting, the condition may pass.
    } else {
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<http_session>(std::move(socket), context_, tracker_)->run();
    }
    if (acceptor_.is_open()) do_accept();
}

} // namespace quarto::server
