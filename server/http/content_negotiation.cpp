#include "http/content_negotiation.hpp"

#include <cctype>
#include <optional>

namespace quarto::server::http {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

namespace {

bool same_letters(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

// Calls `f` with each comma-separated element of a header list, trimmed.
template <class F>
void for_each_element(std::string_view list, F&& f)
{
    while (!list.empty()) {
        const auto comma = list.find(',');
        f(trimmed(list.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
}

// A q parameter of 0 (q=0, q=0.0, q=0.000) refuses the coding.
bool refused(std::string_view parameters)
{
    while (!parameters.empty()) {
        const auto semicolon = parameters.find(';');
        const std::string_view p = trimmed(parameters.substr(0, semicolon));
        if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            const std::string_view value = p.substr(2);
            return !value.empty() && value.find_first_not_of("0.") == std::string_view::npos;
        }
        if (semicolon == std::string_view::npos) break;
        parameters.remove_prefix(semicolon + 1);
    }
    return false;
}

} // namespace

bool accepts_gzip(std::string_view accept_encoding)
{
    std::optional<bool> gzip, any; // gzip named outright wins over *
    for_each_element(accept_encoding, [&](std::string_view element) {
        const auto semicolon = element.find(';');
        const std::string_view coding = trimmed(element.substr(0, semicolon));
        const bool on = semicolon == std::string_view::npos || !refused(element.substr(semicolon + 1));
        if (same_letters(coding, "gzip") || same_letters(coding, "x-gzip")) gzip = on;
        else if (coding == "*") any = on;
    });
    return gzip ? *gzip : any.value_or(false);
}

bool etag_matches(std::string_view if_none_match, std::string_view etag)
{
    bool match = false;
    for_each_element(if_none_match, [&](std::string_view tag) {
        if (tag == "*") match = true;
        if (tag.starts_with("W/")) tag.remove_prefix(2);
        if (tag == etag) match = true;
    });
    return match;
}

} // namespace quarto::server::http
