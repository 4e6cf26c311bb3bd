// Namespace aliases for the chaos soak: plain Asio sockets, no Beast (the WebSocket wire is ours).
#pragma once

#include <boost/asio.hpp>

namespace quarto::chaos {
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using clock_type = std::chrono::steady_clock;
} // namespace quarto::chaos
