// Edmonds' blossom algorithm for maximum cardinality matching. From each free vertex a BFS
// grows an alternating tree; an edge closing an odd cycle (a blossom) contracts it into its
// base, so the search continues as if the cycle were one vertex; reaching a free vertex
// augments the matching along the tree path.
#include "quarto/core/tournament/matching.hpp"

#include <algorithm>
#include <numeric>

namespace quarto::tournament {

namespace {

constexpr int none = -1;

class blossom_search {
public:
    explicit blossom_search(const std::vector<std::vector<int>>& adjacency)
        : adjacency_{adjacency}, size_{adjacency.size()}, mate_(size_, none), parent_(size_),
          base_(size_), outer_(size_), in_blossom_(size_), on_root_path_(size_)
    {
    }

    std::vector<int> run()
    {
        match_greedily();
        for (int v = 0; v < static_cast<int>(size_); ++v)
            if (mate_[v] == none)
                if (const int end = find_augmenting_path(v); end != none) augment(end);
        return mate_;
    }

private:
    // A maximal matching to start from leaves few augmenting searches to do (dense graphs of
    // unplayed pairs, the usual case, are matched almost completely by it).
    void match_greedily()
    {
        for (int v = 0; v < static_cast<int>(size_); ++v) {
            if (mate_[v] != none) continue;
            const auto free = std::find_if(adjacency_[v].begin(), adjacency_[v].end(),
                                           [&](int w) { return mate_[w] == none; });
            if (free == adjacency_[v].end()) continue;
            mate_[v] = *free;
            mate_[*free] = v;
        }
    }

    // BFS from `root`; returns a free vertex reached by an augmenting path, or none.
    int find_augmenting_path(int root)
    {
        std::fill(parent_.begin(), parent_.end(), none);
        std::fill(outer_.begin(), outer_.end(), false);
        std::iota(base_.begin(), base_.end(), 0);
        queue_.clear();
        make_outer(root);
        for (std::size_t head = 0; head < queue_.size(); ++head) {
            const int v = queue_[head];
            for (const int to : adjacency_[v]) {
                if (base_[v] == base_[to] || mate_[v] == to) continue;
                if (to == root || (mate_[to] != none && parent_[mate_[to]] != none)) {
                    contract_blossom(v, to); // `to` is outer too: an odd cycle
                } else if (parent_[to] == none) {
                    parent_[to] = v;
                    if (mate_[to] == none) return to;
                    make_outer(mate_[to]);
                }
            }
        }
        return none;
    }

    void make_outer(int v)
    {
        outer_[v] = true;
        queue_.push_back(v);
    }

    void contract_blossom(int v, int to)
    {
        const int base = common_base(v, to);
        std::fill(in_blossom_.begin(), in_blossom_.end(), false);
        mark_path(v, base, to);
        mark_path(to, base, v);
        for (std::size_t i = 0; i < size_; ++i)
            if (in_blossom_[base_[i]]) {
                base_[i] = base;
                if (!outer_[i]) make_outer(static_cast<int>(i));
            }
    }

    // The base of the blossom: where the tree paths from a and b to the root meet.
    int common_base(int a, int b)
    {
        std::fill(on_root_path_.begin(), on_root_path_.end(), false);
        for (;;) {
            a = base_[a];
            on_root_path_[a] = true;
            if (mate_[a] == none) break; // the root
            a = parent_[mate_[a]];
        }
        for (;;) {
            b = base_[b];
            if (on_root_path_[b]) return b;
            b = parent_[mate_[b]];
        }
    }

    // Walks from v down to the blossom's base, marking the bases passed and pointing the
    // inner vertices' parents across the closing edge so paths through the blossom exist.
    void mark_path(int v, int base, int child)
    {
        while (base_[v] != base) {
            in_blossom_[base_[v]] = true;
            in_blossom_[base_[mate_[v]]] = true;
            parent_[v] = child;
            child = mate_[v];
            v = parent_[mate_[v]];
        }
    }

    void augment(int v)
    {
        while (v != none) {
            const int previous = parent_[v];
            const int next = mate_[previous];
            mate_[v] = previous;
            mate_[previous] = v;
            v = next;
        }
    }

    const std::vector<std::vector<int>>& adjacency_;
    std::size_t size_;
    std::vector<int> mate_;
    std::vector<int> parent_; // the tree edge into each inner vertex
    std::vector<int> base_;   // the base of the blossom each vertex is contracted into
    std::vector<bool> outer_; // even distance from the root (or inside a blossom)
    std::vector<bool> in_blossom_;
    std::vector<bool> on_root_path_;
    std::vector<int> queue_;
};

} // namespace

std::vector<int> maximum_matching(const std::vector<std::vector<int>>& adjacency)
{
    return blossom_search{adjacency}.run();
}

} // namespace quarto::tournament
