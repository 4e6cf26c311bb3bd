// Swiss pairing on small hand-worked cases: the Dutch order, floating, rematch avoidance, the
// bye, withdrawals and who is listed first. The random property tests are in
// swiss_random_tests.cpp.
#include <array>
#include <vector>

#include "tournament_support.hpp"

using namespace quarto::tournament;
using namespace quarto::tournament::test;

namespace {
template <std::size_t N>
std::array<bool, N> all_active()
{
    std::array<bool, N> active{};
    active.fill(true);
    return active;
}
} // namespace

TEST_CASE("swiss: round 1 pairs the top half against the bottom half")
{
    const auto active = all_active<8>();
    CHECK(swiss_pairing(8, {}, active) == round_pairings{board(0, 4), board(1, 5), board(2, 6), board(3, 7)});
}

TEST_CASE("swiss: round 1 with an odd number gives the bye to the last player")
{
    const auto active = all_active<5>();
    CHECK(swiss_pairing(5, {}, active) == round_pairings{board(0, 2), board(1, 3), bye(4)});
}

TEST_CASE("swiss: nobody, one player, no players")
{
    const auto active = all_active<3>();
    CHECK(swiss_pairing(0, {}, active).empty());
    CHECK(swiss_pairing(-2, {}, active).empty());
    const std::array<bool, 3> none{};
    CHECK(swiss_pairing(3, {}, none).empty());
    const std::array<bool, 3> only_1{false, true, false};
    CHECK(swiss_pairing(3, {}, only_1) == round_pairings{bye(1)});
}

TEST_CASE("swiss: a score group pairs within itself unless that would be a rematch")
{
    // Round 1: 0 beat 3, 1 drew 4, 5 beat 2. Scores (half-points): 0 and 5: 2; 1 and 4: 1;
    // 2 and 3: 0. Ranked 0 5 1 4 2 3. 1 and 4 have met, so 1 meets the top of the group
    // below (2) and 4 floats down to meet 3.
    const std::vector<game_outcome> history = {game(1, 0, 3, 2), game(1, 1, 4, 1), game(1, 2, 5, 0)};
    const auto active = all_active<6>();
    // Listed first: the one listed first less often so far (0, 1, 2 were first in round 1).
    CHECK(swiss_pairing(6, history, active) == round_pairings{board(5, 0), board(1, 2), board(4, 3)});
}

TEST_CASE("swiss: the odd player of a score group floats down to the top of the next")
{
    // Round 1 of 6: 0-3 1-4 2-5, the first three win. Round 2: the winners 0 1 2 are an
    // odd group: 0 meets 1 (position m/2 = 1), 2 floats down and meets the highest-ranked
    // loser it has not played (3), leaving 4-5.
    const std::vector<game_outcome> history = {game(1, 0, 3, 2), game(1, 1, 4, 2), game(1, 2, 5, 2)};
    const auto active = all_active<6>();
    CHECK(swiss_pairing(6, history, active) == round_pairings{board(0, 1), board(3, 2), board(4, 5)});
}

TEST_CASE("swiss: when every pairing repeats, the fewest repeats, score groups kept")
{
    const auto active = all_active<4>();
    // Three rounds of 4 players: everyone has met everyone; round 4 must repeat two pairs.
    const std::vector<game_outcome> all_met = {
        game(1, 0, 3, 2), game(1, 1, 2, 2), game(2, 3, 2, 1), game(2, 0, 1, 1), game(3, 1, 3, 2), game(3, 2, 0, 0),
    };
    // Scores: 0: 2+1+2 = 5; 1: 2+1+2 = 5; 2: 0+1+0 = 1; 3: 0+1+0 = 1, so the groups {0,1} and
    // {2,3}. Listed first so far minus second: 0: +1+1-1, 1: +1-1+1, 2: -1-1+1, 3: -1+1-1, all
    // ties, so the higher ranked is listed first.
    CHECK(swiss_pairing(4, all_met, active) == round_pairings{board(0, 1), board(2, 3)});
}

TEST_CASE("swiss: two games per pairing are still one meeting")
{
    // Round 1 played as two games per pairing, colours swapped: 0-2 and 1-3. Everyone scored
    // 2 half-points. In round 2, 0 would meet 2 (the Dutch order of 0 1 2 3); it meets the next
    // in that order, 3, instead, and 1 meets 2.
    const std::vector<game_outcome> history = {game(1, 0, 2, 2), game(1, 2, 0, 2), game(1, 1, 3, 0),
                                               game(1, 3, 1, 0)};
    const auto active = all_active<4>();
    CHECK(swiss_pairing(4, history, active) == round_pairings{board(0, 3), board(1, 2)});
}

TEST_CASE("swiss: the bye goes to the lowest-ranked player without one")
{
    // Round 1 of 5: 0 beat 2, 1 beat 3, 4 had the bye. Ranked 0 1 4 (2 half-points) 2 3 (0).
    // The lowest ranked is 3, who has had no bye. Then 0 meets 1 (position m/2 of the group
    // 0 1 4) and 4 floats down to 2; 2 was listed second before, 4 never: 2 is listed first.
    const std::vector<game_outcome> history = {game(1, 0, 2, 2), game(1, 1, 3, 2), bye_game(1, 4)};
    const auto active = all_active<5>();
    CHECK(swiss_pairing(5, history, active) == round_pairings{board(0, 1), board(2, 4), bye(3)});
}

TEST_CASE("swiss: avoiding a rematch comes before avoiding a second bye")
{
    // Four rounds of 5, all games drawn, the byes to 0, 1, 3, 2; 4 has had none.
    //   R1 (bye 0): 2-3 1-4   R2 (bye 1): 2-0 3-4   R3 (bye 3): 2-1 0-4   R4 (bye 2): 0-3 1-4
    // Never met: 0-1, 1-3, 2-4. A bye for 4 leaves 0 1 2 3, who cannot all be paired afresh
    // (0-1 forces 2-3, 1-3 forces 0-2). Byes to 0 (1-3 2-4) or 3 (0-1 2-4) need no rematch.
    // Scores: 4 has 4 half-points, everyone else 5; of 0 and 3, 3 is the lower ranked.
    const std::vector<game_outcome> history = {
        bye_game(1, 0), game(1, 2, 3, 1), game(1, 1, 4, 1), bye_game(2, 1), game(2, 2, 0, 1), game(2, 3, 4, 1),
        bye_game(3, 3), game(3, 2, 1, 1), game(3, 0, 4, 1), bye_game(4, 2), game(4, 0, 3, 1), game(4, 1, 4, 1),
    };
    const auto active = all_active<5>();
    // Listed first minus second: 0: -1+1+1 = +1, 1: +1-1+1 = +1, 2: +3, 4: -4.
    CHECK(swiss_pairing(5, history, active) == round_pairings{board(0, 1), board(4, 2), bye(3)});
}

TEST_CASE("swiss: when everyone has had a bye, the fewest byes first, then the lowest ranked")
{
    // 3 players: byes to 0, 1, 2, 0. 0 lost its games. Byes: 0 twice, 1 and 2 once; ranked
    // 1 2 (6 half-points) 0 (4). Everyone has met: one rematch whatever the bye. The bye goes
    // to 2: the lowest ranked of those with the fewest byes, not 0 (a third bye).
    const std::vector<game_outcome> history = {
        bye_game(1, 0), game(1, 1, 2, 1), bye_game(2, 1), game(2, 0, 2, 0),
        bye_game(3, 2), game(3, 0, 1, 0), bye_game(4, 0), game(4, 1, 2, 1),
    };
    const auto active = all_active<3>();
    const round_pairings boards = swiss_pairing(3, history, active);
    REQUIRE(boards.size() == 2);
    CHECK(boards[1] == bye(2));
    // Listed first minus second: 0: +2, 1: +1. So 1 is listed first.
    CHECK(boards[0] == board(1, 0));
}

TEST_CASE("swiss: withdrawn players are not paired, their games still count")
{
    // Round 1: 0 beat 1, 2 beat 3. 0 withdraws. Active 1 2 3: 2 leads (2 half-points), the
    // bye goes to the lowest ranked, 3, and 2 meets 1.
    const std::vector<game_outcome> history = {game(1, 0, 1, 2), game(1, 2, 3, 2)};
    const std::array<bool, 4> without_0{false, true, true, true};
    CHECK(swiss_pairing(4, history, without_0) == round_pairings{board(1, 2), bye(3)});
    // Players beyond the end of `active` are not active either.
    const std::array<bool, 3> first_three{true, true, true};
    CHECK(swiss_pairing(4, history, first_three) == round_pairings{board(0, 2), bye(1)});
}

TEST_CASE("swiss: records that check_game rejects are ignored")
{
    // A game against player 9 of 4 and a self-game: neither counts as points or a meeting.
    const std::vector<game_outcome> history = {game(1, 0, 9, 2), game(1, 1, 1, 2), bye_game(0, 3)};
    const auto active = all_active<4>();
    CHECK(swiss_pairing(4, history, active) == swiss_pairing(4, {}, active));
}
