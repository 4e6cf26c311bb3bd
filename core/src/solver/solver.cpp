#include "quarto/core/solver/solver.hpp"

#include <algorithm>
#include <bit>

#include "symmetry.hpp"
#include "table.hpp"
#include "threats.hpp"

namespace quarto::solver {

namespace {

// Scores on one scale for every node: a win made by the P-th placement scores max_score - P
// for the winner and the opposite for the loser; a draw (or the horizon) scores 0.
constexpr int max_score = 17;
constexpr int infinity = 100;
constexpr std::uint64_t poll_every = 4096;
// Below this many empty squares the table's key skips the board symmetries: the search below
// is cheap, and the 32 permutations would cost more than the transpositions they find.
constexpr int symmetric_keys_from = 8;
// Below this, no table at all: a few placements are searched faster than a cache miss.
constexpr int table_from = 7;
// From this many empty squares a node orders its moves by their history (moves_by_history).
constexpr int ordered_from = 7;

struct stopped {};

evaluation evaluation_of(int score, int placed)
{
    if (score > 0) return {game_value::win, static_cast<std::uint8_t>(max_score - score - placed)};
    if (score < 0) return {game_value::loss, static_cast<std::uint8_t>(max_score + score - placed)};
    return {game_value::draw, static_cast<std::uint8_t>(board_squares - placed)};
}

} // namespace

struct solver::impl {
    explicit impl(std::size_t bytes) : table{bytes} {}

    detail::table table;
    // Per search.
    detail::pattern_set patterns{};
    std::span<const detail::square_permutation> group;
    std::uint8_t counted = 0xF;
    const limits* budget = nullptr;
    std::uint64_t nodes = 0;
    std::uint64_t next_poll = 0;
    bool stoppable = true; // the first ply (a few hundred nodes) always finishes: there is a move
    // By empty squares: the move that last cut a search off there, tried first where the table
    // has no move (a killer move: at 11 empty squares it saves about a third of the nodes).
    std::array<std::uint8_t, board_squares + 1> killers{};
    // By square << 4 | piece: the sum of depth squared over the cut-offs that move made, this
    // search (the history heuristic: moves_by_history).
    std::array<std::uint32_t, 256> history{};

    void begin(const rules& r, const limits& l)
    {
        patterns = detail::pattern_set{r};
        group = detail::symmetries(r.squares);
        counted = r.attributes.bits();
        budget = &l;
        nodes = 0;
        next_poll = poll_every;
        table.new_search(r.squares, counted);
        killers.fill(detail::no_best);
        history.fill(0);
    }

    void count_node()
    {
        if (++nodes < next_poll) return;
        next_poll = nodes + poll_every;
        if (!stoppable) return;
        if (nodes >= budget->max_nodes || (budget->should_stop && budget->should_stop())) throw stopped{};
    }

    // The value for the player to place `hand` on `s`, within (alpha, beta), looking `depth`
    // placements ahead (this one included). Fail-soft. `hand` completes nothing on `s`: every
    // caller gives only pieces outside deadly() (a give among them loses at once).
    int search(const detail::node& s, std::uint8_t hand, int alpha, int beta, int depth)
    {
        count_node();
        const int placed = s.placed;
        // The last square and no Quarto, or no pattern any piece could complete: a draw.
        if (placed == board_squares - 1 || !s.live) return 0;
        // No win now: the best left is a win at our next placement, the worst a loss at theirs.
        const int most = max_score - (placed + 3);
        const int least = -(max_score - (placed + 2));
        if (most <= alpha) return most;
        if (least >= beta) return least;
        if (depth <= 1) return std::clamp(0, least, most);

        const int empties = board_squares - placed;
        const int needed = std::min(depth, empties);
        const bool use_table = empties >= table_from;
        const auto key = use_table ? detail::key_of(s.occupied, s.with_bit, hand, patterns.relevant(s),
                                                    empties >= symmetric_keys_from ? group : group.first(1))
                                   : detail::table_key{};
        std::uint8_t hint = detail::no_best;
        if (const auto hit = use_table ? table.probe(key) : std::nullopt) {
            const bool deep_enough = hit->depth >= needed;
            if (hit->bound != detail::bound_kind::upper && (deep_enough || hit->score > 0)) alpha = std::max(alpha, int{hit->score});
            if (hit->bound != detail::bound_kind::lower && (deep_enough || hit->score < 0)) beta = std::min(beta, int{hit->score});
            if (alpha >= beta) return hit->score;
            hint = hit->best;
        }
        if (hint == detail::no_best) hint = killers[static_cast<std::size_t>(empties)];

        const int alpha_in = alpha;
        int best = -infinity;
        std::uint8_t best_move = detail::no_best;
        if (empties >= ordered_from)
            moves_by_history(s, hand, alpha, beta, depth, hint, best, best_move);
        else
            moves_in_square_order(s, hand, alpha, beta, depth, hint, best, best_move);
        if (best >= beta) killers[static_cast<std::size_t>(empties)] = best_move;
        const auto kind = best <= alpha_in ? detail::bound_kind::upper : best >= beta ? detail::bound_kind::lower : detail::bound_kind::exact;
        if (use_table) table.store(key, static_cast<std::int8_t>(best), kind, static_cast<std::uint8_t>(needed), best_move);
        return best;
    }

    // A placement after which every piece we could give wins for them (`safe` empty), or one
    // square is left and the last piece, given safely, cannot complete anything there (a draw):
    // its score needs no search.
    static void score_at_once(square sq, piece_set safe, int least, int& alpha, int& best, std::uint8_t& best_move)
    {
        const int score = safe ? 0 : least;
        if (score > best) {
            best = score;
            best_move = static_cast<std::uint8_t>(safe ? sq << 4 | std::countr_zero(safe) : sq << 4);
        }
        alpha = std::max(alpha, best);
    }

    // search()'s moves where the subtrees are small: the hinted square first, then the others in
    // order, one piece of each kind the rest of the game can tell apart.
    void moves_in_square_order(const detail::node& s, std::uint8_t hand, int& alpha, int beta, int depth,
                               std::uint8_t hint, int& best, std::uint8_t& best_move)
    {
        const int least = -(max_score - (s.placed + 2));
        const square_mask empty_squares = static_cast<square_mask>(~s.occupied);
        const square hinted = hint == detail::no_best ? 16 : static_cast<square>(hint >> 4);
        const bool use_hint = hinted < 16 && (empty_squares & bit(hinted));
        square_mask todo = use_hint ? static_cast<square_mask>(empty_squares & ~bit(hinted)) : empty_squares;
        for (int i = use_hint ? -1 : 0; best < beta; ++i) {
            square sq;
            if (i < 0) {
                sq = hinted;
            } else {
                if (!todo) break;
                sq = static_cast<square>(std::countr_zero(todo));
                todo &= static_cast<square_mask>(todo - 1);
            }
            const detail::node next = patterns.place(s, sq, hand);
            const piece_set safe = static_cast<piece_set>(s.available & ~patterns.deadly(next));
            if (!safe || next.placed == board_squares - 1) {
                score_at_once(sq, safe, least, alpha, best, best_move);
                continue;
            }
            int hinted_give = i < 0 ? hint & 0xF : -1;
            piece_set gives = safe;
            if (hinted_give >= 0 && (safe & (1u << hinted_give)))
                gives = static_cast<piece_set>(safe & ~(1u << hinted_give));
            else
                hinted_give = -1;
            const std::uint8_t relevant = patterns.relevant(next);
            unsigned kinds_given = 0;
            for (int j = hinted_give >= 0 ? -1 : 0; best < beta; ++j) {
                std::uint8_t g;
                if (j < 0) {
                    g = static_cast<std::uint8_t>(hinted_give);
                } else {
                    if (!gives) break;
                    g = static_cast<std::uint8_t>(std::countr_zero(gives));
                    gives &= static_cast<piece_set>(gives - 1);
                }
                const unsigned kind = 1u << (g & relevant);
                if (kinds_given & kind) continue;
                kinds_given |= kind;
                const int score = -search(next.without(g), g, -beta, -alpha, depth - 1);
                if (score > best) {
                    best = score;
                    best_move = static_cast<std::uint8_t>(sq << 4 | g);
                    alpha = std::max(alpha, best);
                }
            }
        }
    }

    // search()'s moves where the subtrees are large: every (square, kind of piece) listed, the
    // hinted one first, then those whose cut-offs were the deepest so far (the history
    // heuristic). A third fewer nodes at 12 and 13 empty squares than the square order
    // (bench/RESULTS.md); below ordered_from the sorting costs more than it saves.
    void moves_by_history(const detail::node& s, std::uint8_t hand, int& alpha, int beta, int depth, std::uint8_t hint,
                          int& best, std::uint8_t& best_move)
    {
        struct candidate {
            std::uint64_t order; // the history, then the list's order: no two alike
            std::uint8_t move;   // square << 4 | piece
        };
        std::array<detail::node, board_squares> next; // by square: only the empty ones are set
        std::array<candidate, 256> list;
        int count = 0;
        const int least = -(max_score - (s.placed + 2));
        const square hinted = hint == detail::no_best ? 16 : static_cast<square>(hint >> 4);
        for (square_mask todo = static_cast<square_mask>(~s.occupied); todo; todo &= static_cast<square_mask>(todo - 1)) {
            const auto sq = static_cast<square>(std::countr_zero(todo));
            next[sq] = patterns.place(s, sq, hand);
            const piece_set safe = static_cast<piece_set>(s.available & ~patterns.deadly(next[sq]));
            if (!safe || next[sq].placed == board_squares - 1) {
                score_at_once(sq, safe, least, alpha, best, best_move);
                if (best >= beta) return;
                continue;
            }
            const std::uint8_t relevant = patterns.relevant(next[sq]);
            unsigned kinds_given = 0;
            for (piece_set gives = safe; gives; gives &= static_cast<piece_set>(gives - 1)) {
                const auto g = static_cast<std::uint8_t>(std::countr_zero(gives));
                const unsigned kind = 1u << (g & relevant);
                if (kinds_given & kind) continue;
                kinds_given |= kind;
                const auto m = static_cast<std::uint8_t>(sq << 4 | g);
                const bool is_hint = sq == hinted && (g & relevant) == (hint & relevant & 0xF);
                list[static_cast<std::size_t>(count)] = {(is_hint ? std::uint64_t{UINT32_MAX} + 1 : history[m]) << 8 | (255u - count), m};
                ++count;
            }
        }
        // The next move picked when it is needed, not the list sorted: most nodes here cut off
        // after one or two moves (and a sort's buffer would be an allocation a node).
        for (auto i = list.begin(); i != list.begin() + count && best < beta; ++i) {
            std::iter_swap(i, std::max_element(i, list.begin() + count, [](const candidate& a, const candidate& b) {
                return a.order < b.order;
            }));
            const std::uint8_t m = i->move;
            const std::uint8_t g = m & 0xF;
            const int score = -search(next[m >> 4].without(g), g, -beta, -alpha, depth - 1);
            if (score > best) {
                best = score;
                best_move = m;
                alpha = std::max(alpha, best);
            }
        }
        if (best >= beta) history[best_move] += static_cast<std::uint32_t>(depth * depth);
    }

    // The score of root move `m` within (alpha, beta), fail-soft. Throws `stopped` when the
    // budget ends.
    int score_of(const detail::node& root, const position& p, const move& m, int alpha, int beta, int depth)
    {
        const int placed = root.placed;
        if (m.call) return max_score - (m.place ? placed + 1 : placed); // the Quarto now on the board
        if (!m.place && p.callable && patterns.rules.quarto_through(p.placed, *p.callable))
            return -(max_score - placed); // a Quarto left uncalled: they claim it
        if (!m.place) {
            if (patterns.deadly(root) & bit(*m.give)) return -(max_score - (placed + 1));
            return -search(root.without(m.give->code()), m.give->code(), -beta, -alpha, depth);
        }
        board after_placing = p.placed;
        after_placing.put(*m.place, *p.hand);
        if (patterns.rules.quarto_through(after_placing, *m.place)) return -(max_score - (placed + 1)); // uncalled: claimed
        if (!m.give) return 0;                                                             // the last square
        const detail::node next = patterns.place(root, *m.place, p.hand->code());
        if (patterns.deadly(next) & bit(*m.give)) return -(max_score - (placed + 2));
        return -search(next.without(m.give->code()), m.give->code(), -beta, -alpha, depth - 1);
    }

    // A move's exact score (within the depth): first only its sign, which is what most of the
    // search time goes to and which a window of (-1, 1) settles with the most cut-offs; then,
    // for a win or a loss, its distance.
    int exact_score(const detail::node& root, const position& p, const move& m, int depth)
    {
        const int sign = score_of(root, p, m, -1, 1, depth);
        if (sign > 0) return score_of(root, p, m, 0, infinity, depth);
        if (sign < 0) return score_of(root, p, m, -infinity, 0, depth);
        return 0;
    }

    // The best move's exact score in `scores` (the others: bounds at most the best), the same
    // two steps over all the moves: the value first, then the distance among the moves that
    // reach it.
    void best_scores(const detail::node& root, const position& p, const std::vector<move>& moves,
                     std::vector<int>& scores, int depth)
    {
        std::fill(scores.begin(), scores.end(), -infinity);
        int best = -infinity;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            scores[i] = score_of(root, p, moves[i], std::max(best, -1), 1, depth);
            best = std::max(best, scores[i]);
            if (best >= 1) break; // a win: its distance is next
        }
        if (best == 0) return;
        const bool winning = best > 0;
        int alpha = winning ? 0 : -infinity;
        const int beta = winning ? infinity : 0;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            scores[i] = score_of(root, p, moves[i], alpha, beta, depth);
            alpha = std::max(alpha, scores[i]);
        }
    }

    // Iterative deepening over the root moves; `all` scores every move exactly (within the
    // depth reached) instead of only finding the best. The root's moves are `given` in the
    // order to try them (legal ones, each once), or when empty every legal move.
    result run(const rules& r, const position& p, const limits& l, std::vector<move_value>* all,
               std::span<const move> given = {})
    {
        begin(r, l);
        std::vector<move> moves(given.begin(), given.end());
        if (given.empty()) legal_moves(r, p, moves);
        const detail::node root = patterns.start(p);
        const int placed = p.placed.pieces_placed();
        const int empties = board_squares - placed;
        const int deepest = std::min(l.depth, empties);

        result out;
        std::vector<int> scores(moves.size(), -infinity), finished_scores;
        // With no budget, one exact search; with one, deeper and deeper until it runs out.
        const bool budgeted = l.max_nodes != UINT64_MAX || l.should_stop;
        for (int depth = budgeted ? 1 : deepest; depth <= deepest; ++depth) {
            stoppable = depth > 1;
            try {
                if (all) {
                    for (std::size_t i = 0; i < moves.size(); ++i) scores[i] = exact_score(root, p, moves[i], depth);
                } else {
                    best_scores(root, p, moves, scores, depth);
                }
            } catch (const stopped&) {
                break;
            }
            out.depth_reached = depth;
            // Search the best move of this depth first at the next one.
            const auto at = static_cast<std::ptrdiff_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
            std::rotate(moves.begin(), moves.begin() + at, moves.begin() + at + 1);
            std::rotate(scores.begin(), scores.begin() + at, scores.begin() + at + 1);
            finished_scores = scores;
            if (scores.front() != 0 && !all) break; // a forced result is exact at any depth
        }
        out.nodes = nodes;
        if (finished_scores.empty()) {
            // Not even one placement ahead: the first move that does not lose at once.
            out.best = moves.front();
            out.value = evaluation_of(0, placed);
            return out;
        }
        const auto best = std::max_element(finished_scores.begin(), finished_scores.end());
        out.best = moves[static_cast<std::size_t>(best - finished_scores.begin())];
        out.value = evaluation_of(*best, placed);
        out.exact = out.depth_reached >= empties || *best != 0;
        if (all) {
            all->clear();
            for (std::size_t i = 0; i < moves.size(); ++i)
                all->push_back(move_value{moves[i], evaluation_of(finished_scores[i], placed),
                                          out.depth_reached >= empties || finished_scores[i] != 0});
        }
        return out;
    }
};

solver::solver(std::size_t table_bytes) : impl_{std::make_unique<impl>(table_bytes)} {}
solver::~solver() = default;

result solver::solve(const rules& r, const position& p, const limits& l) { return impl_->run(r, p, l, nullptr); }

result solver::solve_in_order(const rules& r, const position& p, std::span<const move> order, const limits& l)
{
    return impl_->run(r, p, l, nullptr, order);
}

std::vector<move_value> solver::evaluate_moves(const rules& r, const position& p, const limits& l)
{
    std::vector<move_value> all;
    impl_->run(r, p, l, &all);
    return all;
}

std::optional<move_value> solver::evaluate_move(const rules& r, const position& p, const move& m, const limits& l)
{
    std::vector<move> legal;
    legal_moves(r, p, legal);
    if (std::find(legal.begin(), legal.end(), m) == legal.end()) return std::nullopt;
    std::vector<move_value> one;
    impl_->run(r, p, l, &one, {&m, 1});
    return one.front();
}

void solver::clear_table() { impl_->table.clear(); }
void solver::keep_results_across_searches(bool keep) { impl_->table.keep_generation(keep); }
std::size_t solver::table_bytes() const { return impl_->table.bytes(); }

void legal_moves(const rules& r, const position& p, std::vector<move>& out)
{
    out.clear();
    if (p.callable && r.quarto_through(p.placed, *p.callable)) out.push_back(move{std::nullopt, std::nullopt, true});
    const piece_set available = p.available();
    if (!p.hand) {
        for (int g = 0; g < piece::count; ++g)
            if (available & (1u << g)) out.push_back(move{std::nullopt, piece{static_cast<std::uint8_t>(g)}, false});
        return;
    }
    for (square s = 0; s < board_squares; ++s) {
        if (p.placed.occupied(s)) continue;
        board next = p.placed;
        next.put(s, *p.hand);
        if (r.quarto_through(next, s)) out.push_back(move{s, std::nullopt, true});
        if (next.full()) {
            out.push_back(move{s, std::nullopt, false});
            continue;
        }
        for (int g = 0; g < piece::count; ++g)
            if (available & (1u << g)) out.push_back(move{s, piece{static_cast<std::uint8_t>(g)}, false});
    }
}

} // namespace quarto::solver
