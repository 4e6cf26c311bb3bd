#include "http/static_versions.hpp"

namespace quarto::server::http {

std::optional<versioned_target> split_versioned(std::string_view target)
{
    if (!target.starts_with(versioned_prefix)) return std::nullopt;
    const std::string_view rest = target.substr(versioned_prefix.size());
    const auto slash = rest.find('/');
    if (slash == 0 || slash == std::string_view::npos) return std::nullopt;
    return versioned_target{rest.substr(0, slash), rest.substr(slash)};
}

namespace {

bool relative_file_url(std::string_view value)
{
    if (value.empty() || value[0] == '#' || value[0] == '/' || value[0] == '?') return false;
    const auto colon = value.find(':');
    return colon == std::string_view::npos || value.find_first_of("/?#") < colon;
}

} // namespace

std::string with_versioned_urls(std::string_view html, std::string_view version, std::string_view dir,
                                const std::function<bool(std::string_view target)>& exists)
{
    std::string out;
    out.reserve(html.size() + 512);
    std::size_t at = 0;
    while (at < html.size()) {
        // The next ` src="` or ` href="` (any whitespace before the name).
        std::size_t found = std::string_view::npos, value = 0;
        for (const std::string_view name : {std::string_view{"src=\""}, std::string_view{"href=\""}}) {
            for (auto i = html.find(name, at); i != std::string_view::npos; i = html.find(name, i + 1)) {
                if (i == 0 || (html[i - 1] != ' ' && html[i - 1] != '\n' && html[i - 1] != '\t')) continue;
                if (i < found) {
                    found = i;
                    value = i + name.size();
                }
                break;
            }
        }
        if (found == std::string_view::npos) break;
        const auto end = html.find('"', value);
        if (end == std::string_view::npos) break;
        out.append(html.substr(at, value - at));
        const std::string_view url = html.substr(value, end - value);
        std::string own_target = "/";
        own_target.append(dir).append(url);
        if (relative_file_url(url) && exists(own_target)) {
            out.append(versioned_prefix).append(version).append("/").append(dir);
        }
        out.append(url);
        at = end;
    }
    out.append(html.substr(at));
    return out;
}

} // namespace quarto::server::http
