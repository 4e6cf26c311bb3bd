#include "net/listener.hpp"

#include <cerrno>

#include <spdlog/spdlog.h>
#include <sys/socket.h>

namespace quarto::server::net {

listener::listener(asio::io_context& io, std::shared_ptr<address_limiter> limiter, bool count_per_address,
                   accept_handler on_accept)
    : io_{io},
      limiter_{std::move(limiter)},
      count_per_address_{count_per_address},
      handler_{std::move(on_accept)},
      acceptor_{io},
      retry_timer_{io}
{
}

beast::error_code listener::open(const tcp::endpoint& endpoint)
{
    beast::error_code ec;
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        beast::error_code ignored;
        acceptor_.close(ignored);
    }
    return ec;
}

beast::error_code listener::adopt(int listening_fd)
{
    sockaddr_storage address{};
    socklen_t size = sizeof address;
    if (::getsockname(listening_fd, reinterpret_cast<sockaddr*>(&address), &size) != 0)
        return {errno, beast::system_category()};
    beast::error_code ec;
    acceptor_.assign(address.ss_family == AF_INET6 ? tcp::v6() : tcp::v4(), listening_fd, ec);
    return ec;
}

void listener::run() { do_accept(); }

void listener::stop()
{
    beast::error_code ignored;
    acceptor_.close(ignored);
    retry_timer_.cancel();
}

void listener::do_accept()
{
    acceptor_.async_accept(io_.get_executor(), beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(beast::error_code ec, loop_socket socket)
{
    if (ec == asio::error::operation_aborted) return; // stopped
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
    auto ticket = count_per_address_ ? limiter_->admit(peer_error ? std::string{} : peer.address().to_string())
                                     : address_limiter::ticket{};
    if (count_per_address_ && !ticket) {
        spdlog::info("refused {}: --max-connections-per-address reached", peer.address().to_string());
        beast::error_code ignored;
        socket.close(ignored);
    } else {
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        handler_(std::move(socket), std::move(ticket));
    }
    if (acceptor_.is_open()) do_accept();
}

} // namespace quarto::server::net
