#include "http/games_api.hpp"

#include <charconv>
#include <vector>

#include <nlohmann/json.hpp>

#include "quarto/archive/archive_store.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::http {
namespace {

constexpr std::string_view prefix = "/api/games";
constexpr std::size_t max_id_length = 64;

int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// %XX escapes; in a query, '+' is a space too. nullopt on a malformed escape.
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

struct query_param {
    std::string key;
    std::string value;
};

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

// The first value given for `key`.
const std::string* find(const std::vector<query_param>& params, std::string_view key)
{
    for (const auto& p : params)
        if (p.key == key) return &p.value;
    return nullptr;
}

api_refusal bad_request(std::string message)
{
    return {beast::http::status::bad_request, "bad_request", std::move(message)};
}

games_request list_request(std::string_view query)
{
    const auto params = parse_query(query);
    if (!params) return bad_request("The query string has a malformed %-escape.");
    const std::string* player = find(*params, "player");
    if (!player) return bad_request("Say whose games: /api/games?player=NAME.");
    // Names are stored trimmed of spaces (as hello trims them).
    std::string_view name = *player;
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty()) return bad_request("\"player\" must not be empty.");
    try {
        (void)nlohmann::json(name).dump(); // the answer echoes the name, so it must be UTF-8
    } catch (const nlohmann::json::exception&) {
        return bad_request("\"player\" is not valid UTF-8.");
    }
    if (name.size() > protocol::max_name_length)
        return bad_request("\"player\" is longer than " + std::to_string(protocol::max_name_length) +
                           " bytes, the longest a player name can be.");

    int limit = default_games_limit;
    if (const std::string* text = find(*params, "limit")) {
        const char* end = text->data() + text->size();
        const auto [ptr, ec] = std::from_chars(text->data(), end, limit);
        if (text->empty() || ec != std::errc{} || ptr != end || limit < 1 || limit > archive::max_games_per_query)
            return bad_request("\"limit\" must be a whole number from 1 to " +
                               std::to_string(archive::max_games_per_query) + ".");
    }
    return player_games{std::string{name}, limit};
}

} // namespace

std::optional<games_request> route_games_api(std::string_view path, std::string_view query)
{
    if (path.substr(0, prefix.size()) != prefix) return std::nullopt;
    std::string_view rest = path.substr(prefix.size());
    if (rest.empty() || rest == "/") return list_request(query);
    if (rest.front() != '/') return std::nullopt; // e.g. /api/gamesx: not this API
    rest.remove_prefix(1);
    const auto id = percent_decode(rest, false);
    if (!id || id->empty() || id->size() > max_id_length || id->find('/') != std::string::npos)
        return api_refusal{beast::http::status::not_found, "not_found", "No such game."};
    return game_lookup{*id};
}

std::string api_error_body(std::string_view code, std::string_view message)
{
    // replace: a message that quotes the client's bytes can never make dump() throw.
    return nlohmann::json{{"type", "error"}, {"code", code}, {"message", message}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace quarto::server::http
