// The Berger tables as a formula. With n players (n even; odd n gets the dummy n), m = n-1
// and numbers 1..n as in the published tables: in round r the pivot player
// p = ((r-1) * n/2) mod m + 1 meets n on board 1 (p listed first in odd rounds, n in even
// ones), and board b = 2..n/2 pairs p+(b-1) (listed first) with p-(b-1), both taken mod m
// into 1..m. This reproduces FIDE C.05 Annex 1 exactly (see tests/core/round_robin_tests.cpp).
#include "quarto/core/tournament/round_robin.hpp"

#include <optional>
#include <utility>

namespace quarto::tournament {

namespace {

// x mod m, into 1..m.
int wrap(int x, int m) { return ((x - 1) % m + m) % m + 1; }

struct berger_table {
    int size; // even: the players, plus the dummy when their number is odd

    int circle() const { return size - 1; }
    int pivot(int round) const { return (round - 1) * (size / 2) % circle() + 1; }

    // Board `board` (1-based) of round `round`, as 1-based table numbers.
    std::pair<int, int> board_numbers(int round, int board) const
    {
        const int p = pivot(round);
        if (board == 1) return round % 2 == 1 ? std::pair{p, size} : std::pair{size, p};
        return {wrap(p + (board - 1), circle()), wrap(p - (board - 1), circle())};
    }
};

round_pairings berger_round(const berger_table& table, int round, int players)
{
    round_pairings boards;
    std::optional<pairing> bye;
    for (int board = 1; board <= table.size / 2; ++board) {
        const auto [first, second] = table.board_numbers(round, board);
        if (second > players) bye = pairing{first - 1, std::nullopt};
        else if (first > players) bye = pairing{second - 1, std::nullopt};
        else boards.push_back(pairing{first - 1, second - 1});
    }
    if (bye) boards.push_back(*bye);
    return boards;
}

} // namespace

int round_robin_rounds(int players)
{
    if (players < 2) return 0;
    return players % 2 == 0 ? players - 1 : players;
}

std::vector<round_pairings> round_robin_schedule(int players)
{
    std::vector<round_pairings> schedule;
    const int rounds = round_robin_rounds(players);
    const berger_table table{players + players % 2};
    for (int round = 1; round <= rounds; ++round) schedule.push_back(berger_round(table, round, players));
    return schedule;
}

} // namespace quarto::tournament
