// Namespace aliases used throughout the server.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>

namespace quarto::server {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

// Each connection runs on its own strand of the one io_context. Naming that concrete executor
// type, rather than the type-erased any_io_executor of tcp::socket and beast::tcp_stream, saves
// an indirect call and an executor copy on every asynchronous operation (measured in
// bench/RESULTS.md).
using connection_executor = net::strand<net::io_context::executor_type>;
using connection_socket = tcp::socket::rebind_executor<connection_executor>::other;
using connection_stream = beast::basic_stream<tcp, connection_executor>;
} // namespace quarto::server
