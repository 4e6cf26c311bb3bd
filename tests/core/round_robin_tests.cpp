// Round-robin schedules: the published Berger tables exactly, and the invariants of every
// schedule from 2 to 12 players.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tournament_support.hpp"

using namespace quarto::tournament;
using namespace quarto::tournament::test;

namespace {

// "1-4 2-3" in the tables' 1-based numbering, to 0-based boards.
round_pairings parse_round(const std::string& text)
{
    round_pairings boards;
    std::istringstream words{text};
    std::string word;
    while (words >> word) {
        const auto dash = word.find('-');
        boards.push_back(board(std::stoi(word.substr(0, dash)) - 1, std::stoi(word.substr(dash + 1)) - 1));
    }
    return boards;
}

std::vector<round_pairings> parse_table(const std::vector<std::string>& rounds)
{
    std::vector<round_pairings> table;
    for (const std::string& r : rounds) table.push_back(parse_round(r));
    return table;
}

void check_schedule_equals(int players, const std::vector<round_pairings>& expected)
{
    const std::vector<round_pairings> schedule = round_robin_schedule(players);
    REQUIRE(schedule.size() == expected.size());
    for (std::size_t r = 0; r < expected.size(); ++r) {
        INFO("round ", r + 1);
        CHECK(schedule[r] == expected[r]);
    }
}

// The Berger tables of FIDE Handbook C.05 Annex 1, as reproduced at
// http://c.w.fox.tripod.com/chess/berger.html ("3 or 4 players" ... "11 or 12 players"),
// copied by hand, 1-based, the player listed first having white.
const std::vector<std::string> berger_4 = {"1-4 2-3", "4-3 1-2", "2-4 3-1"};
const std::vector<std::string> berger_6 = {
    "1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1",
};
const std::vector<std::string> berger_8 = {
    "1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1",
};
const std::vector<std::string> berger_12 = {
    "1-12 2-11 3-10 4-9 5-8 6-7", "12-7 8-6 9-5 10-4 11-3 1-2", "2-12 3-1 4-11 5-10 6-9 7-8",
    "12-8 9-7 10-6 11-5 1-4 2-3", "3-12 4-2 5-1 6-11 7-10 8-9", "12-9 10-8 11-7 1-6 2-5 3-4",
    "4-12 5-3 6-2 7-1 8-11 9-10", "12-10 11-9 1-8 2-7 3-6 4-5", "5-12 6-4 7-3 8-2 9-1 10-11",
    "12-11 1-10 2-9 3-8 4-7 5-6",  "6-12 7-5 8-4 9-3 10-2 11-1",
};

} // namespace

TEST_CASE("round_robin: rounds per cycle")
{
    CHECK(round_robin_rounds(-3) == 0);
    CHECK(round_robin_rounds(0) == 0);
    CHECK(round_robin_rounds(1) == 0);
    CHECK(round_robin_rounds(2) == 1);
    CHECK(round_robin_rounds(3) == 3);
    CHECK(round_robin_rounds(4) == 3);
    CHECK(round_robin_rounds(11) == 11);
    CHECK(round_robin_rounds(12) == 11);
    CHECK(round_robin_schedule(0).empty());
    CHECK(round_robin_schedule(1).empty());
    CHECK(round_robin_schedule(-1).empty());
}

TEST_CASE("round_robin: 4, 6, 8 and 12 players give the published Berger tables")
{
    // 4 players, round 1: 1-4, 2-3; round 2: 4-3, 1-2; round 3: 2-4, 3-1.
    CHECK(round_robin_schedule(4)[0] == round_pairings{board(0, 3), board(1, 2)});
    SUBCASE("4") { check_schedule_equals(4, parse_table(berger_4)); }
    SUBCASE("6") { check_schedule_equals(6, parse_table(berger_6)); }
    SUBCASE("8") { check_schedule_equals(8, parse_table(berger_8)); }
    SUBCASE("12") { check_schedule_equals(12, parse_table(berger_12)); }
    SUBCASE("2") { check_schedule_equals(2, {{board(0, 1)}}); }
}

TEST_CASE("round_robin: odd n plays the n+1 table with player n+1 as the bye, listed last")
{
    // 5 players: the 6-player table, each meeting with player 6 turned into a bye.
    const std::vector<round_pairings> expected = {
        {board(1, 4), board(2, 3), bye(0)}, // 1-6 2-5 3-4
        {board(4, 2), board(0, 1), bye(3)}, // 6-4 5-3 1-2
        {board(2, 0), board(3, 4), bye(1)}, // 2-6 3-1 4-5
        {board(0, 3), board(1, 2), bye(4)}, // 6-5 1-4 2-3
        {board(3, 1), board(4, 0), bye(2)}, // 3-6 4-2 5-1
    };
    check_schedule_equals(5, expected);
    // 3 players: the 4-player table.
    check_schedule_equals(3, {{board(1, 2), bye(0)}, {board(0, 1), bye(2)}, {board(2, 0), bye(1)}});
}

TEST_CASE("round_robin: every schedule from 2 to 12 players is a complete, fair cycle")
{
    for (int n = 2; n <= 12; ++n) {
        INFO(n, " players");
        const std::vector<round_pairings> schedule = round_robin_schedule(n);
        CHECK(static_cast<int>(schedule.size()) == (n % 2 == 0 ? n - 1 : n));

        std::map<std::pair<int, int>, int> meetings;
        std::vector<int> byes(n, 0), listed_first(n, 0), listed_second(n, 0);
        for (std::size_t r = 0; r < schedule.size(); ++r) {
            INFO("round ", r + 1);
            const round_pairings& boards = schedule[r];
            std::vector<int> appearances(n, 0);
            int byes_this_round = 0;
            for (std::size_t b = 0; b < boards.size(); ++b) {
                const pairing& p = boards[b];
                REQUIRE(p.first >= 0);
                REQUIRE(p.first < n);
                ++appearances[p.first];
                if (!p.second) {
                    ++byes_this_round;
                    ++byes[p.first];
                    CHECK(b + 1 == boards.size()); // the bye is listed last
                    continue;
                }
                REQUIRE(*p.second >= 0);
                REQUIRE(*p.second < n);
                ++appearances[*p.second];
                ++listed_first[p.first];
                ++listed_second[*p.second];
                ++meetings[std::minmax(p.first, *p.second)];
            }
            CHECK(byes_this_round == n % 2);
            // Nobody plays twice in a round, and (with the bye) everyone is in every round.
            CHECK(std::all_of(appearances.begin(), appearances.end(), [](int a) { return a == 1; }));
        }
        CHECK(static_cast<int>(meetings.size()) == n * (n - 1) / 2);
        for (const auto& [players, count] : meetings) {
            INFO("players ", players.first, " and ", players.second);
            CHECK(count == 1);
        }
        for (int p = 0; p < n; ++p) {
            INFO("player ", p);
            CHECK(byes[p] == n % 2);
            // The Berger tables balance colours: half the games each, one extra for half of
            // the players when the number of games is odd.
            CHECK(std::abs(listed_first[p] - listed_second[p]) == (n - 1) % 2);
        }
    }
}
