// Validation and sums over a tournament's history.
#include "quarto/core/tournament/history.hpp"

#include <algorithm>

namespace quarto::tournament {

namespace {
bool is_player(int players, int index) { return index >= 0 && index < players; }
} // namespace

std::string_view to_string(history_problem p)
{
    switch (p) {
    case history_problem::round_out_of_range: return "round_out_of_range";
    case history_problem::player_out_of_range: return "player_out_of_range";
    case history_problem::plays_itself: return "plays_itself";
    case history_problem::bad_game_points: return "bad_game_points";
    case history_problem::bad_bye_points: return "bad_bye_points";
    }
    return "?";
}

std::optional<history_problem> check_game(int players, const game_outcome& game)
{
    if (game.round < 1) return history_problem::round_out_of_range;
    if (!is_player(players, game.a) || (game.b && !is_player(players, *game.b)))
        return history_problem::player_out_of_range;
    if (!game.b) {
        if (game.half_points_a != 2 || game.half_points_b != 0) return history_problem::bad_bye_points;
        return std::nullopt;
    }
    if (*game.b == game.a) return history_problem::plays_itself;
    if (game.half_points_a < 0 || game.half_points_a > 2 || game.half_points_b != 2 - game.half_points_a)
        return history_problem::bad_game_points;
    return std::nullopt;
}

std::optional<history_error> check_history(int players, std::span<const game_outcome> history)
{
    for (std::size_t i = 0; i < history.size(); ++i)
        if (auto problem = check_game(players, history[i])) return history_error{i, *problem};
    return std::nullopt;
}

std::vector<int> score_half_points(int players, std::span<const game_outcome> history)
{
    std::vector<int> points(static_cast<std::size_t>(std::max(players, 0)), 0);
    for (const game_outcome& g : history) {
        if (check_game(players, g)) continue;
        points[g.a] += g.half_points_a;
        if (g.b) points[*g.b] += g.half_points_b;
    }
    return points;
}

std::vector<int> byes_received(int players, std::span<const game_outcome> history)
{
    std::vector<int> byes(static_cast<std::size_t>(std::max(players, 0)), 0);
    for (const game_outcome& g : history)
        if (!g.b && !check_game(players, g)) ++byes[g.a];
    return byes;
}

} // namespace quarto::tournament
