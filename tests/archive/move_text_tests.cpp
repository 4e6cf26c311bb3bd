// The moves column's text (move_text.hpp): exactly the documented format out, the same moves
// back, and every text the writer would not produce refused.
#include <cstdint>
#include <limits>

#include "quarto/archive/move_text.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;

TEST_CASE("moves are written as a JSON array of [kind, seat, value, line, t_ms] and read back")
{
    CHECK(moves_to_text({}) == "[]");
    CHECK(moves_from_text("[]") == std::optional{std::vector<move_record>{}});

    const std::vector<move_record> one_of_each{
        {move_kind::give, 0, 3, 0, 120},
        {move_kind::place, 1, 15, 0, 900},
        {move_kind::call, 1, 0, 0x8421, 4'210},
        {move_kind::pass, 0, 0, 0, 0},
        {move_kind::resign, 1, 15, std::numeric_limits<square_mask>::max(), std::numeric_limits<std::uint32_t>::max()},
    };
    const std::string text = moves_to_text(one_of_each);
    CHECK(text == R"([["give",0,3,0,120],["place",1,15,0,900],["call",1,0,33825,4210],["pass",0,0,0,0],)"
                  R"(["resign",1,15,65535,4294967295]])");
    CHECK(moves_from_text(text) == std::optional{one_of_each});

    SUBCASE("whole games, the longest one included")
    {
        for (const game_record& g : {quarto_game("a"), resigned_game("b"), drawn_game("c"), timed_out_game("d")}) {
            CAPTURE(g.id);
            CHECK(moves_from_text(moves_to_text(g.moves)) == std::optional{g.moves});
        }
        CHECK(drawn_game("c").moves.size() == 34);
    }
    SUBCASE("JSON whitespace between tokens, as a hand edit or another JSON writer may leave it")
    {
        CHECK(moves_from_text(" [ [ \"give\" , 0 , 3 , 0 , 120 ] ,\n\t[\"place\",1,15,0,900]\r\n] ") ==
              std::optional{std::vector<move_record>{one_of_each[0], one_of_each[1]}});
        CHECK(moves_from_text(" [ ] ") == std::optional{std::vector<move_record>{}});
    }
}

TEST_CASE("a text that is not the moves format is refused")
{
    const char* const refused[] = {
        "",
        "null",
        R"({"moves":[]})",
        "[",
        "[[]]",
        "[]x",
        "[][]",
        R"([["give",0,3,0,120])",          // not closed
        R"([["give",0,3,0,120],])",        // trailing comma
        R"([["give",0,3,0]])",             // a field missing
        R"([["give",0,3,0,120,7]])",       // a field too many
        R"([[give,0,3,0,120]])",           // kind not a string
        R"([["jump",0,3,0,120]])",         // unknown kind
        R"([["GIVE",0,3,0,120]])",         // kinds are lower case
        R"([["gi\"ve",0,3,0,120]])",       // escapes
        R"([["give",2,3,0,120]])",         // seat
        R"([["give",0,16,0,120]])",        // value
        R"([["give",0,3,65536,120]])",     // line
        R"([["give",0,3,0,4294967296]])",  // t_ms
        R"([["give",0,3,0,99999999999999999999999]])",
        R"([["give",0,3,0,-1]])",
        R"([["give",0,3,0,1.5]])",
        R"([["give",0,3,0,1e3]])",
        R"([["give",0,3,0,012]])",
        R"([["give",0,3,0,"120"]])",
        R"([["give",0,3,0,]])",
    };
    for (const char* text : refused) {
        CAPTURE(text);
        CHECK_FALSE(moves_from_text(text).has_value());
    }
}
