// Which web pages may open a WebSocket to this server. A browser sends the page's origin with
// every handshake; checking it keeps other sites from driving a visitor's session (their
// cookies and tokens aside, the socket itself would be the visitor's).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace quarto::server::http {

// Whether a handshake with this Origin header may proceed. With `allowed` empty, the Origin's
// host[:port] must equal the request's Host header (case-insensitive): the page was served by
// this server, or by the proxy in front of it. Otherwise the Origin must be one of `allowed`
// (normalized by config/origin.hpp's normalize_origin). A handshake without an Origin (a bot, a
// tool) is not checked here.
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

} // namespace quarto::server::http
