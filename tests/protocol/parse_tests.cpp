// Parsing of every client message of protocol v1, valid and invalid: the server relies on
// parse_client_message to hand it only complete, typed, in-range messages.
#include <array>
#include <string>
#include <type_traits>
#include <vector>

#include "support.hpp"

using namespace quarto;
using namespace quarto::protocol;
using namespace protocol_tests;

namespace {

// A frame of `type` for room "r1" with one more field set to the raw JSON `value`.
std::string with_field(std::string_view type, std::string_view field, std::string_view value)
{
    return R"({"type":")" + std::string{type} + R"(","room":"r1",")" + std::string{field} + "\":" + std::string{value} + "}";
}

// Raw JSON values that are not integers in any sense the protocol accepts.
const std::vector<std::string> not_integers{"3.0", "3.5", "\"3\"", "true", "false", "null", "[3]", "{\"n\":3}", "1e2"};

// The room-addressed messages that carry nothing but "room".
constexpr std::array<std::string_view, 4> room_only_types{"leave", "pass", "resign", "rematch"};

} // namespace

TEST_CASE("frames that are not JSON are bad_json")
{
    for (std::string_view text : {"", " ", "{", "}", "nonsense", "{\"type\":\"ping\"", "{'type':'ping'}",
                                  "{\"type\":ping}", "{\"type\":\"ping\",}", "{\"type\":\"ping\"} x",
                                  "{\"type\":\"ping\"}{\"type\":\"ping\"}", "[1,2"}) {
        const parse_error e = parse_refused(text);
        CHECK(wire_name(e.code) == "bad_json");
        CHECK(e.req.is_null());
    }
}

TEST_CASE("invalid UTF-8 inside a string is bad_json")
{
    check_refused("{\"type\":\"hello\",\"name\":\"\xff\xfe\"}", "bad_json");
    check_refused("{\"type\":\"hello\",\"name\":\"\xc3\"}", "bad_json");
}

TEST_CASE("a number too large for a double is bad_json")
{
    check_refused(R"({"type":"give","room":"r1","piece":1e400})", "bad_json");
}

TEST_CASE("JSON that is not an object is bad_message")
{
    for (std::string_view text : {"[]", "[{\"type\":\"ping\"}]", "42", "\"ping\"", "null", "true"}) {
        const parse_error e = parse_refused(text);
        CHECK(wire_name(e.code) == "bad_message");
        CHECK(e.req.is_null());
    }
}

TEST_CASE("a missing or mistyped type is bad_message")
{
    check_bad_message("{}");
    check_bad_message(R"({"name":"Ann"})");
    check_bad_message(R"({"type":null})");
    check_bad_message(R"({"type":7})");
    check_bad_message(R"({"type":true})");
    check_bad_message(R"({"type":["ping"]})");
    check_bad_message(R"({"type":{"name":"ping"}})");
}

TEST_CASE("an unknown type is unknown_type")
{
    for (std::string_view text : {R"({"type":"dance"})", R"({"type":""})", R"({"type":"PING"})",
                                  R"({"type":"Hello","name":"Ann"})", R"({"type":"ping "})",
                                  R"({"type":"call","room":"r1","line":[0,1,2,3]})"}) {
        const parse_error e = parse_refused(text);
        CHECK(wire_name(e.code) == "unknown_type");
    }
    // The message names the type so that a client author sees the typo.
    CHECK(parse_refused(R"({"type":"dance"})").message.find("dance") != std::string::npos);
}

TEST_CASE("req: a string or a number is echoed, other types are bad_message")
{
    SUBCASE("string")
    {
        const parsed_message m = parse_ok(R"({"type":"ping","req":"a-1"})");
        CHECK(m.req == json("a-1"));
        CHECK(holds<ping>(m.message));
    }
    SUBCASE("empty string") { CHECK(parse_ok(R"({"type":"ping","req":""})").req == json("")); }
    SUBCASE("integer") { CHECK(parse_ok(R"({"type":"ping","req":42})").req == json(42)); }
    SUBCASE("negative integer") { CHECK(parse_ok(R"({"type":"ping","req":-7})").req == json(-7)); }
    SUBCASE("a float is echoed as it was written")
    {
        for (std::string_view written : {"1.5", "1.50", "1e3", "-0.0", "123456789012345678901234567890", "2.5E-7"}) {
            CAPTURE(written);
            const parsed_message m = parse_ok(R"({"type":"ping","req":)" + std::string{written} + "}");
            CHECK(req_text(m.req) == written);
            CHECK(error_reply(error_code::rate_limited, "x", m.req).ends_with(",\"req\":" + std::string{written} + "}"));
        }
    }
    SUBCASE("the last of repeated req keys is the one echoed, as nlohmann keeps it")
    {
        CHECK(req_text(parse_ok(R"({"type":"ping","req":1.50,"req":2.50})").req) == "2.50");
        CHECK(req_text(parse_ok(R"({"type":"ping","req":1.50,"req":"s"})").req) == "\"s\"");
        CHECK(req_text(parse_ok(R"({"type":"ping","x":{"req":9.0},"req":1.25})").req) == "1.25");
    }
    SUBCASE("rate limiting reads req the same way")
    {
        CHECK(req_text(request_id_of(R"({"type":"ping","req":7.000})")) == "7.000");
        CHECK(req_text(request_id_of(R"({"type":"ping","req":"r"})")) == "\"r\"");
        CHECK(request_id_of("not json").is_null());
    }
    SUBCASE("large unsigned") {
        CHECK(parse_ok(R"({"type":"ping","req":18446744073709551615})").req == json(18446744073709551615ull));
    }
    SUBCASE("absent: null") { CHECK(parse_ok(R"({"type":"ping"})").req.is_null()); }
    SUBCASE("explicit null is the same as absent") { CHECK(parse_ok(R"({"type":"ping","req":null})").req.is_null()); }
    SUBCASE("wrong types are refused, and the bad req is not echoed")
    {
        for (std::string_view text : {R"({"type":"ping","req":true})",
                                      R"({"type":"ping","req":[1]})", R"({"type":"ping","req":{"id":1}})"}) {
            const parse_error e = parse_refused(text);
            CHECK(wire_name(e.code) == "bad_message");
            CHECK(e.req.is_null());
        }
    }
}

TEST_CASE("req is echoed in the errors of messages that carry one")
{
    SUBCASE("missing type")
    {
        const parse_error e = parse_refused(R"({"req":"r7"})");
        CHECK(wire_name(e.code) == "bad_message");
        CHECK(e.req == json("r7"));
    }
    SUBCASE("unknown type")
    {
        const parse_error e = parse_refused(R"({"type":"dance","req":9})");
        CHECK(wire_name(e.code) == "unknown_type");
        CHECK(e.req == json(9));
    }
    SUBCASE("field error")
    {
        const parse_error e = parse_refused(R"({"type":"give","room":"r1","piece":16,"req":"g1"})");
        CHECK(wire_name(e.code) == "bad_message");
        CHECK(e.req == json("g1"));
    }
    SUBCASE("req before or after the other fields")
    {
        const parse_error e = parse_refused(R"({"req":3,"type":"place","room":"r1","square":-1})");
        CHECK(e.req == json(3));
    }
}

TEST_CASE("unknown fields are ignored")
{
    const parsed_message m = parse_ok(R"({"type":"ping","extra":{"deep":[1,2,3]},"version":2,"req":"x"})");
    CHECK(holds<ping>(m.message));
    CHECK(m.req == json("x"));

    const auto g = parse_as<give>(R"({"type":"give","room":"r1","piece":7,"square":99,"line":"nonsense","seat":5})");
    CHECK(int{g.what.code()} == 7);

    const auto c = parse_as<create_room>(
        R"({"type":"create_room","rules":{"squares":true,"colour":"red"},"clock":{"move_ms":1000,"increment_ms":5}})");
    CHECK(c.game_rules.squares);
    CHECK(c.clock.move == milliseconds{1000});
}

// ---- hello -------------------------------------------------------------------------------

TEST_CASE("hello with a name")
{
    const parsed_message m = parse_ok(R"({"type":"hello","name":"Ann","req":1})");
    REQUIRE(holds<hello>(m.message));
    const hello& h = *find_message<hello>(m.message);
    REQUIRE(h.name);
    CHECK(*h.name == "Ann");
    CHECK_FALSE(h.token);
    CHECK(m.req == json(1));
}

TEST_CASE("hello: the name is trimmed of spaces, then must be 1..32 bytes without control characters")
{
    CHECK(*parse_as<hello>(R"({"type":"hello","name":"  Ann Lee  "})").name == "Ann Lee");
    CHECK(*parse_as<hello>(R"({"type":"hello","name":"x"})").name == "x");

    const std::string max(max_name_length, 'n');
    CHECK(*parse_as<hello>(R"({"type":"hello","name":")" + max + "\"}").name == max);
    // The length is checked after trimming.
    CHECK(*parse_as<hello>(R"({"type":"hello","name":"   )" + max + "   \"}").name == max);
    check_bad_message(R"({"type":"hello","name":")" + max + "n\"}");

    // Counted in bytes of UTF-8: 16 two-byte letters fit, 17 do not.
    std::string accents;
    for (int i = 0; i < 16; ++i) accents += "\xc3\xa9";
    CHECK(*parse_as<hello>(R"({"type":"hello","name":")" + accents + "\"}").name == accents);
    check_bad_message(R"({"type":"hello","name":")" + accents + "\xc3\xa9\"}");
    // Escaped non-ASCII comes out as UTF-8.
    CHECK(*parse_as<hello>(R"({"type":"hello","name":"Ren\u00e9e"})").name == "Ren\xc3\xa9" "e");

    SUBCASE("empty after trimming")
    {
        check_bad_message(R"({"type":"hello","name":""})");
        check_bad_message(R"({"type":"hello","name":"     "})");
    }
    SUBCASE("control characters, including tabs and DEL, anywhere")
    {
        for (std::string_view escape : {"\\u0000", "\\u0001", "\\t", "\\n", "\\r", "\\u001f", "\\u007f", "\\u0080", "\\u009f"}) {
            check_bad_message(R"({"type":"hello","name":"An)" + std::string{escape} + "n\"}");
            check_bad_message(R"({"type":"hello","name":")" + std::string{escape} + "Ann\"}");
        }
    }
    SUBCASE("letters just past the C1 controls are fine")
    {
        CHECK(find_message<protocol::hello>(parse_ok(R"({"type":"hello","name":"\u00a0\u00e9l\u00e8ne"})").message)->name.has_value());
    }
    SUBCASE("mistyped names")
    {
        for (std::string_view value : {"null", "42", "true", "[\"Ann\"]", "{\"first\":\"Ann\"}"})
            check_bad_message(R"({"type":"hello","name":)" + std::string{value} + "}");
    }
}

TEST_CASE("rename: a name under hello's rules")
{
    const parsed_message m = parse_ok(R"({"type":"rename","name":"  Ann B  ","req":"r"})");
    REQUIRE(holds<quarto::protocol::rename>(m.message));
    CHECK(find_message<quarto::protocol::rename>(m.message)->name == "Ann B");
    CHECK(m.req == json("r"));
    check_bad_message(R"({"type":"rename"})");
    check_bad_message(R"({"type":"rename","name":"   "})");
    check_bad_message(R"({"type":"rename","name":7})");
    check_bad_message(R"({"type":"rename","name":"a\tb"})");
    check_bad_message(R"({"type":"rename","name":")" + std::string(max_name_length + 1, 'n') + "\"}");
}

TEST_CASE("hello with a token resumes")
{
    const auto h = parse_as<hello>(R"({"type":"hello","token":"0123456789abcdef0123456789abcdef"})");
    REQUIRE(h.token);
    CHECK(*h.token == "0123456789abcdef0123456789abcdef");
    CHECK_FALSE(h.name);

    SUBCASE("token and name may come together")
    {
        const auto both = parse_as<hello>(R"({"type":"hello","token":"t0k3n","name":" Bo "})");
        CHECK(*both.token == "t0k3n");
        CHECK(*both.name == "Bo");
    }
    SUBCASE("with a token, the name is still validated")
    {
        check_bad_message(R"({"type":"hello","token":"t0k3n","name":""})");
    }
    SUBCASE("token length 1..128")
    {
        const std::string longest(128, 'a');
        CHECK(*parse_as<hello>(R"({"type":"hello","token":")" + longest + "\"}").token == longest);
        check_bad_message(R"({"type":"hello","token":")" + longest + "a\"}");
        check_bad_message(R"({"type":"hello","token":""})");
    }
    SUBCASE("mistyped tokens")
    {
        for (std::string_view value : {"null", "12345", "true", "[\"t\"]"})
            check_bad_message(R"({"type":"hello","token":)" + std::string{value} + "}");
    }
}

TEST_CASE("hello needs a name, a token or a session")
{
    check_bad_message(R"({"type":"hello"})");
    check_bad_message(R"({"type":"hello","player":"p1"})");
    const auto h = parse_as<hello>(R"({"type":"hello","session":"0123456789abcdef0123456789abcdef"})");
    REQUIRE(h.session);
    CHECK(*h.session == "0123456789abcdef0123456789abcdef");
    CHECK_FALSE(h.name);
    check_bad_message(R"({"type":"hello","session":""})");
    check_bad_message(R"({"type":"hello","session":5})");
    check_bad_message(R"({"type":"hello","session":")" + std::string(129, 'a') + "\"}");
}

TEST_CASE("create_room: rated is a boolean, false unless asked")
{
    CHECK_FALSE(parse_as<create_room>(R"({"type":"create_room"})").rated);
    CHECK(parse_as<create_room>(R"({"type":"create_room","rated":true})").rated);
    CHECK_FALSE(parse_as<create_room>(R"({"type":"create_room","rated":null})").rated);
    check_bad_message(R"({"type":"create_room","rated":"yes"})");
}

// ---- ping, list_rooms ----------------------------------------------------------------------

TEST_CASE("ping and list_rooms need nothing but their type")
{
    CHECK(holds<ping>(parse_ok(R"({"type":"ping"})").message));
    CHECK(holds<list_rooms>(parse_ok(R"({"type":"list_rooms"})").message));
    // A stray room field does not matter.
    CHECK(holds<list_rooms>(parse_ok(R"({"type":"list_rooms","room":5})").message));
    const parsed_message m = parse_ok(R"({"req":"p","type":"ping"})");
    CHECK(m.req == json("p"));
}

TEST_CASE("list_rooms and list_tournaments take a page: offset and limit")
{
    const auto defaults = parse_as<list_rooms>(R"({"type":"list_rooms"})").page;
    CHECK(defaults.offset == 0);
    CHECK(defaults.limit == default_page_size);
    const auto paged = parse_as<list_rooms>(R"({"type":"list_rooms","offset":300,"limit":200})").page;
    CHECK(paged.offset == 300);
    CHECK(paged.limit == max_page_size);
    CHECK(parse_as<list_tournaments>(R"({"type":"list_tournaments","offset":5,"limit":1})").page.offset == 5);
    CHECK(parse_as<list_rooms>(R"({"type":"list_rooms","offset":null,"limit":null})").page.limit == default_page_size);
    for (std::string_view type : {"list_rooms", "list_tournaments"}) {
        for (std::string_view bad : {R"("offset":-1)", R"("offset":1.5)", R"("offset":"3")", R"("limit":0)",
                                     R"("limit":201)", R"("limit":true)"}) {
            check_bad_message(R"({"type":")" + std::string{type} + R"(",)" + std::string{bad} + "}");
        }
    }
}

// ---- create_room -------------------------------------------------------------------------

TEST_CASE("create_room with nothing but its type takes the defaults")
{
    const auto c = parse_as<create_room>(R"({"type":"create_room"})");
    CHECK(c.name.empty());
    CHECK(c.game_rules == rules{});
    CHECK_FALSE(c.game_rules.squares);
    CHECK(c.game_rules.attributes == attribute_set::all());
    CHECK(c.game_rules.false_claim == false_claim_policy::reject);
    CHECK(c.clock.move == milliseconds{60'000});
    CHECK(c.clock.claim == milliseconds{10'000});
    CHECK_FALSE(c.is_private);
}

TEST_CASE("create_room: null options mean the defaults")
{
    const create_room c =
        parse_as<create_room>(R"({"type":"create_room","name":null,"rules":null,"clock":null,"private":null})");
    CHECK(c.name.empty());
    CHECK(c.game_rules == rules{});
    CHECK(c.clock == clock_settings{});
    CHECK_FALSE(c.is_private);
}

TEST_CASE("create_room with every option")
{
    const auto c = parse_as<create_room>(R"({"type":"create_room","name":" Friday night ",
        "rules":{"squares":true,"attributes":["fill","color"],"false_claim":"lose"},
        "clock":{"move_ms":30000,"claim_ms":5000},"private":true,"req":"c1"})");
    CHECK(c.name == "Friday night");
    CHECK(c.game_rules.squares);
    CHECK(c.game_rules.attributes.contains(attribute::color));
    CHECK(c.game_rules.attributes.contains(attribute::fill));
    CHECK_FALSE(c.game_rules.attributes.contains(attribute::height));
    CHECK_FALSE(c.game_rules.attributes.contains(attribute::shape));
    CHECK(c.game_rules.false_claim == false_claim_policy::lose);
    CHECK(c.clock.move == milliseconds{30'000});
    CHECK(c.clock.claim == milliseconds{5'000});
    CHECK(c.is_private);
}

TEST_CASE("create_room: the name may be empty but not too long or mistyped")
{
    CHECK(parse_as<create_room>(R"({"type":"create_room","name":""})").name.empty());
    CHECK(parse_as<create_room>(R"({"type":"create_room","name":"   "})").name.empty());
    const std::string max(max_name_length, 'r');
    CHECK(parse_as<create_room>(R"({"type":"create_room","name":")" + max + "\"}").name == max);
    check_bad_message(R"({"type":"create_room","name":")" + max + "r\"}");
    check_bad_message(R"({"type":"create_room","name":"a\u0007b"})");
    check_bad_message(R"({"type":"create_room","name":3})");
    check_bad_message(R"({"type":"create_room","name":false})");
}

TEST_CASE("create_room: private must be a boolean")
{
    CHECK_FALSE(parse_as<create_room>(R"({"type":"create_room","private":false})").is_private);
    for (std::string_view value : {"1", "0", "\"yes\"", "\"true\"", "[]"})
        check_bad_message(R"({"type":"create_room","private":)" + std::string{value} + "}");
}

TEST_CASE("create_room: rules")
{
    const auto rules_of = [](std::string_view r) {
        return parse_as<create_room>(R"({"type":"create_room","rules":)" + std::string{r} + "}").game_rules;
    };
    const auto refused = [](std::string_view r) { check_bad_message(R"({"type":"create_room","rules":)" + std::string{r} + "}"); };

    SUBCASE("an empty object is the defaults") { CHECK(rules_of("{}") == rules{}); }
    SUBCASE("rules must be an object")
    {
        for (std::string_view r : {"[]", "\"standard\"", "true", "1"}) refused(r);
    }
    SUBCASE("squares")
    {
        CHECK(rules_of(R"({"squares":true})").squares);
        CHECK_FALSE(rules_of(R"({"squares":false})").squares);
        for (std::string_view r : {R"({"squares":1})", R"({"squares":"true"})", R"({"squares":null})"}) refused(r);
    }
    SUBCASE("attributes: each single attribute")
    {
        const std::array<std::pair<std::string_view, attribute>, 4> names{{{"color", attribute::color},
                                                                           {"height", attribute::height},
                                                                           {"shape", attribute::shape},
                                                                           {"fill", attribute::fill}}};
        for (const auto& [name, a] : names) {
            const rules r = rules_of(R"({"attributes":[")" + std::string{name} + "\"]}");
            CHECK(r.attributes == attribute_set{}.with(a));
        }
    }
    SUBCASE("attributes: all four in any order")
    {
        CHECK(rules_of(R"({"attributes":["fill","shape","height","color"]})").attributes == attribute_set::all());
    }
    SUBCASE("attributes: empty, repeated, unknown or mistyped")
    {
        refused(R"({"attributes":[]})");
        refused(R"({"attributes":["color","color"]})");
        refused(R"({"attributes":["color","height","color"]})");
        refused(R"({"attributes":["color","height","shape","fill","color"]})");
        refused(R"({"attributes":["colour"]})");
        refused(R"({"attributes":["Color"]})");
        refused(R"({"attributes":[""]})");
        refused(R"({"attributes":[1]})");
        refused(R"({"attributes":[null]})");
        refused(R"({"attributes":"color"})");
        refused(R"({"attributes":null})");
        refused(R"({"attributes":{"color":true}})");
    }
    SUBCASE("false_claim")
    {
        CHECK(rules_of(R"({"false_claim":"reject"})").false_claim == false_claim_policy::reject);
        CHECK(rules_of(R"({"false_claim":"lose"})").false_claim == false_claim_policy::lose);
        for (std::string_view r : {R"({"false_claim":"LOSE"})", R"({"false_claim":"forfeit"})", R"({"false_claim":""})",
                                   R"({"false_claim":true})", R"({"false_claim":1})", R"({"false_claim":null})"})
            refused(r);
    }
}

TEST_CASE("create_room: clock")
{
    const auto clock_of = [](std::string_view c) {
        return parse_as<create_room>(R"({"type":"create_room","clock":)" + std::string{c} + "}").clock;
    };
    const auto refused = [](std::string_view c) { check_bad_message(R"({"type":"create_room","clock":)" + std::string{c} + "}"); };

    SUBCASE("an empty object is the defaults") { CHECK(clock_of("{}") == clock_settings{}); }
    SUBCASE("clock must be an object")
    {
        for (std::string_view c : {"[]", "60000", "\"fast\"", "false"}) refused(c);
    }
    SUBCASE("move_ms null is untimed")
    {
        const clock_settings c = clock_of(R"({"move_ms":null})");
        CHECK_FALSE(c.move.has_value());
        CHECK(c.claim == milliseconds{10'000});
    }
    SUBCASE("move_ms bounds 100..3600000, edges included")
    {
        CHECK(clock_of(R"({"move_ms":100})").move == milliseconds{100});
        CHECK(clock_of(R"({"move_ms":3600000})").move == milliseconds{3'600'000});
        for (std::string_view c : {R"({"move_ms":99})", R"({"move_ms":3600001})", R"({"move_ms":0})",
                                   R"({"move_ms":-1})", R"({"move_ms":-60000})", R"({"move_ms":9223372036854775807})",
                                   R"({"move_ms":18446744073709551615})", R"({"move_ms":-9223372036854775808})",
                                   R"({"move_ms":99999999999999999999999})"})
            refused(c);
    }
    SUBCASE("claim_ms bounds 100..600000, edges included")
    {
        CHECK(clock_of(R"({"claim_ms":100})").claim == milliseconds{100});
        CHECK(clock_of(R"({"claim_ms":600000})").claim == milliseconds{600'000});
        for (std::string_view c : {R"({"claim_ms":99})", R"({"claim_ms":600001})", R"({"claim_ms":0})",
                                   R"({"claim_ms":-100})", R"({"claim_ms":18446744073709551615})"})
            refused(c);
    }
    SUBCASE("claim_ms cannot be null: there is always a claim window") { refused(R"({"claim_ms":null})"); }
    SUBCASE("mistyped values")
    {
        for (std::string_view v : {"30000.0", "30000.5", "\"30000\"", "true", "[30000]", "3e4"}) {
            refused(R"({"move_ms":)" + std::string{v} + "}");
            refused(R"({"claim_ms":)" + std::string{v} + "}");
        }
    }
}

// ---- join, leave, sync ---------------------------------------------------------------------

TEST_CASE("join as player (the default) or spectator")
{
    const auto p = parse_as<join>(R"({"type":"join","room":"k3x9abqz"})");
    CHECK(p.room == "k3x9abqz");
    CHECK_FALSE(p.as_spectator);
    CHECK_FALSE(parse_as<join>(R"({"type":"join","room":"k3x9abqz","as":"player"})").as_spectator);
    CHECK(parse_as<join>(R"({"type":"join","room":"k3x9abqz","as":"spectator"})").as_spectator);
    for (std::string_view as : {"\"Spectator\"", "\"watcher\"", "\"\"", "1", "true", "null"})
        check_bad_message(with_field("join", "as", as));
}

TEST_CASE("the room id of every room message: a string of 1..64 bytes")
{
    const std::string max(64, 'r');
    for (std::string_view type : {"join", "leave", "pass", "resign", "rematch"}) {
        INFO("type " << std::string{type});
        const std::string prefix = R"({"type":")" + std::string{type} + "\"";
        check_bad_message(prefix + "}");
        check_bad_message(prefix + R"(,"room":""})");
        check_bad_message(prefix + R"(,"room":")" + max + "r\"}");
        check_bad_message(prefix + R"(,"room":42})");
        check_bad_message(prefix + R"(,"room":null})");
        check_bad_message(prefix + R"(,"room":["r1"]})");
        CHECK(parse_ok(prefix + R"(,"room":")" + max + "\"}").req.is_null());
    }
    // The same holds for the messages that carry more than the room.
    check_bad_message(R"({"type":"give","piece":1})");
    check_bad_message(R"({"type":"place","room":"","square":1})");
    check_bad_message(R"({"type":"quarto","room":7,"line":[0,1,2,3]})");
    check_bad_message(R"({"type":"sync","since":0})");
}

TEST_CASE("leave, pass, resign and rematch carry their room")
{
    for (std::string_view type : room_only_types) {
        const parsed_message m = parse_ok(R"({"type":")" + std::string{type} + R"(","room":"abc","req":"z"})");
        CHECK(m.req == json("z"));
        const auto* room = std::get_if<room_message>(&m.message);
        REQUIRE_MESSAGE(room != nullptr, "parsed " << std::string{type} << " as another category");
        CHECK(room->room == "abc");
        CHECK((holds<leave>(m.message) || holds<pass>(m.message) || holds<resign>(m.message) || holds<rematch>(m.message)));
    }
    CHECK(holds<leave>(parse_ok(R"({"type":"leave","room":"abc"})").message));
    CHECK(holds<pass>(parse_ok(R"({"type":"pass","room":"abc"})").message));
    CHECK(holds<resign>(parse_ok(R"({"type":"resign","room":"abc"})").message));
    CHECK(holds<rematch>(parse_ok(R"({"type":"rematch","room":"abc"})").message));
}

TEST_CASE("sync: since is an integer 0..2^63-1")
{
    const auto s = parse_as<protocol::sync>(R"({"type":"sync","room":"r1","since":41})");
    CHECK(s.room == "r1");
    CHECK(s.since == 41u);
    CHECK(parse_as<protocol::sync>(with_field("sync", "since", "0")).since == 0u);
    CHECK(parse_as<protocol::sync>(with_field("sync", "since", "9223372036854775807")).since == 9'223'372'036'854'775'807u);

    check_bad_message(R"({"type":"sync","room":"r1"})");
    for (std::string_view v : {"-1", "9223372036854775808", "18446744073709551615", "18446744073709551616"})
        check_bad_message(with_field("sync", "since", v));
    for (const std::string& v : not_integers) check_bad_message(with_field("sync", "since", v));
}

// ---- give, place, quarto -------------------------------------------------------------------

TEST_CASE("give: piece 0..15")
{
    for (int p = 0; p < 16; ++p) {
        const auto g = parse_as<give>(with_field("give", "piece", std::to_string(p)));
        CHECK(g.room == "r1");
        CHECK(int{g.what.code()} == p);
    }
    check_bad_message(R"({"type":"give","room":"r1"})");
    for (std::string_view v : {"16", "-1", "255", "256", "-256", "4294967296", "9223372036854775807",
                               "9223372036854775808", "18446744073709551615", "-9223372036854775808",
                               "99999999999999999999999999"})
        check_bad_message(with_field("give", "piece", v));
    for (const std::string& v : not_integers) check_bad_message(with_field("give", "piece", v));
}

TEST_CASE("place: square 0..15")
{
    for (int s = 0; s < 16; ++s) {
        const auto p = parse_as<place>(with_field("place", "square", std::to_string(s)));
        CHECK(p.room == "r1");
        CHECK(int{p.where} == s);
    }
    check_bad_message(R"({"type":"place","room":"r1"})");
    // A piece is not a square.
    check_bad_message(R"({"type":"place","room":"r1","piece":3})");
    for (std::string_view v : {"16", "-1", "17", "271", "65536", "-4294967295", "18446744073709551615"})
        check_bad_message(with_field("place", "square", v));
    for (const std::string& v : not_integers) check_bad_message(with_field("place", "square", v));
}

TEST_CASE("quarto: a line of 4 distinct squares in any order")
{
    CHECK(parse_as<call_quarto>(with_field("quarto", "line", "[0,1,2,3]")).line == 0x000F);
    CHECK(parse_as<call_quarto>(with_field("quarto", "line", "[3,1,0,2]")).line == 0x000F);
    CHECK(parse_as<call_quarto>(with_field("quarto", "line", "[12,9,6,3]")).line == 0x1248);
    CHECK(parse_as<call_quarto>(with_field("quarto", "line", "[15,10,5,0]")).line == 0x8421);
    CHECK(parse_as<call_quarto>(with_field("quarto", "line", "[1,5,9,13]")).line == 0x2222);
    const auto c = parse_as<call_quarto>(with_field("quarto", "line", "[0,1,4,5]"));
    CHECK(c.room == "r1");
    CHECK(c.line == 0x0033);

    SUBCASE("whether the squares form a pattern is for the game to judge, not the parser")
    {
        CHECK(parse_as<call_quarto>(with_field("quarto", "line", "[0,1,2,7]")).line == 0x0087);
    }
    SUBCASE("duplicates")
    {
        check_bad_message(with_field("quarto", "line", "[0,0,1,2]"));
        check_bad_message(with_field("quarto", "line", "[0,1,2,0]"));
        check_bad_message(with_field("quarto", "line", "[5,5,5,5]"));
    }
    SUBCASE("wrong length")
    {
        for (std::string_view v : {"[]", "[0]", "[0,1,2]", "[0,1,2,3,4]", "[0,1,2,3,3]"})
            check_bad_message(with_field("quarto", "line", v));
    }
    SUBCASE("out of range or mistyped squares")
    {
        for (std::string_view v : {"[0,1,2,16]", "[-1,0,1,2]", "[0,1,2,18446744073709551615]", "[0,1,2,3.0]",
                                   "[0,1,2,\"3\"]", "[0,1,2,null]", "[0,1,2,true]", "[0,1,2,[3]]"})
            check_bad_message(with_field("quarto", "line", v));
    }
    SUBCASE("not a list")
    {
        for (std::string_view v : {"15", "\"0,1,2,3\"", "null", "{\"0\":1}"}) check_bad_message(with_field("quarto", "line", v));
        check_bad_message(R"({"type":"quarto","room":"r1"})");
    }
}
