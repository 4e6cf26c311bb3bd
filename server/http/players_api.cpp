#include "http/players_api.hpp"

#include <charconv>
#include <cmath>
#include <memory>

#include <nlohmann/json.hpp>

#include "http/games_api.hpp"
#include "http/query_string.hpp"
#include "quarto/archive/game_json.hpp"
#include "quarto/archive/store.hpp"
#include "quarto/core/rating/glicko2.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::http {
namespace {

namespace bh = beast::http;
using nlohmann::json;

constexpr std::string_view players_prefix = "/api/players/";
constexpr std::string_view leaderboard_path = "/api/leaderboard";
constexpr std::array pools{rating::pool::standard, rating::pool::advanced};

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

api_reply refusal(bh::status status, std::string_view code, std::string message)
{
    return {status, api_error_body(code, message), {}};
}

api_reply unavailable()
{
    return refusal(bh::status::internal_server_error, "archive_unavailable",
                   "The archive could not be read; please try again later.");
}

std::optional<rating::pool> pool_named(std::string_view name)
{
    for (const auto p : pools)
        if (rating::name(p) == name) return p;
    return std::nullopt;
}

// {"rating","rd","volatility","provisional","games"}: a pool with no rated game yet is a new
// player's.
json rating_json(const std::optional<archive::stored_rating>& stored)
{
    const rating::rating r = stored ? rating::rating{stored->rating, stored->deviation, stored->volatility, stored->games}
                                    : rating::new_player;
    return {{"rating", r.value}, {"rd", r.deviation}, {"volatility", r.volatility},
            {"provisional", rating::provisional(r)}, {"games", r.games}};
}

// A whole number in [low, high] from the query, `fallback` when absent; nullopt when malformed.
std::optional<int> number_param(const std::vector<query_param>& params, std::string_view key, int fallback, int low, int high)
{
    const std::string* text = find(params, key);
    if (!text) return fallback;
    int value = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, value);
    if (text->empty() || ec != std::errc{} || ptr != end || value < low || value > high) return std::nullopt;
    return value;
}

void profile(archive::game_archive& archive, const std::string& name, api_answer answer)
{
    archive.find_player(name, [&archive, name, answer](auto found) {
        if (found.failed) return answer(unavailable());
        if (!found.value) return answer(refusal(bh::status::not_found, "not_found", "No player is called \"" + name + "\"."));
        auto doc = std::make_shared<json>();
        const archive::player_profile& p = *found.value;
        std::array<std::optional<archive::stored_rating>, 2> by_pool;
        for (const auto& r : p.ratings) by_pool[static_cast<std::size_t>(r.pool)] = r;
        *doc = {{"player", p.player_id},
                {"name", p.name},
                {"account", p.account},
                {"ratings", {{"standard", rating_json(by_pool[0])}, {"advanced", rating_json(by_pool[1])}}},
                {"results", {{"wins", p.wins}, {"draws", p.draws}, {"losses", p.losses}}},
                {"history", json::object()}};
        // The chart's points, pool by pool, then the tournaments: each read after the last, on
        // the archive's thread, so the document is whole when it is answered.
        const std::string id = p.player_id;
        archive.rating_history(id, rating::pool::standard, chart_points, [&archive, id, doc, answer](auto standard) {
            if (standard.failed) return answer(unavailable());
            const auto points = [](const std::vector<archive::rating_point>& history) {
                json out = json::array();
                for (const auto& h : history)
                    out.push_back({{"game", h.game_id}, {"at_ms", h.at_ms}, {"rating", h.rating}, {"rd", h.deviation}});
                return out;
            };
            (*doc)["history"]["standard"] = points(standard.value);
            archive.rating_history(id, rating::pool::advanced, chart_points, [&archive, id, doc, answer, points](auto advanced) {
                if (advanced.failed) return answer(unavailable());
                (*doc)["history"]["advanced"] = points(advanced.value);
                archive.tournaments_of_player(id, profile_tournaments, [doc, answer](auto played) {
                    if (played.failed) return answer(unavailable());
                    json list = json::array();
                    for (const auto& t : played.value) list.push_back({{"id", t.id}, {"name", t.name}, {"status", t.status}});
                    (*doc)["tournaments"] = std::move(list);
                    answer({bh::status::ok, dump(*doc), {}});
                });
            });
        });
    });
}

void games(archive::game_archive& archive, const std::string& name, std::string_view query, api_answer answer)
{
    const auto params = parse_query(query);
    if (!params) return answer(refusal(bh::status::bad_request, "bad_request", "The query string has a malformed %-escape."));
    const auto limit = number_param(*params, "limit", default_games_limit, 1, archive::max_games_per_query);
    if (!limit)
        return answer(refusal(bh::status::bad_request, "bad_request",
                              "\"limit\" must be a whole number from 1 to " + std::to_string(archive::max_games_per_query) + "."));
    const auto offset = number_param(*params, "offset", 0, 0, 1'000'000);
    if (!offset) return answer(refusal(bh::status::bad_request, "bad_request", "\"offset\" must be a whole number from 0 to 1000000."));
    archive.games_of_player(name, *limit, [name, answer, limit = *limit, offset = *offset](auto found) {
        if (found.failed) return answer(unavailable());
        json out = archive::games_list_json(name, found.value);
        out["limit"] = limit;
        out["offset"] = offset;
        answer({bh::status::ok, dump(out), {}});
    }, *offset);
}

void leaderboard(archive::game_archive& archive, std::string_view query, api_answer answer)
{
    const auto params = parse_query(query);
    const std::string* asked = params ? find(*params, "pool") : nullptr;
    const auto pool = pool_named(asked ? std::string_view{*asked} : std::string_view{"standard"});
    if (!params || !pool)
        return answer(refusal(bh::status::bad_request, "bad_request", "\"pool\" must be \"standard\" or \"advanced\"."));
    archive.leaderboard(*pool, leaderboard_size, [answer, pool = *pool](auto found) {
        if (found.failed) return answer(unavailable());
        json players = json::array();
        for (const auto& e : found.value)
            players.push_back({{"player", e.player_id}, {"name", e.name}, {"rating", e.rating}, {"rd", e.deviation}, {"games", e.games}});
        answer({bh::status::ok, dump({{"pool", rating::name(pool)}, {"players", std::move(players)}}), {}});
    });
}

} // namespace

bool is_players_route(std::string_view path)
{
    return path == leaderboard_path || (path.starts_with(players_prefix) && path.size() > players_prefix.size());
}

void serve_players_api(site& server, std::string_view path, std::string_view query, api_answer answer)
{
    auto* archive = server.archive();
    if (!archive)
        return answer(refusal(bh::status::service_unavailable, "archive_unavailable", "This server keeps no archive."));
    if (path == leaderboard_path) return leaderboard(*archive, query, answer);
    std::string_view rest = path.substr(players_prefix.size());
    constexpr std::string_view games_suffix = "/games";
    const bool list = rest.ends_with(games_suffix);
    if (list) rest.remove_suffix(games_suffix.size());
    const auto decoded = percent_decode(rest, false);
    // Names are stored trimmed of spaces, at most 32 bytes, and never hold a '/'.
    std::string name = decoded ? *decoded : std::string{};
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.empty() || name.size() > protocol::max_name_length || name.find('/') != std::string::npos)
        return answer(refusal(bh::status::not_found, "not_found", "No such player."));
    if (list) return games(*archive, name, query, answer);
    profile(*archive, name, answer);
}

} // namespace quarto::server::http
