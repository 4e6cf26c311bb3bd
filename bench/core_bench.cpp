// Micro-benchmark of the rules engine: win detection (rules::quarto_through, board::aligned)
// and random playouts per second. Plain std::chrono and std::clock; each figure is the median
// of several repetitions, in CPU time (wall time beside it). Build Release and run build/<dir>/bin/core_bench [repetitions].
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "quarto/core/game.hpp"

namespace {

using namespace quarto;
using bench_clock = std::chrono::steady_clock;

// xorshift64*: small, fast, deterministic; the engine has no randomness of its own.
struct xorshift {
    std::uint64_t state;
    std::uint64_t next()
    {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1DULL;
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>((next() >> 32) % n); }
};

// Keeps results alive so the optimiser cannot drop the measured work.
volatile std::uint64_t sink = 0;

struct timing {
    double wall; // median seconds of one run, steady_clock
    double cpu;  // median seconds of one run, process CPU time (robust on a loaded machine)
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Runs `body` `repetitions` times and returns the medians.
timing measure(int repetitions, const std::function<void()>& body)
{
    std::vector<double> wall, cpu;
    for (int r = 0; r < repetitions; ++r) {
        const auto start = bench_clock::now();
        const std::clock_t cpu_start = std::clock();
        body();
        cpu.push_back(static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
        wall.push_back(std::chrono::duration<double>(bench_clock::now() - start).count());
    }
    return {median(wall), median(cpu)};
}

struct position {
    board b;
    square placed;
};

// Positions from random games: every placement of many random games, 0..16 pieces.
std::vector<position> sample_positions(std::size_t count, std::uint64_t seed)
{
    std::vector<position> out;
    xorshift random{seed};
    while (out.size() < count) {
        board b;
        std::uint8_t pieces[16];
        for (std::uint8_t i = 0; i < 16; ++i) pieces[i] = i;
        square squares_left[16];
        for (std::uint8_t i = 0; i < 16; ++i) squares_left[i] = i;
        for (int n = 16; n > 0 && out.size() < count; --n) {
            const std::size_t pi = random.below(static_cast<std::size_t>(n));
            const std::size_t si = random.below(static_cast<std::size_t>(n));
            const square s = squares_left[si];
            b.put(s, piece{pieces[pi]});
            pieces[pi] = pieces[n - 1];
            squares_left[si] = squares_left[n - 1];
            out.push_back({b, s});
        }
    }
    return out;
}

struct playout_stats {
    std::uint64_t games = 0, actions = 0, wins = 0, draws = 0;
};

// One random legal game to the end: whenever a Quarto can be called it is called; otherwise a
// uniformly random legal action (give, place, or pass) is taken.
void random_playout(const rules& r, xorshift& random, playout_stats& stats)
{
    static const clock_settings untimed{.move = std::nullopt, .claim = milliseconds{10'000}};
    const instant t = at_ms(0);
    game g{r, untimed, static_cast<seat>(random.next() & 1u), t};
    while (!g.finished()) {
        action_list list;
        g.legal_actions(list);
        const action* chosen = nullptr;
        for (const action& a : list)
            if (a.kind == move_kind::call) {
                chosen = &a;
                break;
            }
        if (!chosen) chosen = &list[random.below(list.size())];
        if (!g.apply(*chosen, t)) std::abort(); // a legal action was refused: an engine bug
        ++stats.actions;
    }
    ++stats.games;
    if (g.result()->winner) ++stats.wins;
    else ++stats.draws;
}

void report(const char* what, timing t, double operations, const char* unit)
{
    std::printf("%-40s %10.2f ns/%-4s %12.0f %s/s   (wall: %.2f ns/%s)\n", what, t.cpu / operations * 1e9, unit,
                operations / t.cpu, unit, t.wall / operations * 1e9, unit);
}

} // namespace

int main(int argc, char** argv)
{
    const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
    std::printf("core_bench: median of %d repetitions\n", repetitions);
    std::printf("sizeof(board) = %zu, sizeof(game) = %zu, sizeof(move_record) = %zu, sizeof(action_list) = %zu\n",
                sizeof(board), sizeof(game), sizeof(move_record), sizeof(action_list));

    const std::vector<position> positions = sample_positions(1u << 16, 0x9E3779B97F4A7C15ULL);
    const rules standard{};
    const rules advanced{.squares = true};
    constexpr int passes = 64;
    const double checks = static_cast<double>(positions.size()) * passes;

    for (const auto& [name, r] : {std::pair{"quarto_through, standard (10 lines)", standard},
                                  std::pair{"quarto_through, advanced (19 patterns)", advanced}}) {
        const timing s = measure(repetitions, [&, rr = r] {
            std::uint64_t found = 0;
            for (int p = 0; p < passes; ++p)
                for (const position& x : positions) found += rr.quarto_through(x.b, x.placed).has_value();
            sink = sink + found;
        });
        report(name, s, checks, "call");
    }
    {
        const timing s = measure(repetitions, [&] {
            std::uint64_t found = 0;
            const std::span<const square_mask> lines = patterns(false);
            for (int p = 0; p < passes / 4; ++p)
                for (const position& x : positions)
                    for (square_mask line : lines) found += x.b.aligned(line, attribute_set::all());
            sink = sink + found;
        });
        report("board::aligned, one pattern", s, checks / 4 * static_cast<double>(line_count), "call");
    }

    for (const auto& [name, r] : {std::pair{"random playouts, standard", standard},
                                  std::pair{"random playouts, advanced", advanced}}) {
        constexpr int games = 20'000;
        playout_stats stats;
        const timing s = measure(repetitions, [&, rr = r] {
            xorshift random{12345};
            for (int i = 0; i < games; ++i) random_playout(rr, random, stats);
        });
        report(name, s, games, "game");
        std::printf("%-46s %12.1f actions/game, %.1f%% won, %.1f%% drawn\n", "",
                    static_cast<double>(stats.actions) / static_cast<double>(stats.games),
                    100.0 * static_cast<double>(stats.wins) / static_cast<double>(stats.games),
                    100.0 * static_cast<double>(stats.draws) / static_cast<double>(stats.games));
    }
    return sink == 42 ? 1 : 0;
}
