// Level 5's opening book: its entries in order, the canonical frame that maps a stored move
// onto any image of its position, every position level 5 can face early covered, and a sample
// of the moves checked against the solver.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "quarto/core/solver/bot.hpp"
#include "quarto/core/solver/opening_book.hpp"
#include "quarto/core/solver/solver.hpp"
#include "../../core/src/solver/symmetry.hpp"
#include "random_position.hpp"

using namespace quarto;
using namespace quarto::solver;
using solver_t = quarto::solver::solver;

namespace {

const rules lines_rules{};
const rules one_attribute{false, *attribute_set::from_bits(0x1), false_claim_policy::reject};
const rules two_attributes{false, *attribute_set::from_bits(0x3), false_claim_policy::reject};
const rules three_attributes{false, *attribute_set::from_bits(0x7), false_claim_policy::reject};
const rules squares_one_attribute{true, *attribute_set::from_bits(0x1), false_claim_policy::reject};
const rules squares_two_attributes{true, *attribute_set::from_bits(0x3), false_claim_policy::reject};
const rules squares_three_attributes{true, *attribute_set::from_bits(0x7), false_claim_policy::reject};
const rules squares_rules{true, attribute_set::all(), false_claim_policy::reject};
// The complete books: their rules, and the most empty squares level 5's own search proves
// within its time (the book covers the positions with more).
struct made_book {
    const rules* r;
    int live_from;
};
const made_book made[] = {{&one_attribute, 14},         {&two_attributes, 12},         {&three_attributes, 11},
                          {&lines_rules, 11},           {&squares_one_attribute, 14}, {&squares_two_attributes, 12},
                          {&squares_three_attributes, 11}, {&squares_rules, 11}};

// The opponent's moves that go on with the game: neither a call nor a Quarto left to claim.
std::vector<move> opponent_moves(const rules& r, const position& p)
{
    std::vector<move> legal;
    legal_moves(r, p, legal);
    std::erase_if(legal, [&](const move& o) {
        if (o.call || !o.give) return true;
        board placed = p.placed;
        placed.put(*o.place, *p.hand);
        return r.quarto_through(placed, *o.place).has_value();
    });
    return legal;
}

// One game from the first give to the last position the book covers: level 5 plays its book's
// moves (seen by `check` first: each must be there), the opponent random ones that go on.
template <class Check>
void play_the_book(const rules& r, int live_from, bool level5_first, std::mt19937_64& random, Check check)
{
    position p; // the first give: a random piece (all are as good)
    p.hand = piece{static_cast<std::uint8_t>(random() % 16)};
    bool level5_to_move = !level5_first;
    while (p.empty_squares() > live_from) {
        move m;
        if (level5_to_move) {
            const auto from_book = book_move(r, p);
            REQUIRE_MESSAGE(from_book, board_text(p.placed), " hand ", int{p.hand->code()});
            m = *from_book;
            check(p, m);
        } else {
            const auto moves = opponent_moves(r, p);
            if (moves.empty()) return;
            m = moves[random() % moves.size()];
        }
        if (m.call) return;
        p = *after(p, m);
        level5_to_move = !level5_to_move;
    }
}

} // namespace

TEST_CASE("opening book: entries sorted by variant, occupied squares and key, each once")
{
    const auto all = book_entries();
    REQUIRE_FALSE(all.empty());
    const auto order = [](const book_entry& e) { return std::tuple{e.variant, e.occupied, e.attributes}; };
    for (std::size_t i = 1; i < all.size(); ++i) CHECK(order(all[i - 1]) < order(all[i]));
    // Every stored move calls Quarto (an opponent gave away a win) or places and gives: no book
    // position fills the board.
    for (const auto& e : all) CHECK(((e.move & (1u << 8)) != 0) != ((e.move & (1u << 9)) != 0));
}

TEST_CASE("opening book: a move stored for a position maps onto every image of it as a move of the same value")
{
    std::mt19937 random{17};
    solver_t s{std::size_t{8} << 20};
    const auto group = detail::symmetries(false);
    for (int n = 0; n < 20; ++n) {
        const rules& r = n % 2 ? lines_rules : two_attributes;
        const position p = quarto::test::random_position(random, 7);
        std::vector<move> legal;
        legal_moves(r, p, legal);
        std::erase_if(legal, [](const move& m) { return m.call || !m.give; });
        if (legal.empty()) continue;
        const move m = legal[std::uniform_int_distribution<std::size_t>{0, legal.size() - 1}(random)];
        const book_entry stored = book_entry_of(r, p, m);
        const auto played = s.evaluate_move(r, p, m);
        REQUIRE(played);

        // An image: squares moved by a symmetry, attributes flipped and the counted ones permuted.
        const auto& sym = group[std::uniform_int_distribution<std::size_t>{0, group.size() - 1}(random)];
        std::array<int, 4> attributes{0, 1, 2, 3};
        if (&r == &lines_rules) std::shuffle(attributes.begin(), attributes.end(), random);
        else if (random() % 2) std::swap(attributes[0], attributes[1]);
        const int flip = std::uniform_int_distribution<int>{0, 15}(random);
        const auto relabel = [&](piece x) {
            int code = 0;
            for (int a = 0; a < 4; ++a)
                if ((x.code() ^ flip) & (1 << a)) code |= 1 << attributes[static_cast<std::size_t>(a)];
            return piece{static_cast<std::uint8_t>(code)};
        };
        position image;
        for (square q = 0; q < board_squares; ++q)
            if (const auto pc = p.placed.at(q)) image.placed.put(sym.to[q], relabel(*pc));
        image.hand = relabel(*p.hand);

        const auto mapped = move_of(r, image, stored);
        REQUIRE_MESSAGE(mapped, board_text(p.placed));
        const auto value = s.evaluate_move(r, image, *mapped);
        REQUIRE(value);
        CHECK_MESSAGE(value->value == played->value, board_text(p.placed));
        // Stored again from the image: the same key.
        const book_entry again = book_entry_of(r, image, *mapped);
        CHECK(again.occupied == stored.occupied);
        CHECK(again.attributes == stored.attributes);
    }
    // An entry is not another position's.
    CHECK_FALSE(move_of(lines_rules, quarto::test::random_position(random, 8), book_entry{1, 0, 4, 0x200}));
}

TEST_CASE("opening book: level 5 finds a move in the book at every turn before its search can prove one, whatever the opponent plays")
{
    std::mt19937_64 random{23};
    for (const auto& [r, live_from] : made) {
        int looked_up = 0;
        for (int g = 0; g < 200; ++g)
            play_the_book(*r, live_from, g % 2 == 0, random, [&](const position& p, const move& m) {
                std::vector<move> legal;
                legal_moves(*r, p, legal);
                CHECK(std::find(legal.begin(), legal.end(), m) != legal.end());
                ++looked_up;
            });
        CHECK(looked_up >= 200); // one a game at least
    }
}

TEST_CASE("opening book: a sample of its moves keeps the position's value, as the solver finds it")
{
    // The positions level 5 meets last before its search takes over, where the solver is
    // quickest: one more empty square than that search's reach (seconds each in a sanitizer
    // build: one a book).
    std::mt19937_64 random{29};
    solver_t s{std::size_t{64} << 20};
    for (const auto& [r, live_from] : made) {
        bool checked = false;
        for (int g = 0; g < 20 && !checked; ++g)
            play_the_book(*r, live_from, g % 2 == 0, random, [&](const position& p, const move& m) {
                if (p.empty_squares() != live_from + 1 || checked) return;
                s.clear_table();
                const auto book_value = s.evaluate_move(*r, p, m);
                const auto best = s.solve(*r, p);
                REQUIRE(book_value);
                CHECK(book_value->exact);
                CHECK_MESSAGE(book_value->value == best.value, board_text(p.placed));
                checked = true;
            });
        CHECK(checked);
    }
}

TEST_CASE("opening book: level 5 plays the book's move without searching")
{
    std::mt19937_64 random{31};
    solver_t s{std::size_t{1} << 20};
    const auto no_time = [] { return true; }; // a search would stop at its first poll
    int compared = 0;
    for (int g = 0; g < 20; ++g)
        play_the_book(two_attributes, 12, g % 2 == 0, random, [&](const position& p, const move& m) {
            CHECK(bot_move(max_bot_level, two_attributes, p, s, random, no_time) == m);
            ++compared;
        });
    CHECK(compared >= 20);
}

TEST_CASE("opening book: in standard Quarto level 5's first placement and give, whatever piece it is given, are the book's")
{
    // The empty board with a piece in hand, solved by the book's generator (a draw in about
    // half an hour: far beyond a test); every piece given maps onto that one entry.
    for (std::uint8_t given = 0; given < piece::count; ++given) {
        position empty_board;
        empty_board.hand = piece{given};
        const auto m = book_move(lines_rules, empty_board);
        REQUIRE(m);
        std::vector<move> legal;
        legal_moves(lines_rules, empty_board, legal);
        CHECK(std::find(legal.begin(), legal.end(), *m) != legal.end());
        CHECK(m->give);
    }
}
