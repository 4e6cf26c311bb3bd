// Pieces, squares, the board's bitboards, the winning patterns and rules::quarto_through.
#include <algorithm>
#include <bit>
#include <set>

#include "support.hpp"

using namespace quarto;
using namespace quarto::test;

namespace {
board with(std::initializer_list<std::pair<int, int>> square_piece)
{
    board b;
    for (const auto& [s, p] : square_piece) b.put(static_cast<square>(s), pc(p));
    return b;
}
} // namespace

TEST_CASE("piece codes: bit 1 dark, bit 2 tall, bit 4 square, bit 8 hollow")
{
    CHECK(describe(pc(0)) == "light short round solid");
    CHECK(describe(pc(1)) == "dark short round solid");
    CHECK(describe(pc(2)) == "light tall round solid");
    CHECK(describe(pc(4)) == "light short square solid");
    CHECK(describe(pc(8)) == "light short round hollow");
    CHECK(describe(pc(15)) == "dark tall square hollow");
    CHECK(pc(5).has(attribute::color));
    CHECK_FALSE(pc(5).has(attribute::height));
    CHECK(pc(5).has(attribute::shape));
    CHECK_FALSE(pc(5).has(attribute::fill));
}

TEST_CASE("piece::from_code accepts 0..15 only")
{
    CHECK_FALSE(piece::from_code(-1));
    CHECK_FALSE(piece::from_code(16));
    for (int c = 0; c < 16; ++c) {
        REQUIRE(piece::from_code(c));
        CHECK(piece::from_code(c)->code() == c);
    }
}

TEST_CASE("squares are 0..15 row-major")
{
    CHECK_FALSE(square_from_index(-1));
    CHECK_FALSE(square_from_index(16));
    CHECK(square_from_index(15) == std::optional<square>{15});
    CHECK(row_of(6) == 1);
    CHECK(column_of(6) == 2);
    CHECK(row_of(15) == 3);
    CHECK(column_of(12) == 0);
    CHECK(bit(square{9}) == 0x0200);
    CHECK(size(0x8421) == 4);
}

TEST_CASE("attribute_set: from_bits accepts 0..15, with() and contains() agree")
{
    CHECK_FALSE(attribute_set::from_bits(16));
    CHECK(attribute_set::from_bits(0)->empty());
    const attribute_set s = attribute_set{}.with(attribute::height).with(attribute::fill);
    CHECK(s.bits() == 0xA);
    CHECK(s.contains(attribute::height));
    CHECK_FALSE(s.contains(attribute::color));
    CHECK(attribute_set::all().bits() == 0xF);
}

TEST_CASE("an empty board: nothing occupied, at() is empty everywhere")
{
    const board b;
    CHECK(b.occupied() == 0);
    CHECK(b.pieces_placed() == 0);
    CHECK_FALSE(b.full());
    for (int s = 0; s < 16; ++s) CHECK_FALSE(b.at(static_cast<square>(s)));
}

TEST_CASE("board::put stores every piece on every square exactly (round trip through at)")
{
    for (int s = 0; s < 16; ++s)
        for (int p = 0; p < 16; ++p) {
            board b;
            b.put(static_cast<square>(s), pc(p));
            CHECK(b.at(static_cast<square>(s)) == std::optional<piece>{pc(p)});
            CHECK(b.occupied() == bit(static_cast<square>(s)));
            CHECK(b.pieces_placed() == 1);
        }
    board full;
    for (int s = 0; s < 16; ++s) full.put(static_cast<square>(s), pc(15 - s));
    CHECK(full.full());
    CHECK(full.pieces_placed() == 16);
    for (int s = 0; s < 16; ++s) CHECK(full.at(static_cast<square>(s))->code() == 15 - s);
}

TEST_CASE("the 10 lines: 4 rows, 4 columns, 2 diagonals, then nine 2x2 squares")
{
    const auto lines = patterns(false);
    REQUIRE(lines.size() == 10);
    const std::set<square_mask> expected_lines{0x000F, 0x00F0, 0x0F00, 0xF000, 0x1111, 0x2222,
                                               0x4444, 0x8888, squares({0, 5, 10, 15}),
                                               squares({3, 6, 9, 12})};
    CHECK(std::set<square_mask>(lines.begin(), lines.end()) == expected_lines);

    const auto all = patterns(true);
    REQUIRE(all.size() == 19);
    CHECK(std::equal(lines.begin(), lines.end(), all.begin()));
    std::set<square_mask> expected_squares;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            const int tl = 4 * r + c;
            expected_squares.insert(squares({tl, tl + 1, tl + 4, tl + 5}));
        }
    CHECK(std::set<square_mask>(all.begin() + 10, all.end()) == expected_squares);
    for (square_mask p : all) CHECK(std::popcount(p) == 4);
}

TEST_CASE("rules::is_pattern knows lines always and 2x2 squares only in the advanced variant")
{
    const rules standard{};
    const rules advanced{.squares = true};
    CHECK(standard.is_pattern(0x000F));
    CHECK(standard.is_pattern(0x1248));
    CHECK_FALSE(standard.is_pattern(0x0033));
    CHECK(advanced.is_pattern(0x0033));
    CHECK(advanced.is_pattern(0x0660)); // squares 5, 6, 9, 10
    CHECK_FALSE(advanced.is_pattern(0x0000));
    CHECK_FALSE(advanced.is_pattern(0x0007));     // three squares
    CHECK_FALSE(advanced.is_pattern(0x001F));     // five squares
    CHECK_FALSE(advanced.is_pattern(0x9009));     // the four corners
    CHECK_FALSE(advanced.is_pattern(squares({0, 1, 2, 4})));
    CHECK_FALSE(advanced.is_pattern(squares({2, 3, 4, 5}))); // wraps across rows
}

TEST_CASE("board::aligned: all four share a value of a counted attribute, set or clear")
{
    // Four dark pieces (bit 1 set) on row 0, otherwise mixed.
    CHECK(with({{0, 1}, {1, 3}, {2, 12}, {3, 13}}).aligned(row0, attribute_set::all()) == false);
    const board dark = with({{0, 1}, {1, 3}, {2, 5}, {3, 15}});
    CHECK(dark.aligned(row0, attribute_set::all()));
    // Four light pieces (bit 1 clear): the clear value counts too.
    const board light = with({{0, 0}, {1, 2}, {2, 12}, {3, 14}});
    CHECK(light.aligned(row0, attribute_set::all()));
    // Nothing shared: 0 0000, 15 1111, 1 0001, 2 0010.
    const board mixed = with({{0, 0}, {1, 15}, {2, 1}, {3, 2}});
    CHECK_FALSE(mixed.aligned(row0, attribute_set::all()));
    // One empty square: never aligned.
    const board three = with({{0, 1}, {1, 3}, {2, 5}});
    CHECK_FALSE(three.aligned(row0, attribute_set::all()));
}

TEST_CASE("board::aligned counts only the attributes of the beginner subset")
{
    // Row 0: pieces 2, 3, 6, 7 (0010 0011 0110 0111) are all tall and all solid, nothing else.
    const board b = with({{0, 2}, {1, 3}, {2, 6}, {3, 7}});
    const auto only = [](attribute a) { return attribute_set{}.with(a); };
    CHECK(b.aligned(row0, only(attribute::height)));
    CHECK(b.aligned(row0, only(attribute::fill)));
    CHECK_FALSE(b.aligned(row0, only(attribute::color)));
    CHECK_FALSE(b.aligned(row0, only(attribute::shape)));
    CHECK_FALSE(b.aligned(row0, only(attribute::color).with(attribute::shape)));
    CHECK(b.aligned(row0, only(attribute::color).with(attribute::fill)));
    CHECK_FALSE(b.aligned(row0, attribute_set{}));
}

TEST_CASE("board::aligned agrees with a direct check for every attribute subset on many boards")
{
    // Deterministic pseudo-random boards; the direct check reads pieces with at().
    std::uint32_t state = 12345;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return state >> 16;
    };
    for (int trial = 0; trial < 300; ++trial) {
        board b;
        std::uint16_t pieces_left = 0xFFFF;
        const int count = static_cast<int>(next() % 17);
        for (int k = 0; k < count; ++k) {
            int s = 0;
            do s = static_cast<int>(next() % 16);
            while (b.occupied(static_cast<square>(s)));
            int p = 0;
            do p = static_cast<int>(next() % 16);
            while (!(pieces_left & (1u << p)));
            pieces_left = static_cast<std::uint16_t>(pieces_left & ~(1u << p));
            b.put(static_cast<square>(s), pc(p));
        }
        for (square_mask pattern : patterns(true))
            for (unsigned bits = 0; bits < 16; ++bits) {
                bool expected = true;
                for (int s = 0; s < 16; ++s)
                    if ((pattern & (1u << s)) && !b.occupied(static_cast<square>(s))) expected = false;
                if (expected) {
                    bool shared = false;
                    for (int a = 0; a < 4; ++a) {
                        if (!(bits & (1u << a))) continue;
                        int set_count = 0;
                        for (int s = 0; s < 16; ++s)
                            if ((pattern & (1u << s)) && (b.at(static_cast<square>(s))->code() & (1u << a)))
                                ++set_count;
                        if (set_count == 0 || set_count == 4) shared = true;
                    }
                    expected = shared;
                }
                CHECK(b.aligned(pattern, *attribute_set::from_bits(bits)) == expected);
            }
    }
}

TEST_CASE("rules::quarto_through finds only patterns through the placed square, of the variant")
{
    // A 2x2 square of dark pieces at 0,1,4,5; row 0 has 0,1 dark but 2,3 light and mixed.
    const board b = with({{0, 1}, {1, 3}, {4, 5}, {5, 7}, {2, 0}, {3, 14}});
    const rules standard{};
    const rules advanced{.squares = true};
    CHECK_FALSE(standard.quarto_through(b, 5));
    CHECK(advanced.quarto_through(b, 5) == std::optional<square_mask>{0x0033});
    CHECK(advanced.quarto_through(b, 0) == std::optional<square_mask>{0x0033});
    CHECK_FALSE(advanced.quarto_through(b, 2)); // row 0 is full but 1, 3, 0, 14 share nothing
    CHECK_FALSE(advanced.quarto_through(b, 10));

    // The diagonals.
    const board d = with({{0, 8}, {5, 9}, {10, 10}, {15, 11}, {3, 0}, {6, 2}, {9, 4}, {12, 6}});
    CHECK(standard.quarto_through(d, 10) == std::optional<square_mask>{main_diagonal});
    CHECK(standard.quarto_through(d, 6) == std::optional<square_mask>{anti_diagonal});
    // A column.
    const board c = with({{0, 4}, {4, 5}, {8, 6}, {12, 7}});
    CHECK(standard.quarto_through(c, 8) == std::optional<square_mask>{col0});
    CHECK_FALSE(standard.quarto_through(c, 1));
}

TEST_CASE("rules::quarto_through respects the counted attributes")
{
    // Row 1: 2, 3, 6, 7 share only tall and solid.
    const board b = with({{4, 2}, {5, 3}, {6, 6}, {7, 7}});
    CHECK(rules{}.quarto_through(b, 6) == std::optional<square_mask>{row1});
    CHECK(rules{.attributes = attribute_set{}.with(attribute::height)}.quarto_through(b, 6) ==
          std::optional<square_mask>{row1});
    CHECK_FALSE(rules{.attributes = attribute_set{}.with(attribute::color).with(attribute::shape)}.quarto_through(b, 6));
}
