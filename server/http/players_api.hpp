// What anyone may read of the players: GET /api/players/{name} (the profile: ratings, results,
// the rating chart's points, tournaments), GET /api/players/{name}/games?limit=N&offset=M (their
// games, newest first) and GET /api/leaderboard?pool=standard|advanced (the top 100 of a pool,
// provisional ratings left out). Answered from the archive's thread.
#pragma once

#include <string_view>

#include "http/accounts_api.hpp"
#include "http/site.hpp"

namespace quarto::server::http {

inline constexpr int leaderboard_size = 100;
// The points of a profile's chart per pool: the most recent games.
inline constexpr int chart_points = 500;
inline constexpr int profile_tournaments = 50;

bool is_players_route(std::string_view path);
// `answer` is called once, on whichever thread has the answer.
void serve_players_api(site& server, std::string_view path, std::string_view query, api_answer answer);

} // namespace quarto::server::http
