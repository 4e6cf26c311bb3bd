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
} // namespace quarto::server
