#include "config/origin.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace quarto::server {
namespace {

bool valid_host(std::string_view host)
{
    if (host.empty()) return false;
    if (host.front() == '[') // an IPv6 literal
        return host.size() > 2 && host.back() == ']' &&
               std::all_of(host.begin() + 1, host.end() - 1, [](unsigned char c) { return std::isxdigit(c) || c == ':' || c == '.'; });
    return std::all_of(host.begin(), host.end(), [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '.'; });
}

bool valid_port(std::string_view port)
{
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    return ec == std::errc{} && end == port.data() + port.size() && value >= 1 && value <= 65535;
}

} // namespace

std::optional<std::string> normalize_origin(std::string_view text)
{
    std::string origin{text};
    std::transform(origin.begin(), origin.end(), origin.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (origin.ends_with('/')) origin.pop_back();
    const auto separator = origin.find("://");
    if (separator == std::string::npos) return std::nullopt;
    const std::string_view scheme{origin.data(), separator};
    if (scheme != "http" && scheme != "https") return std::nullopt;
    const std::string_view authority = std::string_view{origin}.substr(separator + 3);
    // The port follows the last ':' outside an IPv6 literal's brackets.
    const auto colon = authority.rfind(':');
    const bool has_port = colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos;
    const std::string_view host = has_port ? authority.substr(0, colon) : authority;
    if (!valid_host(host)) return std::nullopt;
    if (has_port && !valid_port(authority.substr(colon + 1))) return std::nullopt;
    return origin;
}

} // namespace quarto::server
