// Namespace aliases for the load generator.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>

namespace quarto::load {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
} // namespace quarto::load
