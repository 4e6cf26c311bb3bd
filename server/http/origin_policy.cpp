#include "http/origin_policy.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace quarto::server::http {
namespace {

std::string lower(std::string_view text)
{
    std::string out{text};
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

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
    std::string origin = lower(text);
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

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed)
{
    const auto normalized = normalize_origin(origin);
    if (!normalized) return false;
    if (!allowed.empty()) return std::find(allowed.begin(), allowed.end(), *normalized) != allowed.end();
    const auto authority = std::string_view{*normalized}.substr(normalized->find("://") + 3);
    return !host.empty() && authority == lower(host);
}

} // namespace quarto::server::http
