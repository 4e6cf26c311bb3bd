#include "raw_field.hpp"

namespace quarto::chaos {

namespace {

// The end of the string that starts at `at` (on its opening quote): the closing quote's index.
std::size_t string_end(std::string_view s, std::size_t at)
{
    for (std::size_t i = at + 1; i < s.size(); ++i) {
        if (s[i] == '\\') ++i;
        else if (s[i] == '"') return i;
    }
    return std::string_view::npos;
}

// The end (one past) of the value that starts at `at`.
std::size_t value_end(std::string_view s, std::size_t at)
{
    if (at >= s.size()) return std::string_view::npos;
    if (s[at] == '"') {
        const auto close = string_end(s, at);
        return close == std::string_view::npos ? close : close + 1;
    }
    if (s[at] == '{' || s[at] == '[') {
        int depth = 0;
        for (std::size_t i = at; i < s.size(); ++i) {
            if (s[i] == '"') {
                i = string_end(s, i);
                if (i == std::string_view::npos) return i;
            } else if (s[i] == '{' || s[i] == '[') {
                ++depth;
            } else if ((s[i] == '}' || s[i] == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return std::string_view::npos;
    }
    std::size_t i = at;
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ' ') ++i;
    return i;
}

} // namespace

std::optional<raw_value> raw_field(std::string_view object, std::string_view key)
{
    std::size_t i = object.find('{');
    if (i == std::string_view::npos) return std::nullopt;
    ++i;
    while (i < object.size()) {
        while (i < object.size() && (object[i] == ' ' || object[i] == ',')) ++i;
        if (i >= object.size() || object[i] != '"') return std::nullopt;
        const auto key_end = string_end(object, i);
        if (key_end == std::string_view::npos) return std::nullopt;
        const auto name = object.substr(i + 1, key_end - i - 1);
        i = key_end + 1;
        while (i < object.size() && (object[i] == ' ' || object[i] == ':')) ++i;
        const auto end = value_end(object, i);
        if (end == std::string_view::npos) return std::nullopt;
        if (name == key) {
            if (object[i] == '"') return raw_value{object.substr(i + 1, end - i - 2), true};
            return raw_value{object.substr(i, end - i), false};
        }
        i = end;
    }
    return std::nullopt;
}

} // namespace quarto::chaos
