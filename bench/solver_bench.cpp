// The solver's speed and strength, against its targets, on positions from real-looking games:
//   solver_bench check [N]        N positions of 8 empty squares per rule set against plain minimax
//   solver_bench exact [N [E [A [squares]]]]  exact values of N positions per count of empty
//                                 squares, 8..E (11); with A, only the lines (or the lines and
//                                 2x2 squares) with the first A attributes counted
//   solver_bench play [GAMES [A [squares]]] level 5 against itself from the empty board: time per move
// Prints one line per measure; bench/RESULTS.md records them with the machine.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../tests/core/minimax.hpp"
#include "quarto/core/solver/bot.hpp"
#include "quarto/core/solver/opening_book.hpp"
#include "quarto/core/solver/solver.hpp"

using namespace quarto;
using namespace quarto::solver;
using clock_type = std::chrono::steady_clock;

namespace {

const rules lines_rules{};
const rules squares_rules{true, attribute_set::all(), false_claim_policy::reject};
const rules beginner_rules{false, *attribute_set::from_bits(0x3), false_claim_policy::reject};

struct named_rules {
    const char* name;
    const rules* r;
};
const named_rules all_rules[] = {{"lines", &lines_rules}, {"squares", &squares_rules}, {"beginner(color,height)", &beginner_rules}};

double ms_since(clock_type::time_point start)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

double percentile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

// A position `empties` squares from the end of a game where both players place at random but
// never give a piece that wins at once while another is left, and call every Quarto they make:
// what a game between careful beginners reaches. Nullopt when the game ended before.
std::optional<position> game_position(const rules& r, std::mt19937_64& random, int empties)
{
    position p;
    std::vector<move> moves;
    p.hand = piece{static_cast<std::uint8_t>(random() % 16)};
    while (p.empty_squares() > empties) {
        legal_moves(r, p, moves);
        if (std::any_of(moves.begin(), moves.end(), [](const move& m) { return m.call; })) return std::nullopt;
        std::vector<move> safe;
        for (const move& m : moves) {
            const auto next = after(p, m);
            bool loses = false;
            if (next && next->hand) {
                board b = next->placed;
                for (square s = 0; s < board_squares && !loses; ++s) {
                    if (b.occupied(s)) continue;
                    board t = b;
                    t.put(s, *next->hand);
                    loses = r.quarto_through(t, s).has_value();
                }
            }
            if (!loses) safe.push_back(m);
        }
        const auto& pool = safe.empty() ? moves : safe;
        p = *after(p, pool[random() % pool.size()]);
    }
    return p;
}

int check(int count)
{
    std::mt19937_64 random{1};
    quarto::solver::solver s{std::size_t{64} << 20};
    int failures = 0;
    for (const auto& [name, r] : all_rules) {
        int compared = 0, wins = 0, losses = 0, draws = 0;
        const auto start = clock_type::now();
        while (compared < count) {
            const auto p = game_position(*r, random, 8);
            if (!p) continue;
            const int expected = quarto::test::minimax(*r, p->placed, p->available(), *p->hand);
            const result got = s.solve(*r, *p);
            const auto want = expected > 0 ? game_value::win : expected < 0 ? game_value::loss : game_value::draw;
            const int placed = p->placed.pieces_placed();
            const int distance = expected > 0 ? 17 - expected - placed : expected < 0 ? 17 + expected - placed : 16 - placed;
            if (!got.exact || got.value.value != want || got.value.distance != distance) {
                ++failures;
                std::printf("MISMATCH %s %s hand %d: solver %d/%d, minimax %d/%d\n", name, board_text(p->placed).c_str(),
                            p->hand->code(), int(got.value.value), got.value.distance, int(want), distance);
            }
            ++compared;
            (expected > 0 ? wins : expected < 0 ? losses : draws)++;
        }
        std::printf("check %s: %d positions of 8 empty squares agree with minimax (%d wins, %d losses, %d draws) in %.1f s\n",
                    name, compared - failures, wins, losses, draws, ms_since(start) / 1000);
    }
    return failures == 0 ? 0 : 1;
}

// The three rule sets, or with `attributes` (1 to 4) only the lines (with `squares`, the lines
// and 2x2 squares) with that many counted.
struct chosen_rules {
    std::string counted;
    rules counted_rules;
    std::vector<named_rules> list;

    chosen_rules(int attributes, bool squares)
        : counted{std::string{squares ? "squares(" : "lines("} + std::to_string(attributes) + " attributes)"},
          counted_rules{squares, *attribute_set::from_bits(static_cast<std::uint8_t>((1u << std::clamp(attributes, 1, 4)) - 1)),
                        false_claim_policy::reject}
    {
        if (attributes > 0) list.push_back({counted.c_str(), &counted_rules});
        else list.assign(std::begin(all_rules), std::end(all_rules));
    }
};

int exact(int count, int most_empty, const chosen_rules& chosen)
{
    std::mt19937_64 random{2};
    quarto::solver::solver s{std::size_t{64} << 20};
    std::printf("table: %zu MiB\n", s.table_bytes() >> 20);
    for (const auto& [name, r] : chosen.list) {
        for (int empties = 8; empties <= most_empty; ++empties) {
            std::vector<double> times;
            std::uint64_t nodes = 0;
            double total_ms = 0;
            int wins = 0, draws = 0, losses = 0;
            while (static_cast<int>(times.size()) < count) {
                const auto p = game_position(*r, random, empties);
                if (!p) continue;
                s.clear_table(); // each position from scratch: no help from the one before
                const auto start = clock_type::now();
                const result got = s.solve(*r, *p);
                const double ms = ms_since(start);
                times.push_back(ms);
                total_ms += ms;
                nodes += got.nodes;
                (got.value.value == game_value::win ? wins : got.value.value == game_value::loss ? losses : draws)++;
            }
            // The nodes do not depend on the machine's load: they compare searches exactly.
            std::printf("exact %s, %2d empty: median %8.2f ms, p90 %8.2f ms, max %8.2f ms, %6.2f M nodes/s, "
                        "%.2f M nodes in all (%d wins, %d draws, %d losses)\n",
                        name, empties, percentile(times, 0.5), percentile(times, 0.9), percentile(times, 1.0),
                        static_cast<double>(nodes) / total_ms / 1000, static_cast<double>(nodes) / 1e6, wins, draws,
                        losses);
        }
    }
    return 0;
}

// Level 5 against itself from the empty board under its budget a move (think_budget: 950 ms),
// as a bot in a room thinks: the time of every move, by empty squares, and whether it was
// perfect (an exact search, the opening book's move, or the first give).
int play(int games, const chosen_rules& chosen)
{
    std::mt19937_64 random{3};
    quarto::solver::solver s{std::size_t{64} << 20};
    for (const auto& [name, r] : chosen.list) {
        std::vector<std::vector<double>> times(17);
        std::vector<int> exact_count(17), total(17);
        std::vector<double> every;
        int draws = 0, decided = 0;
        for (int g = 0; g < games; ++g) {
            position p;
            std::optional<position> current = p;
            while (current) {
                const auto start = clock_type::now();
                const auto deadline = start + quarto::solver::think_budget(quarto::solver::max_bot_level);
                limits l;
                l.should_stop = [&] { return clock_type::now() >= deadline; };
                // The first give is bot_move's without a search (every piece is as good):
                // perfect, though its value is not computed.
                const bool first_give = !current->hand && current->placed.pieces_placed() == 0;
                result got;
                // The opening book's moves are as bot_move plays them: perfect by construction.
                const auto from_book = quarto::solver::book_move(*r, *current);
                if (first_give) got.best = quarto::solver::bot_move(quarto::solver::max_bot_level, *r, *current, s, random);
                else if (from_book) got.best = *from_book;
                else got = s.solve(*r, *current, l);
                const double ms = ms_since(start);
                const int empties = current->empty_squares();
                times[static_cast<std::size_t>(empties)].push_back(ms);
                every.push_back(ms);
                exact_count[static_cast<std::size_t>(empties)] += got.exact || first_give || from_book ? 1 : 0;
                ++total[static_cast<std::size_t>(empties)];
                if (got.best.call) {
                    ++decided;
                    break;
                }
                current = after(*current, got.best);
                if (current->placed.full()) {
                    ++draws;
                    break;
                }
            }
        }
        std::printf("play %s: %d games level 5 against itself, %d draws, %d won; move time median %.1f ms, max %.1f ms\n",
                    name, games, draws, decided, percentile(every, 0.5), percentile(every, 1.0));
        for (int e = 16; e >= 1; --e) {
            const auto& t = times[static_cast<std::size_t>(e)];
            if (t.empty()) continue;
            std::printf("  %2d empty: median %7.1f ms, max %7.1f ms, perfect %d of %d\n", e, percentile(t, 0.5),
                        percentile(t, 1.0), exact_count[static_cast<std::size_t>(e)], total[static_cast<std::size_t>(e)]);
        }
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    std::string mode = argc > 1 ? argv[1] : "exact";
    const int n = argc > 2 ? std::atoi(argv[2]) : 0;
    if (mode == "check") return check(n > 0 ? n : 200);
    const int at = mode == "play" ? 3 : 4; // where ATTRIBUTES is
    const int attributes = argc > at ? std::atoi(argv[at]) : 0;
    const bool squares = argc > at + 1 && std::string{argv[at + 1]} == "squares";
    if (attributes < 0 || attributes > 4 || (argc > at + 1 && (!squares || attributes == 0))) mode = "?";
    const chosen_rules chosen{attributes, squares};
    if (mode == "exact") return exact(n > 0 ? n : 20, argc > 3 ? std::atoi(argv[3]) : 11, chosen);
    if (mode == "play") return play(n > 0 ? n : 4, chosen);
    std::fprintf(stderr, "usage: solver_bench check [N] | exact [N [MOST_EMPTY [ATTRIBUTES [squares]]]] | play [GAMES [ATTRIBUTES [squares]]]\n");
    return 2;
}
