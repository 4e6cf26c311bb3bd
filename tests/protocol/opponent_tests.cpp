// create_room's `opponent`: the computer in the other seat, its level and its delay, and every
// way a client can get them wrong.
#include <string>

#include "support.hpp"

using namespace quarto::model;

using namespace quarto::protocol;
using namespace protocol_tests;

namespace {

std::string with_opponent(std::string_view value)
{
    return R"({"type":"create_room","opponent":)" + std::string{value} + "}";
}

// The refusal's sentence, for checking that it names the field and its range.
std::string refusal(std::string_view value)
{
    const parse_error e = parse_refused(with_opponent(value));
    CHECK(wire_name(e.code) == "bad_message");
    return e.message;
}

} // namespace

TEST_CASE("create_room without an opponent waits for a person")
{
    CHECK_FALSE(parse_as<create_room>(R"({"type":"create_room"})").opponent);
    CHECK_FALSE(parse_as<create_room>(with_opponent("null")).opponent);
}

TEST_CASE("create_room: each bot level with the default delay")
{
    for (int level = 1; level <= 5; ++level) {
        const auto c = parse_as<create_room>(with_opponent(R"({"bot":)" + std::to_string(level) + "}"));
        REQUIRE(c.opponent);
        CHECK(c.opponent->level == level);
        CHECK(c.opponent->delay_ms == 600);
    }
}

TEST_CASE("create_room: the delay of the bot is 0 to 5000 ms and null is the default")
{
    CHECK(parse_as<create_room>(with_opponent(R"({"bot":4,"delay_ms":0})")).opponent->delay_ms == 0);
    CHECK(parse_as<create_room>(with_opponent(R"({"bot":4,"delay_ms":5000})")).opponent->delay_ms == 5000);
    CHECK(parse_as<create_room>(with_opponent(R"({"bot":4,"delay_ms":null})")).opponent->delay_ms == 600);
    // Unknown fields inside it are ignored, as everywhere.
    CHECK(parse_as<create_room>(with_opponent(R"({"bot":2,"style":"aggressive"})")).opponent->level == 2);
}

TEST_CASE("create_room: a level outside 1..5 is refused with the range said")
{
    for (std::string_view level : {"0", "6", "-1", "100", "18446744073709551615"})
        CHECK(refusal(R"({"bot":)" + std::string{level} + "}") == R"("opponent.bot" must be between 1 and 5)");
}

TEST_CASE("create_room: a level that is not an integer is refused")
{
    for (std::string_view level : {"3.0", "2.5", "\"3\"", "true", "[3]", "{\"n\":3}", "1e0"})
        CHECK(refusal(R"({"bot":)" + std::string{level} + "}") == R"("opponent.bot" must be an integer)");
}

TEST_CASE("create_room: an opponent without a level is refused")
{
    for (std::string_view value : {"{}", R"({"bot":null})", R"({"delay_ms":0})", R"({"human":true})"})
        CHECK(refusal(value) == R"("opponent" needs "bot", a level from 1 to 5)");
}

TEST_CASE("create_room: an opponent that is not an object is refused")
{
    for (std::string_view value : {"3", "\"bot\"", "true", "[{\"bot\":3}]"})
        CHECK(refusal(value) == R"("opponent" must be an object such as {"bot": 3})");
}

TEST_CASE("create_room: a delay outside 0..5000 or not an integer is refused")
{
    for (std::string_view delay : {"-1", "5001", "86400000"})
        CHECK(refusal(R"({"bot":3,"delay_ms":)" + std::string{delay} + "}") ==
              R"("opponent.delay_ms" must be between 0 and 5000)");
    for (std::string_view delay : {"600.5", "\"600\"", "false"})
        CHECK(refusal(R"({"bot":3,"delay_ms":)" + std::string{delay} + "}") ==
              R"("opponent.delay_ms" must be an integer)");
}

TEST_CASE("create_room: a bad opponent keeps the req")
{
    const parse_error e = parse_refused(R"({"type":"create_room","opponent":{"bot":9},"req":"c7"})");
    CHECK(e.req == "c7");
    CHECK(e.type == "create_room");
}

TEST_CASE("add_bot: the director's computer for a tournament, read as create_room's opponent")
{
    const auto added = parse_as<add_bot>(R"({"type":"add_bot","tournament":"tclub","opponent":{"bot":5,"delay_ms":0},"req":1})");
    CHECK(added.tournament == "tclub");
    CHECK(added.opponent == bot_opponent{5, 0});
    CHECK(parse_as<add_bot>(R"({"type":"add_bot","tournament":"tclub","opponent":{"bot":1}})").opponent.delay_ms == 600);

    const auto refused = [](std::string_view text) {
        const parse_error e = parse_refused(text);
        CHECK(wire_name(e.code) == "bad_message");
        return e.message;
    };
    CHECK(refused(R"({"type":"add_bot","tournament":"tclub"})") == R"(missing field "opponent")");
    CHECK(refused(R"({"type":"add_bot","tournament":"tclub","opponent":null})") ==
          R"("opponent" must be an object such as {"bot": 3})");
    CHECK(refused(R"({"type":"add_bot","tournament":"tclub","opponent":{"bot":6}})") ==
          R"("opponent.bot" must be between 1 and 5)");
    CHECK(refused(R"({"type":"add_bot","opponent":{"bot":3}})") == R"(missing field "tournament")");
}
