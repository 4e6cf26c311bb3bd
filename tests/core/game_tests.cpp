#include <doctest/doctest.h>
#include "quarto/core/game.hpp"
using namespace quarto;
TEST_CASE("smoke: a placer calls their own quarto")
{
    game g{rules{}, clock_settings{}, 0, at_ms(0)};
    // dark pieces 1,3,5,7 on row 0
    const std::uint8_t pieces[4] = {1, 3, 5, 7};
    seat giver = 0;
    for (int i = 0; i < 4; ++i) {
        REQUIRE(g.give(giver, piece{pieces[i]}, at_ms(i * 10)));
        REQUIRE(g.place(opponent(giver), static_cast<square>(i), at_ms(i * 10 + 5)));
        giver = opponent(giver);
    }
    CHECK(g.call_quarto(giver, 0x000F, at_ms(100)));
    REQUIRE(g.result());
    CHECK(g.result()->reason == end_reason::quarto);
    CHECK(*g.result()->winner == giver);
}
