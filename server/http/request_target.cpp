#include "http/request_target.hpp"

#include <algorithm>
#include <cctype>

namespace quarto::server::http {

namespace {

// `text` starts with `prefix`, ASCII letters compared without case (a URI scheme's case does
// not matter: RFC 3986 section 3.1).
bool starts_with_nocase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
}

} // namespace

request_target parse_request_target(std::string_view target)
{
    std::string_view rest;
    if (starts_with_nocase(target, "http://")) rest = target.substr(7);
    else if (starts_with_nocase(target, "https://")) rest = target.substr(8);
    else return {std::string{target}, {}};
    const auto path = rest.find_first_of("/?#");
    request_target out;
    out.authority.assign(rest.substr(0, path));
    if (path == std::string_view::npos) {
        out.path_and_query = "/";
        return out;
    }
    // An empty path is the root ("http://host?x" asks for "/?x"); a fragment is never sent.
    if (rest[path] != '/') out.path_and_query = "/";
    out.path_and_query.append(rest.substr(path, rest.find('#', path) - path));
    return out;
}

} // namespace quarto::server::http
