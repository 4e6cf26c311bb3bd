#include "quarto/core/solver/bot.hpp"

#include <algorithm>

#include "quarto/core/solver/opening_book.hpp"

namespace quarto::solver {

namespace {

struct level_traits {
    int depth;               // placements looked ahead
    std::uint64_t max_nodes; // the search's budget, besides the caller's clock
    double misses;           // how often a Quarto to call or claim goes unseen
};

constexpr level_traits traits_of(int level)
{
    switch (level) {
    case 3: return {3, 200'000, 0.30};
    case 4: return {6, 3'000'000, 0.05};
    case 5: return {board_squares, UINT64_MAX, 0.0};
    default: return {1, UINT64_MAX, 0.0};
    }
}

template <class T>
const T& pick(const std::vector<T>& from, std::mt19937_64& random)
{
    return from[std::uniform_int_distribution<std::size_t>{0, from.size() - 1}(random)];
}

bool chance(double p, std::mt19937_64& random) { return p > 0 && std::uniform_real_distribution<double>{0, 1}(random) < p; }

// Whether the opponent, given `m`'s piece, can win with it at once.
bool hands_over_a_win(const rules& r, const position& p, const move& m)
{
    const auto next = after(p, m);
    if (!next || !next->hand) return false;
    for (square s = 0; s < board_squares; ++s) {
        if (next->placed.occupied(s)) continue;
        board b = next->placed;
        b.put(s, *next->hand);
        if (r.quarto_through(b, s)) return true;
    }
    return false;
}

// Among `choices`, those that hand over no win; all of them when each does.
std::vector<move> careful(const rules& r, const position& p, const std::vector<move>& choices)
{
    std::vector<move> safe;
    for (const move& m : choices)
        if (!hands_over_a_win(r, p, m)) safe.push_back(m);
    return safe.empty() ? choices : safe;
}

// The same placement without the call: a Quarto made and not seen. The piece given is one of
// the others, chosen with the usual care (the opponent may still claim the Quarto).
move without_call(const rules& r, const position& p, const move& call, std::mt19937_64& random)
{
    std::vector<move> legal;
    legal_moves(r, p, legal);
    std::vector<move> same_square;
    for (const move& m : legal)
        if (!m.call && m.place == call.place) same_square.push_back(m);
    return same_square.empty() ? call : pick(careful(r, p, same_square), random);
}

// Level 1: a random square (calling the Quarto it happens to make), then a random piece among
// those that do not win at once, when one is left.
move random_move(const rules& r, const position& p, std::mt19937_64& random)
{
    std::vector<move> legal;
    legal_moves(r, p, legal);
    std::vector<move> choices;
    if (p.hand) {
        std::vector<square> empty;
        for (square s = 0; s < board_squares; ++s)
            if (!p.placed.occupied(s)) empty.push_back(s);
        const square at = pick(empty, random);
        for (const move& m : legal)
            if (m.place == at && m.call) return m;
        for (const move& m : legal)
            if (m.place == at) choices.push_back(m);
    } else {
        choices = legal;
    }
    return pick(careful(r, p, choices), random);
}

// Level 2: every move one placement ahead (its own and, for the piece given, the opponent's),
// a random one among the best.
move one_ahead(const rules& r, const position& p, solver& s, std::mt19937_64& random)
{
    limits l;
    l.depth = 1;
    const auto values = s.evaluate_moves(r, p, l);
    std::vector<move> best;
    evaluation top{game_value::loss, 0};
    for (const move_value& v : values) {
        if (!best.empty() && better(top, v.value)) continue;
        if (best.empty() || better(v.value, top)) {
            best.clear();
            top = v.value;
        }
        best.push_back(v.m);
    }
    return pick(best, random);
}

} // namespace

move bot_move(int level, const rules& r, const position& p, solver& s, std::mt19937_64& random,
              const std::function<bool()>& should_stop)
{
    const level_traits traits = traits_of(level);
    // A Quarto already on the board (the bot's own placement, or the opponent's in the claim
    // window): called unless the level misses it, and then played on as if it were not there.
    position seen = p;
    if (p.callable && r.quarto_through(p.placed, *p.callable)) {
        if (!chance(traits.misses, random)) return move{std::nullopt, std::nullopt, true};
        seen.callable.reset();
    }
    if (level <= 1) return random_move(r, seen, random);
    if (level == 2) return one_ahead(r, seen, s, random);
    // The first give: flipping attributes maps any piece onto any other and keeps every rule
    // variant's patterns, so every give has the same value and any is perfect. No search.
    if (!seen.hand && seen.placed.pieces_placed() == 0) return random_move(r, seen, random);
    // Where the search cannot prove a move within the second, the book has one.
    if (level >= max_bot_level)
        if (const auto m = book_move(r, seen)) return *m;

    limits l;
    l.depth = traits.depth;
    l.max_nodes = traits.max_nodes;
    l.should_stop = should_stop;
    const move best = s.solve(r, seen, l).best;
    if (best.call && best.place && chance(traits.misses, random)) return without_call(r, seen, best, random);
    return best;
}

move hurried_move(const rules& r, const position& p, std::mt19937_64& random)
{
    if (p.callable && r.quarto_through(p.placed, *p.callable)) return move{std::nullopt, std::nullopt, true};
    std::vector<move> legal;
    legal_moves(r, p, legal);
    for (const move& m : legal)
        if (m.call) return m;
    return pick(careful(r, p, legal), random);
}

std::chrono::milliseconds think_budget(int level)
{
    return std::chrono::milliseconds{level >= max_bot_level ? 950 : 500};
}

double bot_miss_rate(int level) { return traits_of(level).misses; }

std::string bot_name(int level) { return "Computer (level " + std::to_string(level) + ")"; }

} // namespace quarto::solver
