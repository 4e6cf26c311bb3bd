#include "http/query_string.hpp"

#include <charconv>

namespace quarto::server::http {
namespace {

int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

template <class Number>
std::optional<Number> whole_number(const std::string& text)
{
    Number n{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, n);
    if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
    return n;
}

} // namespace

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+' && plus_is_space) {
            out += ' ';
        } else if (c == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int high = hex_digit(text[i + 1]), low = hex_digit(text[i + 2]);
            if (high < 0 || low < 0) return std::nullopt;
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<std::vector<query_param>> parse_query(std::string_view query)
{
    std::vector<query_param> params;
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        auto key = percent_decode(pair.substr(0, eq), true);
        auto value = percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
        if (!key || !value) return std::nullopt;
        params.push_back({std::move(*key), std::move(*value)});
    }
    return params;
}

const std::string* find(const std::vector<query_param>& params, std::string_view key)
{
    for (const auto& p : params)
        if (p.key == key) return &p.value;
    return nullptr;
}

std::variant<protocol::page_request, std::string> page_of(std::string_view query)
{
    const auto params = parse_query(query);
    if (!params) return std::string{"The query string has a malformed %-escape."};
    protocol::page_request page;
    if (const std::string* text = find(*params, "offset")) {
        const auto n = whole_number<std::int64_t>(*text);
        if (!n || *n < 0) return std::string{"\"offset\" must be a whole number from 0 on."};
        page.offset = *n;
    }
    if (const std::string* text = find(*params, "limit")) {
        const auto n = whole_number<int>(*text);
        if (!n || *n < 1 || *n > protocol::max_page_size)
            return "\"limit\" must be a whole number from 1 to " + std::to_string(protocol::max_page_size) + ".";
        page.limit = *n;
    }
    return page;
}

} // namespace quarto::server::http
