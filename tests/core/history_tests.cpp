// Validating history records, and the per-player sums built on them.
#include <vector>

#include "tournament_support.hpp"

using namespace quarto::tournament;
using namespace quarto::tournament::test;

TEST_CASE("history: every kind of bad record is named")
{
    CHECK(check_game(4, game(1, 0, 1, 2)) == std::nullopt);
    CHECK(check_game(4, game(1, 0, 1, 1)) == std::nullopt);
    CHECK(check_game(4, game(1, 3, 2, 0)) == std::nullopt);
    CHECK(check_game(4, bye_game(7, 3)) == std::nullopt);

    CHECK(check_game(4, game(0, 0, 1, 2)) == history_problem::round_out_of_range);
    CHECK(check_game(4, game(-1, 0, 1, 2)) == history_problem::round_out_of_range);
    CHECK(check_game(4, game(1, 4, 1, 2)) == history_problem::player_out_of_range);
    CHECK(check_game(4, game(1, 0, 4, 2)) == history_problem::player_out_of_range);
    CHECK(check_game(4, game(1, -1, 0, 2)) == history_problem::player_out_of_range);
    CHECK(check_game(4, bye_game(1, 4)) == history_problem::player_out_of_range);
    CHECK(check_game(0, bye_game(1, 0)) == history_problem::player_out_of_range);
    CHECK(check_game(4, game(1, 2, 2, 1)) == history_problem::plays_itself);
    CHECK(check_game(4, game_outcome{1, 0, 1, 2, 2}) == history_problem::bad_game_points);
    CHECK(check_game(4, game_outcome{1, 0, 1, 3, -1}) == history_problem::bad_game_points);
    CHECK(check_game(4, game_outcome{1, 0, 1, -1, 3}) == history_problem::bad_game_points);
    CHECK(check_game(4, game_outcome{1, 0, std::nullopt, 1, 0}) == history_problem::bad_bye_points);
    CHECK(check_game(4, game_outcome{1, 0, std::nullopt, 2, 2}) == history_problem::bad_bye_points);
    CHECK(to_string(history_problem::bad_bye_points) == "bad_bye_points");
}

TEST_CASE("history: check_history names the first bad record")
{
    const std::vector<game_outcome> good = {game(1, 0, 1, 2), bye_game(1, 2)};
    CHECK(check_history(3, good) == std::nullopt);
    const std::vector<game_outcome> bad = {game(1, 0, 1, 2), bye_game(1, 2), game(2, 1, 1, 1), game(2, 5, 1, 1)};
    CHECK(check_history(3, bad) == history_error{2, history_problem::plays_itself});
}

TEST_CASE("history: points and byes per player skip bad records")
{
    const std::vector<game_outcome> history = {
        game(1, 0, 1, 2), bye_game(1, 2), game(2, 2, 0, 1), game(2, 1, 1, 2), bye_game(2, 1), game(3, 9, 0, 2),
    };
    CHECK(score_half_points(3, history) == std::vector<int>{3, 2, 3});
    CHECK(byes_received(3, history) == std::vector<int>{0, 1, 1});
    CHECK(score_half_points(0, history).empty());
}
