// The server's side of the WebSocket opening handshake (RFC 6455 section 4.2): checks an HTTP
// upgrade request and writes the 101 response that accepts it. Pure: no I/O.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include <boost/beast/http.hpp>

namespace quarto::server::net {

struct handshake_refusal {
    boost::beast::http::status status;
    std::string reason; // for the response body and the log
    bool version_mismatch = false; // answer with Sec-WebSocket-Version: 13 (426)
};

// Whether a request asks for a WebSocket (Connection: upgrade, Upgrade: websocket); such a
// request is then either accepted or refused, never served as a page.
bool is_websocket_upgrade(const boost::beast::http::request<boost::beast::http::string_body>& request);

// The text of the 101 Switching Protocols response, or why the request is refused.
std::variant<std::string, handshake_refusal> accept_handshake(
    const boost::beast::http::request<boost::beast::http::string_body>& request);

// Sec-WebSocket-Accept for a Sec-WebSocket-Key: base64(SHA-1(key + the RFC's GUID)).
std::string accept_key(std::string_view client_key);

} // namespace quarto::server::net
