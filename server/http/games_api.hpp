// GET /api/games/{id}, GET /api/games/{id}/analysis and GET /api/games?player=NAME[&limit=N]:
// the request target read into
// what to ask the archive, or the HTTP refusal. No I/O here; http_session asks the archive.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "net/asio.hpp"

namespace quarto::server::http {

inline constexpr int default_games_limit = 50;

struct game_lookup {
    std::string id;
};
struct game_analysis_lookup {
    std::string id;
};
struct player_games {
    std::string player; // trimmed of spaces, 1..32 bytes
    int limit = default_games_limit;
};
struct api_refusal {
    beast::http::status status;
    std::string code; // not_found, bad_request
    std::string message;
};
using games_request = std::variant<game_lookup, game_analysis_lookup, player_games, api_refusal>;

// nullopt when `path` is not under /api/games. `query` is what follows '?' (may be empty).
std::optional<games_request> route_games_api(std::string_view path, std::string_view query);

// The JSON body of every /api error: {"type":"error","code":CODE,"message":TEXT}.
std::string api_error_body(std::string_view code, std::string_view message);

} // namespace quarto::server::http
