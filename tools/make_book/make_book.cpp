// Makes level 5's opening book for one rule variant (quarto/core/solver/opening_book.hpp):
//   make_book --attributes N [--squares] --live-from E [--resume OLD.inc]... [--shard K/N]
//             [--table-mb M] (--out core/src/solver/book/FILE.inc | --plan)
// Every position where level 5 must move with more than E empty squares, when it plays the
// book's moves and the opponent anything, is solved exactly and its best move stored; E is
// the most empty squares level 5's own search solves within its second (bench/RESULTS.md).
// Positions are counted once up to the symmetries. The first N attributes count. Of a
// position's best moves the one stored leaves the opponent the fewest different replies where
// those go into the book, and the search of one position leaves what it proved in the table for
// the next. --resume takes
// the moves of a book written by an earlier run (stopped, or for a smaller --live-from) instead
// of solving those positions again (several: their union); the positions left are solved
// fewest empty squares first, the cheapest, so that a run stopped early has done what it could
// (and the side of level 5 that meets them, first or second, is perfect sooner). --shard K/N
// solves only the K-th of N parts of the positions, and follows only those: N runs side by
// side (one a core), then N more with all their outputs as --resume, and so on until a run
// without --shard that resumes them all has nothing left to solve. --table-mb
// sizes the solver's transposition table (default 256 MiB; 4 GiB solved a position with 15
// empty squares no faster: bench/RESULTS.md). --plan solves nothing and writes nothing:
// it prints how many positions the --resume books lead to and do not hold, by empty squares
// and by part of --shard's N (what is left is at least those: solving them leads to more).
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "quarto/core/solver/opening_book.hpp"
#include "quarto/core/solver/solver.hpp"

using namespace quarto;
using namespace quarto::solver;

namespace {

using key = std::tuple<std::uint16_t, std::uint64_t>;

double elapsed(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

struct book_maker {
    rules r;
    int live_from = 11;
    std::unique_ptr<quarto::solver::solver> s; // --table-mb: one table for every position of the run
    std::map<key, book_entry> book;
    std::map<key, book_entry> known; // from --resume
    double resumed_seconds = 0;      // how long the longest run that made it took
    int shard = 0, shards = 1;       // --shard
    std::size_t skipped = 0;         // left to the other shards
    // --plan: the positions the resumed books lead to and do not hold, by empty squares and part
    // (solving them leads to more: the work left is at least these).
    bool plan = false;
    std::map<int, std::vector<std::size_t>> unsolved;
    std::set<key> seen;
    // Positions to visit: those --resume knows first (they cost nothing and lead to all that
    // is left), then the fewest empty squares first (the header says why). Level 5 places at
    // 16, 14 and 12 empty squares when second, at 15 and 13 when first.
    std::deque<position> todo_known;
    std::map<int, std::deque<position>> todo_by_empty;
    std::size_t waiting = 0;

    bool next(position& p)
    {
        if (!todo_known.empty()) {
            p = todo_known.front();
            todo_known.pop_front();
        } else if (!todo_by_empty.empty()) {
            auto cheapest = todo_by_empty.begin();
            p = cheapest->second.front();
            cheapest->second.pop_front();
            if (cheapest->second.empty()) todo_by_empty.erase(cheapest);
        } else {
            return false;
        }
        --waiting;
        return true;
    }

    key key_of(const position& p) const
    {
        const book_entry e = book_entry_of(r, p, move{});
        return {e.occupied, e.attributes};
    }

    void add(const position& p)
    {
        const key k = key_of(p);
        if (p.empty_squares() <= live_from || !seen.insert(k).second) return;
        (known.contains(k) ? todo_known : todo_by_empty[p.empty_squares()]).push_back(p);
        ++waiting;
    }

    // The opponent places `theirs.hand` and gives: each position that leaves level 5.
    template <typename Each>
    void for_each_reply(const position& theirs, Each&& each) const
    {
        std::vector<move> moves;
        legal_moves(r, theirs, moves);
        for (const move& o : moves) {
            if (o.call || !o.give) continue; // they win, or the board is full
            board placed = theirs.placed;
            placed.put(*o.place, *theirs.hand);
            if (r.quarto_through(placed, *o.place)) continue; // left uncalled: level 5 claims it
            each(*after(theirs, o));
        }
    }

    void replies(const position& theirs)
    {
        for_each_reply(theirs, [this](const position& ours) { add(ours); });
    }

    // `p`'s moves, those that leave the opponent the fewest different replies first, where
    // those replies go into the book: of the moves of the best value the solver keeps the first,
    // so the book needs fewer positions after it (a third as many after some positions with 15
    // empty squares: bench/RESULTS.md). Empty (the solver's own order) where they do not.
    std::vector<move> order_of(const position& p) const
    {
        std::vector<move> moves;
        if (p.empty_squares() - 2 <= live_from) return moves;
        legal_moves(r, p, moves);
        std::vector<std::pair<std::size_t, move>> counted;
        for (const move& m : moves) {
            std::set<key> different;
            if (!m.call && m.give)
                for_each_reply(*after(p, m), [&](const position& ours) { different.insert(key_of(ours)); });
            counted.emplace_back(different.size(), m);
        }
        std::stable_sort(counted.begin(), counted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < moves.size(); ++i) moves[i] = counted[i].second;
        return moves;
    }

    // The book so far, sorted: every entry in it is exact, so a run stopped early leaves a
    // book that covers the first positions and says why the others are missing (`missing`;
    // none: the book is complete).
    bool write(const char* out, double seconds, const char* missing) const
    {
        std::FILE* f = std::fopen(out, "w");
        if (!f) {
            std::perror(out);
            return false;
        }
        const int attributes = std::popcount(r.attributes.bits());
        std::fprintf(f, "// Level 5's opening book: %s, %d attribute%s counted; %zu positions with more than %d empty\n"
                        "// squares%s%s%s. Made by tools/make_book --attributes %d%s --live-from %d in %.0f s.\n",
                     r.squares ? "lines and 2x2 squares" : "lines", attributes, attributes == 1 ? "" : "s", book.size(),
                     live_from, missing ? " (not all of them: " : "", missing ? missing : "", missing ? ")" : "", attributes,
                     r.squares ? " --squares" : "", live_from, resumed_seconds + seconds);
        for (const auto& [k, e] : book)
            std::fprintf(f, "{0x%016llxull, 0x%04x, %u, 0x%03x},\n", static_cast<unsigned long long>(e.attributes),
                         e.occupied, e.variant, e.move);
        return std::fclose(f) == 0;
    }

    // Which of the --shard parts `p` is in, by a hash of its key.
    int part_of(const position& p) const
    {
        const auto [occupied, attributes] = key_of(p);
        // The high bits of a multiplicative hash: the low ones follow the key's own patterns (all
        // the positions of one count of empty squares could fall in one part).
        const std::uint64_t h = (attributes ^ (std::uint64_t{occupied} * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
        return static_cast<int>((h >> 32) % static_cast<unsigned>(shards));
    }

    // Whether this run solves `p` (its part of the positions).
    bool mine(const position& p) const { return shards == 1 || part_of(p) == shard; }

    // The entries of this variant in a book file written by write().
    bool resume(const char* from)
    {
        std::FILE* f = std::fopen(from, "r");
        if (!f) {
            std::perror(from);
            return false;
        }
        char line[256];
        while (std::fgets(line, sizeof line, f)) {
            if (const char* made = std::strstr(line, "--live-from"))
                if (const char* in = std::strstr(made, " in ")) {
                    double seconds = 0;
                    if (std::sscanf(in, " in %lf s", &seconds) == 1) resumed_seconds = std::max(resumed_seconds, seconds);
                }
            unsigned long long attributes = 0;
            unsigned occupied = 0, variant = 0, stored = 0;
            if (std::sscanf(line, "{0x%llxull, 0x%x, %u, 0x%x},", &attributes, &occupied, &variant, &stored) != 4) continue;
            if (variant != book_variant(r)) continue;
            const book_entry e{attributes, static_cast<std::uint16_t>(occupied), static_cast<std::uint8_t>(variant),
                               static_cast<std::uint16_t>(stored)};
            known[{e.occupied, e.attributes}] = e;
        }
        std::fclose(f);
        std::fprintf(stderr, "%zu positions known from %s\n", known.size(), from);
        return true;
    }

    void run(const char* out)
    {
        position empty_board;
        empty_board.hand = piece{0}; // the first give: every piece is as good as any other
        add(empty_board);            // level 5 second: it places the first piece
        replies(empty_board);        // level 5 first: it gave piece 0
        const auto start = std::chrono::steady_clock::now();
        std::size_t solved = 0;
        double last_write = 0;
        position p;
        while (next(p)) {
            move chosen;
            const auto old = known.find(key_of(p));
            const std::optional<move> resumed = old == known.end() ? std::nullopt : move_of(r, p, old->second);
            if (resumed) {
                chosen = *resumed;
                book[old->first] = old->second;
            } else if (plan) {
                auto& parts = unsolved[p.empty_squares()];
                parts.resize(static_cast<std::size_t>(shards));
                ++parts[static_cast<std::size_t>(part_of(p))];
                continue;
            } else if (!mine(p)) {
                ++skipped; // and its replies, which another part follows
                continue;
            } else {
                const std::vector<move> order = order_of(p);
                const result best = order.empty() ? s->solve(r, p) : s->solve_in_order(r, p, order);
                chosen = best.best;
                const book_entry e = book_entry_of(r, p, best.best);
                book[{e.occupied, e.attributes}] = e;
                ++solved;
                std::fprintf(stderr, "%zu solved (%zu waiting), %d empty squares: %s in %d, %.0f s\n", solved, waiting,
                             p.empty_squares(),
                             best.value.value == game_value::win ? "win" : best.value.value == game_value::loss ? "loss" : "draw",
                             best.value.distance, elapsed(start));
            }
            const double seconds = elapsed(start);
            if (out && seconds - last_write >= 60) { // a run of hours leaves what it has solved
                write(out, seconds, "the run had not finished");
                last_write = seconds;
            }
            if (chosen.call || !chosen.give) continue;
            replies(*after(p, chosen));
        }
    }
};

} // namespace

int main(int argc, char** argv)
{
    int attributes = 4;
    bool squares = false;
    int live_from = -1;
    const char* out = nullptr;
    std::vector<const char*> resume;
    long table_mb = 256;
    book_maker maker;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--attributes" && i + 1 < argc) attributes = std::atoi(argv[++i]);
        else if (a == "--squares") squares = true;
        else if (a == "--live-from" && i + 1 < argc) live_from = std::atoi(argv[++i]);
        else if (a == "--out" && i + 1 < argc) out = argv[++i];
        else if (a == "--resume" && i + 1 < argc) resume.push_back(argv[++i]);
        else if (a == "--table-mb" && i + 1 < argc) table_mb = std::atol(argv[++i]);
        else if (a == "--plan") maker.plan = true;
        else if (a == "--shard" && i + 1 < argc && std::sscanf(argv[i + 1], "%d/%d", &maker.shard, &maker.shards) == 2 &&
                 maker.shards >= 1 && maker.shard >= 0 && maker.shard < maker.shards)
            ++i;
        else {
            std::fprintf(stderr, "usage: make_book --attributes N [--squares] --live-from E [--resume OLD]... [--shard K/N] [--table-mb M] (--out FILE | --plan)\n");
            return 2;
        }
    }
    if (attributes < 1 || attributes > 4 || live_from < 1 || live_from > 16 || (!out && !maker.plan)) {
        std::fprintf(stderr, "make_book: --attributes 1..4, --live-from 1..16 and --out (or --plan) are needed\n");
        return 2;
    }
    if (table_mb < 1 || table_mb > (1L << 20)) {
        std::fprintf(stderr, "make_book: --table-mb takes 1 to 1048576 (MiB)\n");
        return 2;
    }
    maker.s = std::make_unique<quarto::solver::solver>(static_cast<std::size_t>(table_mb) << 20);
    // The positions come one after another in each other's trees: what the search of one
    // proved about the next stays in the table by depth (20 % less time for a whole book with
    // two attributes and the 2x2 squares, 4 % for the 13s of the four's; bench/RESULTS.md).
    maker.s->keep_results_across_searches(true);
    maker.r = rules{squares, *attribute_set::from_bits(static_cast<std::uint8_t>((1u << attributes) - 1)),
                    false_claim_policy::reject};
    maker.live_from = live_from;
    for (const char* from : resume)
        if (!maker.resume(from)) return 1;
    const auto start = std::chrono::steady_clock::now();
    maker.run(out);
    if (maker.plan) {
        std::printf("%zu positions in the book; not in it, where it leads (by empty squares; by part of %d):\n",
                    maker.book.size(), maker.shards);
        for (const auto& [empty, parts] : maker.unsolved) {
            std::size_t all = 0;
            for (std::size_t n : parts) all += n;
            std::printf("  %d empty squares: %zu (", empty, all);
            for (std::size_t k = 0; k < parts.size(); ++k) std::printf("%s%zu", k ? " / " : "", parts[k]);
            std::printf(")\n");
        }
        return 0;
    }
    const double seconds = elapsed(start);

    if (!maker.write(out, seconds, maker.skipped == 0 ? nullptr : "it is one shard of several")) return 1;
    std::fprintf(stderr, "%zu positions written to %s in %.0f s (%zu left to other shards)\n", maker.book.size(), out,
                 seconds, maker.skipped);
    return 0;
}
