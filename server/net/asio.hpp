// Namespace aliases for Boost.Asio and Boost.Beast, used throughout the server. (The server's
// own `net` and `http` namespaces are its folders; Beast's HTTP is always `beast::http`.)
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace quarto::server {
namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = boost::asio::ip::tcp;
} // namespace quarto::server

namespace quarto::server {
// Sockets on one loop's io_context, naming its executor type: no type-erased executor call on
// every operation.
using loop_executor = boost::asio::io_context::executor_type;
using loop_socket = boost::asio::basic_stream_socket<tcp, loop_executor>;
} // namespace quarto::server
