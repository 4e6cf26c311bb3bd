#include "http/games_api.hpp"

#include <charconv>
#include <vector>

#include <nlohmann/json.hpp>

#include "quarto/archive/store.hpp"
#include "http/query_string.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::http {
namespace {

constexpr std::string_view prefix = "/api/games";
constexpr std::size_t max_id_length = 64;

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
    // /api/games/{id}/analysis: the id is what comes before the first '/' (an id never has one).
    constexpr std::string_view analysis_suffix = "/analysis";
    const bool analysis = rest.ends_with(analysis_suffix) && rest.find('/') == rest.size() - analysis_suffix.size();
    if (analysis) rest.remove_suffix(analysis_suffix.size());
    const auto id = percent_decode(rest, false);
    if (!id || id->empty() || id->size() > max_id_length || id->find('/') != std::string::npos)
        return api_refusal{beast::http::status::not_found, "not_found", "No such game."};
    if (analysis) return game_analysis_lookup{*id};
    return game_lookup{*id};
}

std::string api_error_body(std::string_view code, std::string_view message)
{
    // replace: a message that quotes the client's bytes can never make dump() throw.
    return nlohmann::json{{"type", "error"}, {"code", code}, {"message", message}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace quarto::server::http
