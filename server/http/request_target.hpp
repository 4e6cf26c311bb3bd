// The request-target of an HTTP/1.1 request line as the routes read it (RFC 7230 section
// 5.3): the origin-form ("/ws?x=1") as it is, the absolute-form ("http://host:port/ws?x=1",
// which a client talking to a proxy sends, and every server must accept) as its path and query,
// its authority standing in for the Host header (section 5.4). Pure: no I/O.
#pragma once

#include <string>
#include <string_view>

namespace quarto::server::http {

struct request_target {
    std::string path_and_query; // "/ws?x=1"; anything else as it came (no route matches it)
    std::string authority;      // the absolute-form's host[:port]; empty for the origin-form
};

request_target parse_request_target(std::string_view target);

} // namespace quarto::server::http
