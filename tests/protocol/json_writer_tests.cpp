// json_writer: the text it writes must be the JSON a client parses, whatever the strings hold.
#include <cstdint>
#include <limits>
#include <string>

#include "quarto/protocol/json_writer.hpp"
#include "support.hpp"

using quarto::protocol::json_writer;
using protocol_tests::json;

TEST_CASE("json_writer: nested objects and arrays get their commas and no others")
{
    std::string out;
    json_writer w{out};
    w.begin_object().key("a").value(1).key("list").begin_array();
    w.value(2).null().begin_object().end_object().begin_array().end_array().value(true);
    w.end_array().key("empty").begin_object().end_object().key("b").value(false).end_object();
    CHECK(out == R"({"a":1,"list":[2,null,{},[],true],"empty":{},"b":false})");
    CHECK(json::parse(out) == json::parse(R"({"a":1,"list":[2,null,{},[],true],"empty":{},"b":false})"));
}

TEST_CASE("json_writer: integers at the ends of their range")
{
    std::string out;
    json_writer w{out};
    w.begin_array().value(std::numeric_limits<std::int64_t>::min()).value(std::uint8_t{255}).value(-1);
    w.value(std::numeric_limits<std::uint64_t>::max()).end_array();
    CHECK(out == "[-9223372036854775808,255,-1,18446744073709551615]");
    CHECK(json::parse(out)[0] == std::numeric_limits<std::int64_t>::min());
    CHECK(json::parse(out)[3].get<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("json_writer: strings are escaped so that they read back unchanged")
{
    const std::string tricky = std::string{"quote \" backslash \\ newline \n tab \t nul "} + '\0' + " bell \x07 del \x7f" +
                               " slash / unicode \xc3\xa9\xe2\x82\xac";
    std::string out;
    json_writer w{out};
    w.begin_object().key("s").value(tricky).end_object();
    CHECK(json::parse(out).at("s") == tricky);
    CHECK(out.find('\n') == std::string::npos); // one line, as every message is
    CHECK(out.find("\\u0000") != std::string::npos);
    CHECK(out.find("\\u0007") != std::string::npos);
}
