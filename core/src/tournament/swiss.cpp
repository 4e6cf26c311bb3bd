// Swiss pairing as a greedy walk down the ranking with an exact look-ahead: each board takes
// the top unpaired player's most preferred opponent for which everyone still unpaired can be
// paired with no more rematches than the best pairing needs. The look-ahead is a maximum
// matching on the pairs not yet played, so no choice ever leads into a dead end.
#include "quarto/core/tournament/swiss.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "quarto/core/tournament/history.hpp"
#include "quarto/core/tournament/matching.hpp"

namespace quarto::tournament {

namespace {

// What pairing needs to know about the games so far.
class swiss_history {
public:
    swiss_history(int players, std::span<const game_outcome> history)
        : players_{players}, half_points_{score_half_points(players, history)},
          byes_{byes_received(players, history)}, first_balance_(players, 0),
          met_(static_cast<std::size_t>(players) * static_cast<std::size_t>(players), false)
    {
        for (const game_outcome& g : history) {
            if (!g.b || check_game(players, g)) continue;
            ++first_balance_[g.a];
            --first_balance_[*g.b];
            met_[index(g.a, *g.b)] = true;
            met_[index(*g.b, g.a)] = true;
        }
    }

    int half_points(int p) const { return half_points_[p]; }
    int byes(int p) const { return byes_[p]; }
    // Times listed first minus times listed second.
    int first_balance(int p) const { return first_balance_[p]; }
    bool have_met(int p, int q) const { return met_[index(p, q)]; }

private:
    std::size_t index(int p, int q) const
    {
        return static_cast<std::size_t>(p) * static_cast<std::size_t>(players_) + static_cast<std::size_t>(q);
    }

    int players_;
    std::vector<int> half_points_;
    std::vector<int> byes_;
    std::vector<int> first_balance_;
    std::vector<bool> met_;
};

// Active players, best first: half-points, then registration order.
std::vector<int> ranked_active_players(int players, std::span<const bool> active, const swiss_history& record)
{
    std::vector<int> ranked;
    for (int p = 0; p < players && static_cast<std::size_t>(p) < active.size(); ++p)
        if (active[p]) ranked.push_back(p);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](int p, int q) { return record.half_points(p) > record.half_points(q); });
    return ranked;
}

std::vector<int> without(std::span<const int> players, int left_out, int also_left_out = -1)
{
    std::vector<int> rest;
    rest.reserve(players.size());
    for (const int p : players)
        if (p != left_out && p != also_left_out) rest.push_back(p);
    return rest;
}

// The fewest rematches with which `group` (even size) can be paired: whoever a maximum
// matching of fresh pairs leaves over must replay someone.
int fewest_rematches(std::span<const int> group, const swiss_history& record)
{
    const std::size_t size = group.size();
    std::vector<std::vector<int>> fresh(size);
    for (std::size_t i = 0; i < size; ++i)
        for (std::size_t j = i + 1; j < size; ++j)
            if (!record.have_met(group[i], group[j])) {
                fresh[i].push_back(static_cast<int>(j));
                fresh[j].push_back(static_cast<int>(i));
            }
    const std::vector<int> mate = maximum_matching(fresh);
    const auto matched = std::count_if(mate.begin(), mate.end(), [](int m) { return m >= 0; });
    return static_cast<int>(size / 2) - static_cast<int>(matched / 2);
}

// Criteria 1 and 2: the fewest rematches for the others, then the fewest byes so far, then
// the lowest ranked.
int choose_bye(std::span<const int> ranked, const swiss_history& record)
{
    int chosen = ranked.back();
    std::tuple<int, int, std::ptrdiff_t> best_key{};
    for (std::size_t position = 0; position < ranked.size(); ++position) {
        const int player = ranked[position];
        const std::tuple key{fewest_rematches(without(ranked, player), record), record.byes(player),
                             -static_cast<std::ptrdiff_t>(position)};
        if (position == 0 || key < best_key) {
            best_key = key;
            chosen = player;
        }
    }
    return chosen;
}

// The opponents of unpaired[0] (the top unpaired player) in order of preference: their own
// score group in Dutch order, then everyone below in ranking order.
std::vector<int> preferred_opponents(std::span<const int> unpaired, const swiss_history& record)
{
    const int top_points = record.half_points(unpaired.front());
    const auto group_end = std::find_if(unpaired.begin(), unpaired.end(),
                                        [&](int p) { return record.half_points(p) != top_points; });
    const std::size_t group_size = static_cast<std::size_t>(group_end - unpaired.begin());
    const std::size_t bottom_half = std::max<std::size_t>(group_size / 2, 1);

    std::vector<int> order;
    order.reserve(unpaired.size());
    for (std::size_t i = bottom_half; i < group_size; ++i) order.push_back(unpaired[i]);
    for (std::size_t i = bottom_half - 1; i >= 1; --i) order.push_back(unpaired[i]);
    for (std::size_t i = group_size; i < unpaired.size(); ++i) order.push_back(unpaired[i]);
    return order;
}

int first_feasible_opponent(std::span<const int> unpaired, int rematches_left, const swiss_history& record)
{
    const int top = unpaired.front();
    const std::vector<int> candidates = preferred_opponents(unpaired, record);
    for (const int candidate : candidates) {
        const int rematch = record.have_met(top, candidate) ? 1 : 0;
        if (rematch + fewest_rematches(without(unpaired, top, candidate), record) <= rematches_left)
            return candidate;
    }
    // Unreachable: the opponent `top` has in a best pairing of `unpaired` always passes.
    return candidates.front();
}

// The one listed first less often so far goes first; the higher ranked on a tie.
pairing oriented(int higher_ranked, int lower_ranked, const swiss_history& record)
{
    if (record.first_balance(lower_ranked) < record.first_balance(higher_ranked))
        return pairing{lower_ranked, higher_ranked};
    return pairing{higher_ranked, lower_ranked};
}

round_pairings pair_top_down(std::vector<int> unpaired, const swiss_history& record)
{
    round_pairings boards;
    int rematches_left = fewest_rematches(unpaired, record);
    while (unpaired.size() >= 2) {
        const int top = unpaired.front();
        const int opponent = first_feasible_opponent(unpaired, rematches_left, record);
        if (record.have_met(top, opponent)) --rematches_left;
        boards.push_back(oriented(top, opponent, record));
        unpaired = without(unpaired, top, opponent);
    }
    return boards;
}

} // namespace

round_pairings swiss_pairing(int players, std::span<const game_outcome> history, std::span<const bool> active)
{
    if (players <= 0) return {};
    const swiss_history record{players, history};
    std::vector<int> ranked = ranked_active_players(players, active, record);
    std::optional<int> bye;
    if (ranked.size() % 2 == 1) {
        bye = choose_bye(ranked, record);
        ranked = without(ranked, *bye);
    }
    round_pairings boards = pair_top_down(std::move(ranked), record);
    if (bye) boards.push_back(pairing{*bye, std::nullopt});
    return boards;
}

} // namespace quarto::tournament
