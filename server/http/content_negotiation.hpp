// The request headers a static file's answer depends on: Accept-Encoding (may it come
// gzipped?) and If-None-Match (does the client have it already?).
#pragma once

#include <string_view>

namespace quarto::server::http {

// True when `accept_encoding` lists gzip (or *) without q=0.
bool accepts_gzip(std::string_view accept_encoding);
// True when `if_none_match` is * or lists `etag` (a strong ETag, quotes included), weakly
// compared as RFC 9110 says for If-None-Match: W/"x" matches "x".
bool etag_matches(std::string_view if_none_match, std::string_view etag);
// A header element without the optional whitespace (spaces and tabs) around it.
std::string_view trimmed(std::string_view s);

} // namespace quarto::server::http
