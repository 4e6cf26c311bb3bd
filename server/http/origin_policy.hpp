// Which web pages may open a WebSocket to this server. A browser sends the page's origin with
// every handshake; checking it keeps other sites from driving a visitor's session (their
// cookies and tokens aside, the socket itself would be the visitor's).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace quarto::server::http {

// "HTTPS://Quarto.Example.org:8443" -> "https://quarto.example.org:8443": scheme http or https,
// a host name, IPv4 or [IPv6] address, an optional port 1..65535, nothing else (one trailing
// "/" is tolerated). nullopt for anything else, such as the "null" of sandboxed pages.
std::optional<std::string> normalize_origin(std::string_view text);

// Whether a handshake with this Origin header may proceed. With `allowed` empty, the Origin's
// host[:port] must equal the request's Host header (case-insensitive): the page was served by
// this server, or by the proxy in front of it. Otherwise the Origin must be one of `allowed`
// (normalized). A handshake without an Origin (a bot, a tool) is not checked here.
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

} // namespace quarto::server::http
