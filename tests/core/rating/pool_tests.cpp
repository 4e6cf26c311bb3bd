// Rating pools: every combination of rules and clock goes to its pool, or to none (casual).
#include <doctest/doctest.h>

#include <chrono>
#include <optional>

#include "quarto/core/rating/pool.hpp"

// Not `using namespace quarto`: beside glicko2_tests.cpp's directive (one unity batch), the
// name `rating` would mean both the namespace and the struct.
using namespace quarto::rating;
using quarto::attribute_set;
using quarto::clock_settings;
using quarto::false_claim_policy;
using quarto::rules;

static_assert(pool_of(rules{}, clock_settings{}) == pool::standard);

TEST_CASE("full rules on a move clock are rated: lines standard, squares advanced")
{
    const clock_settings blitz{.move = std::chrono::seconds{10}, .claim = std::chrono::seconds{3}};
    for (const clock_settings& clock : {clock_settings{}, blitz})
        for (const false_claim_policy policy : {false_claim_policy::reject, false_claim_policy::lose}) {
            CHECK(pool_of(rules{.squares = false, .false_claim = policy}, clock) == pool::standard);
            CHECK(pool_of(rules{.squares = true, .false_claim = policy}, clock) == pool::advanced);
        }
}

TEST_CASE("untimed games and beginner subsets are casual")
{
    const clock_settings untimed{.move = std::nullopt};
    for (const bool squares : {false, true}) {
        CAPTURE(squares);
        CHECK(pool_of(rules{.squares = squares}, untimed) == std::nullopt);
        // Every subset but the full one, timed or not.
        for (unsigned bits = 1; bits < 0xF; ++bits) {
            CAPTURE(bits);
            const rules beginner{.squares = squares, .attributes = *attribute_set::from_bits(bits)};
            CHECK(pool_of(beginner, clock_settings{}) == std::nullopt);
            CHECK(pool_of(beginner, untimed) == std::nullopt);
        }
    }
}

TEST_CASE("pool names")
{
    CHECK(name(pool::standard) == "standard");
    CHECK(name(pool::advanced) == "advanced");
}
