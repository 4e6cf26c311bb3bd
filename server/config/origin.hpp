// A web page's origin as --allowed-origin and the Origin header give it, in one spelling, so that
// the configured list and a handshake's header compare as strings (http/origin_policy.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace quarto::server {

// "HTTPS://Quarto.Example.org:8443" -> "https://quarto.example.org:8443": scheme http or https,
// a host name, IPv4 or [IPv6] address, an optional port 1..65535, nothing else (one trailing
// "/" is tolerated). nullopt for anything else, such as the "null" of sandboxed pages.
std::optional<std::string> normalize_origin(std::string_view text);

} // namespace quarto::server
