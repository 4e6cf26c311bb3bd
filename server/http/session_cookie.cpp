#include "http/session_cookie.hpp"

#include <algorithm>

#include "http/content_negotiation.hpp"

namespace quarto::server::http {
namespace {

bool is_session_id(std::string_view v)
{
    return v.size() == 32 && std::all_of(v.begin(), v.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string with_attributes(std::string value, long max_age, bool secure)
{
    value += "; Path=/; Max-Age=" + std::to_string(max_age) + "; HttpOnly; SameSite=Lax";
    if (secure) value += "; Secure";
    return value;
}

} // namespace

std::string session_from_cookies(std::string_view header)
{
    while (!header.empty()) {
        const auto end = header.find(';');
        const std::string_view pair = trimmed(header.substr(0, end));
        header = end == std::string_view::npos ? std::string_view{} : header.substr(end + 1);
        const auto eq = pair.find('=');
        if (eq == std::string_view::npos || trimmed(pair.substr(0, eq)) != session_cookie_name) continue;
        std::string_view value = trimmed(pair.substr(eq + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        if (is_session_id(value)) return std::string{value};
    }
    return {};
}

std::string session_cookie(std::string_view id, bool secure)
{
    return with_attributes(std::string{session_cookie_name} + "=" + std::string{id}, session_cookie_max_age, secure);
}

std::string ended_session_cookie(bool secure) { return with_attributes(std::string{session_cookie_name} + "=", 0, secure); }

bool reached_over_tls(std::string_view forwarded_proto, bool trust_proxy)
{
    if (!trust_proxy) return false;
    // A chain of proxies lists one protocol each; the first is the client's.
    const std::string_view first = trimmed(forwarded_proto.substr(0, forwarded_proto.find(',')));
    return first.size() == 5 && std::equal(first.begin(), first.end(), "https", [](char a, char b) {
               return (a >= 'A' && a <= 'Z' ? a - 'A' + 'a' : a) == b;
           });
}

} // namespace quarto::server::http
