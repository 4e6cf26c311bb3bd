#include "http/origin_policy.hpp"

#include <algorithm>
#include <cctype>

#include "config/origin.hpp"

namespace quarto::server::http {
namespace {

std::string lower(std::string_view text)
{
    std::string out{text};
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed)
{
    const auto normalized = normalize_origin(origin);
    if (!normalized) return false;
    if (!allowed.empty()) return std::find(allowed.begin(), allowed.end(), *normalized) != allowed.end();
    const auto authority = std::string_view{*normalized}.substr(normalized->find("://") + 3);
    return !host.empty() && authority == lower(host);
}

} // namespace quarto::server::http
