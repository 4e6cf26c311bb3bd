// Maximum cardinality matching in a general graph: the exact test of "can these players all
// be paired without a rematch" behind the Swiss pairing.
#pragma once

#include <vector>

namespace quarto::tournament {

// Edmonds' blossom algorithm, O(V^3). adjacency[v] lists v's neighbours (symmetric, no loops).
// Returns mate[v]: the vertex matched with v, or -1.
std::vector<int> maximum_matching(const std::vector<std::vector<int>>& adjacency);

} // namespace quarto::tournament
