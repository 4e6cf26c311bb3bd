// Who a request comes from: the TCP peer, or, behind our own reverse proxy (--trust-proxy),
// the address that proxy appended to X-Forwarded-For. Earlier entries are whatever the client
// chose to send, so only the last one is believed, and only when told to.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "net/asio.hpp"

namespace quarto::server::http {

// The last entry of an X-Forwarded-For value ("198.51.100.1, 203.0.113.7" -> "203.0.113.7"),
// as a canonical IP address; nullopt when it is not one.
std::optional<std::string> last_forwarded_for(std::string_view header);

struct client_address {
    std::string address;     // what the per-address cap counts
    std::string description; // for logs: "203.0.113.7 via 127.0.0.1:53211" or "127.0.0.1:53211"
};

client_address address_of(const beast::http::request<beast::http::string_body>& request, const tcp::endpoint& peer, bool trust_proxy);

} // namespace quarto::server::http
