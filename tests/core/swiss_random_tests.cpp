// Swiss pairing over many random tournaments, every round checked against exhaustive search.
//
// The property checked is the whole documented rule (swiss.hpp), each criterion decided by
// brute force over all pairings of the active players (at most 16, so a memoised search
// over subsets is exact and fast):
//   - every active player is on exactly one board or has the bye; nobody else appears;
//   - criterion 1: the pairing repeats exactly as many pairs as the best pairing, over every
//     choice of bye;
//   - criterion 2: the bye minimises (rematches needed by the others, byes so far, rank from
//     the bottom);
//   - criteria 3 and 4: boards are formed top down by the highest-ranked unpaired player, whose
//     opponent is the first, in the order (score difference, then Dutch order in the own score
//     group or ranking order below), with which the rest can still be paired with no more
//     rematches than the best pairing;
//   - the player listed first has the lower first-minus-second balance, the higher ranked on
//     a tie.
// The run also counts the situations it met (forced rematches, second byes, floats, choices
// the look-ahead overruled), so it fails if the random tournaments stop exercising them.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "tournament_support.hpp"

using namespace quarto::tournament;
using namespace quarto::tournament::test;

namespace {

constexpr int max_players = 16;

// A simulated tournament, summed independently of the code under test.
struct tournament_state {
    explicit tournament_state(int n)
        : players{n}, half_points(n, 0), byes(n, 0), first_balance(n, 0),
          met(n, std::vector<bool>(n, false))
    {
        active.fill(false);
        std::fill_n(active.begin(), n, true);
    }

    void record(const game_outcome& g)
    {
        history.push_back(g);
        half_points[g.a] += g.half_points_a;
        if (!g.b) {
            ++byes[g.a];
            return;
        }
        half_points[*g.b] += g.half_points_b;
        ++first_balance[g.a];
        --first_balance[*g.b];
        met[g.a][*g.b] = met[*g.b][g.a] = true;
    }

    int active_count() const { return static_cast<int>(std::count(active.begin(), active.end(), true)); }

    int players;
    std::vector<game_outcome> history;
    std::array<bool, max_players> active{};
    std::vector<int> half_points;
    std::vector<int> byes;
    std::vector<int> first_balance;
    std::vector<std::vector<bool>> met;
};

// Active players, best first: half-points, then index.
std::vector<int> ranking(const tournament_state& t)
{
    std::vector<int> ranked;
    for (int p = 0; p < t.players; ++p)
        if (t.active[p]) ranked.push_back(p);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](int p, int q) { return t.half_points[p] > t.half_points[q]; });
    return ranked;
}

using player_set = std::uint32_t; // bit i: the player ranked i-th

// Exhaustive answers about subsets of the ranked active players.
class exhaustive_search {
public:
    exhaustive_search(const tournament_state& t, const std::vector<int>& ranked)
        : state_{t}, ranked_{ranked}, memo_(std::size_t{1} << ranked.size(), -1)
    {
    }

    // The fewest rematches over every pairing of `set` (even size).
    int fewest_rematches(player_set set)
    {
        if (set == 0) return 0;
        std::int8_t& known = memo_[set];
        if (known >= 0) return known;
        const int first = std::countr_zero(set);
        const player_set rest = set & ~bit(first);
        int best = max_players;
        for (int other = 0; other < static_cast<int>(ranked_.size()); ++other)
            if (rest & bit(other))
                best = std::min(best, rematch(first, other) + fewest_rematches(rest & ~bit(other)));
        known = static_cast<std::int8_t>(best);
        return best;
    }

    int rematch(int rank_a, int rank_b) const { return state_.met[ranked_[rank_a]][ranked_[rank_b]] ? 1 : 0; }
    static player_set bit(int rank) { return player_set{1} << rank; }

private:
    const tournament_state& state_;
    const std::vector<int>& ranked_;
    std::vector<std::int8_t> memo_;
};

struct coverage {
    int rounds = 0;
    int forced_rematches = 0;   // rounds where the best pairing repeats a pair
    int second_byes = 0;        // byes to a player who had one
    int byes_not_to_the_last = 0;
    int floats = 0;             // boards across score groups
    int overruled_choices = 0;  // boards where the look-ahead rejected a preferred opponent
    int withdrawals = 0;
};

// The order in which `top` (rank 0 of `unpaired`, ranks ascending) prefers the others: own
// score group in Dutch order, then everyone below in ranking order.
std::vector<int> dutch_preference(const std::vector<int>& unpaired, const tournament_state& t,
                                  const std::vector<int>& ranked)
{
    const int top_points = t.half_points[ranked[unpaired.front()]];
    std::size_t group = 0;
    while (group < unpaired.size() && t.half_points[ranked[unpaired[group]]] == top_points) ++group;
    const std::size_t half = std::max<std::size_t>(group / 2, 1);
    std::vector<int> order;
    for (std::size_t i = half; i < group; ++i) order.push_back(unpaired[i]);
    for (std::size_t i = half - 1; i >= 1; --i) order.push_back(unpaired[i]);
    for (std::size_t i = group; i < unpaired.size(); ++i) order.push_back(unpaired[i]);
    return order;
}

void check_round(const tournament_state& t, const round_pairings& boards, coverage& seen)
{
    const std::vector<int> ranked = ranking(t);
    const int m = static_cast<int>(ranked.size());
    std::vector<int> rank_of(t.players, -1);
    for (int r = 0; r < m; ++r) rank_of[ranked[r]] = r;
    INFO("boards ", boards_text(boards));

    // Everyone active exactly once, nobody else; the bye last, and only with an odd number.
    std::vector<int> appearances(t.players, 0);
    std::optional<int> bye_rank;
    std::vector<std::pair<int, int>> real_boards; // ranks: (higher, lower)
    for (std::size_t b = 0; b < boards.size(); ++b) {
        const pairing& p = boards[b];
        REQUIRE(p.first >= 0);
        REQUIRE(p.first < t.players);
        ++appearances[p.first];
        if (!p.second) {
            CHECK(b + 1 == boards.size());
            bye_rank = rank_of[p.first];
            continue;
        }
        REQUIRE(*p.second >= 0);
        REQUIRE(*p.second < t.players);
        ++appearances[*p.second];
        const int a = rank_of[p.first], c = rank_of[*p.second];
        REQUIRE(a >= 0);
        REQUIRE(c >= 0);
        real_boards.emplace_back(std::min(a, c), std::max(a, c));
        // Listed first: the lower first-minus-second balance, the higher ranked on a tie.
        const int higher = ranked[std::min(a, c)], lower = ranked[std::max(a, c)];
        const int expected_first = t.first_balance[lower] < t.first_balance[higher] ? lower : higher;
        CHECK(p.first == expected_first);
    }
    for (int p = 0; p < t.players; ++p) {
        INFO("player ", p);
        CHECK(appearances[p] == (t.active[p] ? 1 : 0));
    }
    REQUIRE(bye_rank.has_value() == (m % 2 == 1));

    exhaustive_search search{t, ranked};
    const player_set everyone = (player_set{1} << m) - 1;

    // Criteria 1 and 2: rematches over every choice of bye, then byes so far, then the lowest.
    int fewest = 0;
    if (bye_rank) {
        auto key = [&](int r) {
            return std::tuple{search.fewest_rematches(everyone & ~exhaustive_search::bit(r)), t.byes[ranked[r]], -r};
        };
        int best_bye = 0;
        for (int r = 1; r < m; ++r)
            if (key(r) < key(best_bye)) best_bye = r;
        CHECK(*bye_rank == best_bye);
        fewest = std::get<0>(key(best_bye));
        if (t.byes[ranked[*bye_rank]] > 0) ++seen.second_byes;
        if (*bye_rank != m - 1) ++seen.byes_not_to_the_last;
    } else {
        fewest = search.fewest_rematches(everyone);
    }
    int ours = 0;
    for (const auto& [a, c] : real_boards) ours += search.rematch(a, c);
    CHECK(ours == fewest);
    if (fewest > 0) ++seen.forced_rematches;

    // Criteria 3 and 4: top down, each board the first feasible opponent in preference order.
    std::vector<int> unpaired; // ranks, ascending
    for (int r = 0; r < m; ++r)
        if (!bye_rank || r != *bye_rank) unpaired.push_back(r);
    int rematches_so_far = 0;
    for (const auto& [top, opponent] : real_boards) {
        REQUIRE(!unpaired.empty());
        CHECK(top == unpaired.front());
        player_set rest = 0;
        for (const int r : unpaired) rest |= exhaustive_search::bit(r);
        rest &= ~exhaustive_search::bit(top);
        auto feasible = [&](int candidate) {
            return rematches_so_far + search.rematch(top, candidate) +
                       search.fewest_rematches(rest & ~exhaustive_search::bit(candidate)) <=
                   fewest;
        };
        const std::vector<int> preference = dutch_preference(unpaired, t, ranked);
        const auto chosen = std::find(preference.begin(), preference.end(), opponent);
        REQUIRE(chosen != preference.end());
        // Closest in score first: no feasible candidate nearer in score than the opponent.
        const int distance = std::abs(t.half_points[ranked[top]] - t.half_points[ranked[opponent]]);
        for (const int q : preference)
            if (std::abs(t.half_points[ranked[top]] - t.half_points[ranked[q]]) < distance) CHECK_FALSE(feasible(q));
        // And the first feasible in the documented order.
        CHECK(feasible(opponent));
        for (auto q = preference.begin(); q != chosen; ++q) CHECK_FALSE(feasible(*q));
        if (chosen != preference.begin()) ++seen.overruled_choices;
        if (distance > 0) ++seen.floats;

        rematches_so_far += search.rematch(top, opponent);
        std::erase(unpaired, top);
        std::erase(unpaired, opponent);
    }
    CHECK(unpaired.empty());
    ++seen.rounds;
}

int random_result(std::mt19937& random)
{
    const int roll = std::uniform_int_distribution{0, 9}(random);
    return roll < 4 ? 2 : roll < 6 ? 1 : 0; // 40% wins, 20% draws, 40% losses for the first
}

void play_round(tournament_state& t, const round_pairings& boards, int round, bool two_games,
                std::mt19937& random)
{
    for (const pairing& p : boards) {
        if (!p.second) {
            t.record(bye_game(round, p.first));
            continue;
        }
        t.record(game(round, p.first, *p.second, random_result(random)));
        if (two_games) t.record(game(round, *p.second, p.first, random_result(random)));
    }
}

void withdraw_someone(tournament_state& t, std::mt19937& random)
{
    std::vector<int> active;
    for (int p = 0; p < t.players; ++p)
        if (t.active[p]) active.push_back(p);
    t.active[active[std::uniform_int_distribution<std::size_t>{0, active.size() - 1}(random)]] = false;
}

} // namespace

TEST_CASE("swiss: 500 random tournaments of 3 to 16 players follow the rule, checked exhaustively")
{
    std::mt19937 random{7391};
    coverage seen;
    for (int tournament = 0; tournament < 500; ++tournament) {
        const int players = std::uniform_int_distribution{3, max_players}(random);
        const int rounds = std::uniform_int_distribution{1, players - 1}(random);
        const bool two_games = std::bernoulli_distribution{0.25}(random);
        tournament_state t{players};
        for (int round = 1; round <= rounds; ++round) {
            if (round > 1 && t.active_count() > 2 && std::bernoulli_distribution{0.12}(random)) {
                withdraw_someone(t, random);
                ++seen.withdrawals;
            }
            INFO("tournament ", tournament, ": ", players, " players, round ", round, " of ", rounds,
                 two_games ? ", two games per pairing" : "");
            const round_pairings boards =
                swiss_pairing(players, t.history, std::span<const bool>{t.active.data(), std::size_t(players)});
            check_round(t, boards, seen);
            play_round(t, boards, round, two_games, random);
        }
    }
    MESSAGE("rounds ", seen.rounds, ", forced rematches ", seen.forced_rematches, ", second byes ",
            seen.second_byes, ", byes not to the last ", seen.byes_not_to_the_last, ", floats ", seen.floats,
            ", overruled ", seen.overruled_choices, ", withdrawals ", seen.withdrawals);
    CHECK(seen.forced_rematches > 0);
    CHECK(seen.second_byes > 0);
    CHECK(seen.byes_not_to_the_last > 0);
    CHECK(seen.floats > 0);
    CHECK(seen.overruled_choices > 0);
    CHECK(seen.withdrawals > 0);
}

TEST_CASE("swiss: 40 players over 19 rounds never meet twice")
{
    // After r < 20 rounds everyone still has at least 39 - r >= 20 = n/2 fresh opponents, so
    // (Dirac) the graph of fresh pairs has a Hamiltonian cycle, hence a perfect matching: a
    // rematch is never needed, and must never happen.
    constexpr int players = 40;
    std::mt19937 random{99};
    std::array<bool, players> active{};
    active.fill(true);
    std::vector<game_outcome> history;
    std::vector<std::vector<bool>> met(players, std::vector<bool>(players, false));
    for (int round = 1; round <= 19; ++round) {
        INFO("round ", round);
        const round_pairings boards = swiss_pairing(players, history, active);
        REQUIRE(boards.size() == players / 2);
        std::vector<int> appearances(players, 0);
        for (const pairing& p : boards) {
            REQUIRE(p.second.has_value());
            CHECK_FALSE(met[p.first][*p.second]);
            met[p.first][*p.second] = met[*p.second][p.first] = true;
            ++appearances[p.first];
            ++appearances[*p.second];
            history.push_back(game(round, p.first, *p.second, random_result(random)));
        }
        CHECK(std::all_of(appearances.begin(), appearances.end(), [](int a) { return a == 1; }));
    }
}
