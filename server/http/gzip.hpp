// gzip (RFC 1952) of a whole buffer with zlib, for files served with Content-Encoding: gzip.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace quarto::server::http {

// nullopt if zlib fails (out of memory).
std::optional<std::string> gzip(std::string_view bytes);

} // namespace quarto::server::http
