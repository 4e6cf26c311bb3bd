// Standings and tie-breaks on hand-worked crosstables: every value below was computed by hand
// from the crosstable in the comment, not by the code under test.
#include <vector>

#include "tournament_support.hpp"

using namespace quarto::tournament;
using namespace quarto::tournament::test;

namespace {

// A 5-player round robin (the 5-player Berger schedule; each player has one bye, worth 1).
// Row against column, 1 win, = draw, 0 loss:
//
//          P0  P1  P2  P3  P4   games  +bye  total
//     P0    -   1   1   0   =    2.5     1    3.5
//     P1    0   -   =   1   =    2       1    3
//     P2    0   =   -   1   =    2       1    3
//     P3    1   0   0   -   0    1       1    2
//     P4    =   =   =   1   -    2.5     1    3.5
//
// Sonneborn-Berger (opponent's total for a win, half of it for a draw; the bye adds nothing):
//     P0: P1 3 + P2 3 + P4 3.5/2                  = 7.75
//     P1: P2 3/2 + P3 2 + P4 3.5/2                = 5.25
//     P2: P1 3/2 + P3 2 + P4 3.5/2                = 5.25
//     P3: P0 3.5                                  = 3.5
//     P4: P0 3.5/2 + P1 3/2 + P2 3/2 + P3 2       = 6.75
// Buchholz (the opponents' totals; here everyone else's, the bye adding nothing):
//     P0: 3 + 3 + 2 + 3.5 = 11.5    P1: 3.5 + 3 + 2 + 3.5 = 12    P2: 12
//     P3: 3.5 + 3 + 3 + 3.5 = 13    P4: 3.5 + 3 + 3 + 2 = 11.5
// Ranking: P0 and P4 are level on points (and on Buchholz); SB puts P0 first. P1 and P2 are
// level on everything: they share 3rd place, and P3 is 5th.
std::vector<game_outcome> five_player_round_robin()
{
    return {
        game(1, 1, 4, 1), game(1, 2, 3, 2), bye_game(1, 0), //
        game(2, 4, 2, 1), game(2, 0, 1, 2), bye_game(2, 3), //
        game(3, 2, 0, 0), game(3, 3, 4, 0), bye_game(3, 1), //
        game(4, 0, 3, 0), game(4, 1, 2, 1), bye_game(4, 4), //
        game(5, 3, 1, 0), game(5, 4, 0, 1), bye_game(5, 2), //
    };
}

// A 3-round Swiss of 5 players:
//     R1: P0 beat P1, P2 drew P3, P4 bye      R2: P4 beat P0, P1 beat P2, P3 bye
//     R3: P0 drew P3, P4 drew P1, P2 bye
// Totals: P0 1.5, P1 1.5, P2 1.5 (with the bye), P3 2 (with the bye), P4 2.5 (with the bye).
// Buchholz:  P0: P1 1.5 + P4 2.5 + P3 2 = 6     P1: P0 1.5 + P2 1.5 + P4 2.5 = 5.5
//            P2: P3 2 + P1 1.5 = 3.5            P3: P2 1.5 + P0 1.5 = 3
//            P4: P0 1.5 + P1 1.5 = 3
// SB:        P0: P1 1.5 + P3 2/2 = 2.5          P1: P2 1.5 + P4 2.5/2 = 2.75
//            P2: P3 2/2 = 1                     P3: P2 1.5/2 + P0 1.5/2 = 1.5
//            P4: P0 1.5 + P1 1.5/2 = 2.25
// P0, P1, P2 are level on 1.5. Swiss (Buchholz first): P0 6 > P1 5.5 > P2 3.5. Round-robin
// tie-break (SB only): P1 2.75 > P0 2.5 > P2 1. The two systems disagree on P0 and P1.
std::vector<game_outcome> three_round_swiss()
{
    return {
        game(1, 0, 1, 2), game(1, 2, 3, 1), bye_game(1, 4), //
        game(2, 4, 0, 2), game(2, 1, 2, 2), bye_game(2, 3), //
        game(3, 0, 3, 1), game(3, 4, 1, 1), bye_game(3, 2), //
    };
}

standing row(int rank, int player, int half_points, double sonneborn_berger, double buchholz)
{
    return standing{rank, player, half_points, sonneborn_berger, buchholz};
}

void check_table(const std::vector<standing>& actual, const std::vector<standing>& expected)
{
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("row ", i + 1);
        CHECK(actual[i] == expected[i]); // exact: every value is a multiple of 0.25
    }
}

} // namespace

TEST_CASE("standings: round robin with Sonneborn-Berger, byes, and a shared rank")
{
    const std::vector<game_outcome> games = five_player_round_robin();
    check_table(compute_standings(5, games, tiebreak_system::round_robin), {
                                                                               row(1, 0, 7, 7.75, 11.5),
                                                                               row(2, 4, 7, 6.75, 11.5),
                                                                               row(3, 1, 6, 5.25, 12),
                                                                               row(3, 2, 6, 5.25, 12),
                                                                               row(5, 3, 4, 3.5, 13),
                                                                           });
    // Buchholz is level wherever points are (a full round robin), so Swiss ranks the same.
    check_table(compute_standings(5, games, tiebreak_system::swiss), {
                                                                         row(1, 0, 7, 7.75, 11.5),
                                                                         row(2, 4, 7, 6.75, 11.5),
                                                                         row(3, 1, 6, 5.25, 12),
                                                                         row(3, 2, 6, 5.25, 12),
                                                                         row(5, 3, 4, 3.5, 13),
                                                                     });
}

TEST_CASE("standings: Swiss ranks by Buchholz before Sonneborn-Berger")
{
    const std::vector<game_outcome> games = three_round_swiss();
    check_table(compute_standings(5, games, tiebreak_system::swiss), {
                                                                         row(1, 4, 5, 2.25, 3),
                                                                         row(2, 3, 4, 1.5, 3),
                                                                         row(3, 0, 3, 2.5, 6),
                                                                         row(4, 1, 3, 2.75, 5.5),
                                                                         row(5, 2, 3, 1, 3.5),
                                                                     });
    check_table(compute_standings(5, games, tiebreak_system::round_robin), {
                                                                               row(1, 4, 5, 2.25, 3),
                                                                               row(2, 3, 4, 1.5, 3),
                                                                               row(3, 1, 3, 2.75, 5.5),
                                                                               row(4, 0, 3, 2.5, 6),
                                                                               row(5, 2, 3, 1, 3.5),
                                                                           });
}

TEST_CASE("standings: an opponent met twice counts twice")
{
    // P0 beat P1, then drew: P0 1.5, P1 0.5.
    // SB: P0 0.5 (win) + 0.5/2 (draw) = 0.75; P1 0 (loss) + 1.5/2 (draw) = 0.75.
    // Buchholz: P0 0.5 + 0.5 = 1; P1 1.5 + 1.5 = 3.
    const std::vector<game_outcome> games = {game(1, 0, 1, 2), game(1, 1, 0, 1)};
    check_table(compute_standings(2, games, tiebreak_system::swiss), {row(1, 0, 3, 0.75, 1), row(2, 1, 1, 0.75, 3)});
}

TEST_CASE("standings: a bye is a win for points and nothing for the tie-breaks")
{
    // P2 only had a bye (1 point, no opponent); P0 beat P1; P3 has not played.
    const std::vector<game_outcome> games = {game(1, 0, 1, 2), bye_game(1, 2)};
    // P0 and P2 are level on points; for Swiss P0's Buchholz (0, P1 scored nothing) equals
    // P2's, and so does SB: they share 1st. P1 and P3 both have 0; P1's Buchholz is P0's 1.
    check_table(compute_standings(4, games, tiebreak_system::swiss), {
                                                                         row(1, 0, 2, 0, 0),
                                                                         row(1, 2, 2, 0, 0),
                                                                         row(3, 1, 0, 0, 1),
                                                                         row(4, 3, 0, 0, 0),
                                                                     });
    // Round robin only looks at SB: P1 and P3 share 3rd.
    check_table(compute_standings(4, games, tiebreak_system::round_robin), {
                                                                               row(1, 0, 2, 0, 0),
                                                                               row(1, 2, 2, 0, 0),
                                                                               row(3, 1, 0, 0, 1),
                                                                               row(3, 3, 0, 0, 0),
                                                                           });
}

TEST_CASE("standings: no games, no players, and records check_game rejects")
{
    check_table(compute_standings(3, {}, tiebreak_system::swiss),
                {row(1, 0, 0, 0, 0), row(1, 1, 0, 0, 0), row(1, 2, 0, 0, 0)});
    CHECK(compute_standings(0, {}, tiebreak_system::swiss).empty());
    CHECK(compute_standings(-1, {}, tiebreak_system::round_robin).empty());
    // Out of range, self-play, bad points, round 0: all ignored, leaving P1 beating P0.
    const std::vector<game_outcome> games = {
        game(1, 0, 5, 2), game(1, 1, 1, 2), game_outcome{1, 0, 1, 2, 2}, game(0, 0, 1, 2), game(1, 1, 0, 2),
    };
    check_table(compute_standings(2, games, tiebreak_system::round_robin), {row(1, 1, 2, 0, 0), row(2, 0, 0, 0, 1)});
}
