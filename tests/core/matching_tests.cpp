// The blossom matcher against exhaustive search on random graphs, plus the odd cycles that
// defeat a matcher without blossom contraction.
#include <algorithm>
#include <random>
#include <vector>

#include "quarto/core/tournament/matching.hpp"
#include "tournament_support.hpp"

using namespace quarto::tournament;

namespace {

using graph = std::vector<std::vector<int>>;

graph from_edges(int vertices, const std::vector<std::pair<int, int>>& edges)
{
    graph g(vertices);
    for (const auto& [u, v] : edges) {
        g[u].push_back(v);
        g[v].push_back(u);
    }
    return g;
}

bool adjacent(const graph& g, int u, int v) { return std::find(g[u].begin(), g[u].end(), v) != g[u].end(); }

// The size of a maximum matching, by trying everything: the lowest free vertex is either
// left out or matched with each neighbour in turn.
int brute_force_matching_size(const graph& g, std::vector<bool>& used)
{
    const auto first = std::find(used.begin(), used.end(), false);
    if (first == used.end()) return 0;
    const int v = static_cast<int>(first - used.begin());
    used[v] = true;
    int best = brute_force_matching_size(g, used);
    for (const int w : g[v])
        if (!used[w]) {
            used[w] = true;
            best = std::max(best, 1 + brute_force_matching_size(g, used));
            used[w] = false;
        }
    used[v] = false;
    return best;
}

// Mates are mutual, along edges; returns the number of matched pairs.
int checked_matching_size(const graph& g, const std::vector<int>& mate)
{
    REQUIRE(mate.size() == g.size());
    int matched = 0;
    for (int v = 0; v < static_cast<int>(g.size()); ++v) {
        if (mate[v] < 0) continue;
        REQUIRE(mate[v] < static_cast<int>(g.size()));
        CHECK(mate[mate[v]] == v);
        CHECK(adjacent(g, v, mate[v]));
        ++matched;
    }
    return matched / 2;
}

} // namespace

TEST_CASE("matching: odd cycles need blossoms")
{
    // A triangle 0 1 2 with a tail 2-3 and a pendant 0-4: the perfect-ish matching 0-4, 1-2
    // leaves 3; the maximum is 2 pairs whatever the order explored.
    const graph triangle = from_edges(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {0, 4}});
    CHECK(checked_matching_size(triangle, maximum_matching(triangle)) == 2);
    // Two 5-cycles joined by an edge between them: 10 vertices, a perfect matching exists
    // only through the bridge.
    const graph two_pentagons = from_edges(
        10, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 5}, {0, 5}});
    CHECK(checked_matching_size(two_pentagons, maximum_matching(two_pentagons)) == 5);
    CHECK(maximum_matching({}).empty());
    CHECK(maximum_matching(graph(3)) == std::vector<int>{-1, -1, -1});
}

TEST_CASE("matching: maximum on 2000 random graphs, checked by exhaustive search")
{
    std::mt19937 random{20240611};
    for (int trial = 0; trial < 2000; ++trial) {
        const int vertices = std::uniform_int_distribution{1, 11}(random);
        const double density = std::uniform_real_distribution{0.1, 0.9}(random);
        std::bernoulli_distribution has_edge{density};
        graph g(vertices);
        for (int u = 0; u < vertices; ++u)
            for (int v = u + 1; v < vertices; ++v)
                if (has_edge(random)) {
                    g[u].push_back(v);
                    g[v].push_back(u);
                }
        for (auto& neighbours : g) std::shuffle(neighbours.begin(), neighbours.end(), random);
        INFO("trial ", trial, ", ", vertices, " vertices");
        std::vector<bool> used(vertices, false);
        CHECK(checked_matching_size(g, maximum_matching(g)) == brute_force_matching_size(g, used));
    }
}
