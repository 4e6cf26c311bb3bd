// The moves of a game (give, place, quarto, pass, resign, rematch) are read without a JSON
// document when they are flat and plain; everything else goes through the full parser. Whichever path a frame
// takes, the result must be the one the protocol defines: these tests write the same message in
// the many ways JSON allows and check that every spelling means the same thing.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"

using namespace quarto;
using namespace quarto::protocol;
using namespace protocol_tests;

namespace {

struct spelling {
    std::string text;
    std::string how;
};

// `members` in order, with optional spaces around every token.
std::string object_text(const std::vector<std::pair<std::string, std::string>>& members, std::mt19937& rng, bool spaced)
{
    const auto space = [&] {
        if (!spaced) return std::string{};
        static const std::string blanks[] = {"", " ", "\t", "\n", "\r\n  "};
        return blanks[rng() % 5];
    };
    std::string out = space() + "{";
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (i) out += space() + ",";
        out += space() + "\"" + members[i].first + "\"" + space() + ":" + space() + members[i].second + space();
    }
    return out + "}" + space();
}

// The message {type, room, field} spelled in ways the fast path reads and in ways it leaves
// to the full parser (escapes, a repeated member, extra nested members, a float-free but
// long-winded number).
std::vector<spelling> spellings(const std::string& type, const std::string& field, const std::string& value,
                                std::mt19937& rng)
{
    std::vector<std::pair<std::string, std::string>> members{{"type", "\"" + type + "\""}, {"room", "\"r1\""}};
    if (!field.empty()) members.emplace_back(field, value);
    std::vector<spelling> out;
    for (int i = 0; i < 6; ++i) {
        auto shuffled = members;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        out.push_back({object_text(shuffled, rng, i > 0), "plain"});
    }
    auto escaped = members;
    escaped[1].second = R"("\u0072\u0031")"; // "r1" with escapes
    out.push_back({object_text(escaped, rng, true), "escaped room"});
    auto repeated = members;
    repeated.insert(repeated.begin(), {"room", "\"other\""}); // the last "room" counts
    out.push_back({object_text(repeated, rng, true), "repeated room"});
    auto nested = members;
    nested.emplace_back("extra", R"({"a":[1,2,{"b":null}]})");
    nested.emplace_back("note", "\"caf\xc3\xa9\"");
    out.push_back({object_text(nested, rng, true), "unknown nested and non-ASCII members"});
    auto with_null_req = members;
    with_null_req.emplace_back("req", "null");
    out.push_back({object_text(with_null_req, rng, true), "null req"});
    return out;
}

} // namespace

TEST_CASE("every spelling of a move means the same message")
{
    std::mt19937 rng{2026};
    for (int p = 0; p < 16; ++p) {
        for (const auto& [text, how] : spellings("give", "piece", std::to_string(p), rng)) {
            INFO(how << ": " << text);
            const auto g = parse_as<give>(text);
            CHECK(g.room == "r1");
            CHECK(g.what.code() == p);
            CHECK(parse_ok(text).req.is_null());
        }
        for (const auto& [text, how] : spellings("place", "square", std::to_string(p), rng)) {
            INFO(how << ": " << text);
            const auto pl = parse_as<place>(text);
            CHECK(pl.room == "r1");
            CHECK(pl.where == p);
        }
    }
    const std::pair<std::string, square_mask> lines[] = {
        {"[0,1,2,3]", 0x000F}, {"[ 3 , 2,1 ,0 ]", 0x000F}, {"[12,9,6,3]", 0x1248}, {"[0,1,4,5]", 0x0033}};
    for (const auto& [line, mask] : lines) {
        for (const auto& [text, how] : spellings("quarto", "line", line, rng)) {
            INFO(how << ": " << text);
            const auto q = parse_as<call_quarto>(text);
            CHECK(q.room == "r1");
            CHECK(q.line == mask);
        }
    }
    for (const auto& [text, how] : spellings("pass", "", "", rng)) CHECK(parse_as<pass>(text).room == "r1");
    for (const auto& [text, how] : spellings("resign", "", "", rng)) CHECK(parse_as<resign>(text).room == "r1");
    for (const auto& [text, how] : spellings("rematch", "", "", rng)) CHECK(parse_as<rematch>(text).room == "r1");
}

TEST_CASE("a move's req comes back as the client wrote it")
{
    CHECK(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":"a-7"})").req == "a-7");
    CHECK(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":42})").req == 42);
    CHECK(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":42})").req.dump() == "42");
    CHECK(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":999999999999999999})").req.dump() == "999999999999999999");
    CHECK(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":18446744073709551615})").req.dump() == "18446744073709551615");
    CHECK(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":-5})").req == -5);
    CHECK(req_text(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":2.50})").req) == "2.50");
    CHECK(parse_ok(R"({"type":"give","room":"r1","piece":3,"req":"caf\u00e9"})").req == "caf\xc3\xa9");
    CHECK(parse_ok(R"({"req":"q","type":"pass","room":"r1"})").req == "q");
}

TEST_CASE("moves that look plain but are not valid are refused as the protocol says")
{
    check_bad_message(R"({"type":"give","room":"r1","piece":16})");
    check_bad_message(R"({"type":"give","room":"r1","piece":999999999999999999999})");
    check_bad_message(R"({"type":"give","room":"r1","piece":5.0})");
    check_bad_message(R"({"type":"give","room":"r1","piece":"5"})");
    check_bad_message(R"({"type":"give","room":"r1","piece":-1})");
    check_bad_message(R"({"type":"give","room":"","piece":1})");
    check_bad_message(R"({"type":"place","room":"r1","piece":1})");
    check_bad_message(R"({"type":"pass","room":7})");
    check_bad_message(R"({"type":"give","room":"r1","piece":1,"req":true})");
    // A req the scanner starts reading as a number is read whole or declined (fuzz finding).
    check_refused(R"({"type":"pass","room":"r","req":00null})", "bad_json");
    check_refused(R"({"type":"pass","room":"r","req":0null})", "bad_json");
    check_refused(R"({"type":"pass","room":"r","req":1234567890123456789012null})", "bad_json");
    check_bad_message(R"({"type":"give","room":"r1","piece":1,"req":[1]})");
    check_bad_message(R"({"type":"rematch","room":")" + std::string(65, 'r') + R"("})");
    check_refused(R"({"type":"give","room":"r1","piece":01})", "bad_json");
    check_refused(R"({"type":"give","room":"r1","piece":1} x)", "bad_json");
    check_refused(R"({"type":"give","room":"r1","piece":1,})", "bad_json");
    check_refused(R"({"type":"give","room":"r1" "piece":1})", "bad_json");
    check_refused(R"({"type":"give","room":"r1","piece":tru})", "bad_json");
    check_refused("{\"type\":\"give\",\"room\":\"r\x01\",\"piece\":1}", "bad_json");
    check_refused(R"({"type":"gives","room":"r1","piece":1})", "unknown_type");
    check_bad_message(R"({"type":"quarto","room":"r1","line":[0,1,2]})");
    check_bad_message(R"({"type":"quarto","room":"r1","line":[0,1,2,3,4]})");
    check_bad_message(R"({"type":"quarto","room":"r1","line":[0,1,2,2]})");
    check_bad_message(R"({"type":"quarto","room":"r1","line":[0,1,2,16]})");
    check_bad_message(R"({"type":"quarto","room":"r1","line":[0,1,2,-3]})");
    check_bad_message(R"({"type":"quarto","room":"r1","line":"0,1,2,3"})");
    check_bad_message(R"({"type":"quarto","room":"r1"})");
    check_refused(R"({"type":"quarto","room":"r1","line":[0,1,2,3})", "bad_json");
    // The last of a repeated member counts, as in the full parser.
    CHECK(parse_as<give>(R"({"type":"give","room":"r1","piece":1,"piece":2})").what.code() == 2);
    check_bad_message(R"({"type":"give","room":"r1","piece":1,"piece":20})");
}
