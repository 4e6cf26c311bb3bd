#include <doctest/doctest.h>

#include "cluster/relay_record.hpp"

using quarto::server::cluster::append;
using quarto::server::cluster::parse_records;
using quarto::server::cluster::relay_record;

TEST_CASE("records go through whole, several to a payload, whatever bytes their texts hold")
{
    std::string binary = "{\"type\":\"placed\"}\n M 12\n";
    binary += '\0';
    binary += "\xff end";
    const std::vector<relay_record> sent{
        {relay_record::kind::message, "node-b", {3, 70000, 4000000000u}, false, "abcd2345", R"({"id":"p1","name":"Ann Lee"})",
         R"({"type":"give","room":"abcd2345","piece":3})"},
        {relay_record::kind::frame, {}, {0, 1, 2}, false, {}, {}, binary},
        {relay_record::kind::subscribed, {}, {1, 2, 3}, true, "t12345678", {}, {}},
        {relay_record::kind::unsubscribed, {}, {1, 2, 3}, false, "abcd2345", {}, {}},
        {relay_record::kind::detach, "node-b", {3, 7, 9}, false, "abcd2345", {}, {}},
        {relay_record::kind::frame, {}, {0, 0, 0}, false, {}, {}, {}},
        {relay_record::kind::resume, "node-c", {0, 5, 6}, true, "t12345678", R"({"id":"p2","name":"Bo","token_hash":"ab"})", {}},
        {relay_record::kind::moved, "node-c", {}, false, "abcd2345", {}, {}},
        {relay_record::kind::gone, "node-b", {}, false, {}, {}, {}},
        {relay_record::kind::back, "node-a", {1, 9, 10}, false, {}, R"({"id":"p2","name":"Bo","token_hash":"ab"})", {}},
        {relay_record::kind::renamed, "node-a", {}, false, {}, R"({"id":"p2","name":"Bob","token_hash":"ab"})", {}},
    };
    std::string payload;
    for (const auto& r : sent) append(payload, r);
    std::vector<relay_record> received;
    REQUIRE(parse_records(payload, received));
    CHECK(received == sent);
}

TEST_CASE("a malformed payload is refused, keeping the records before the damage")
{
    std::string payload;
    append(payload, {relay_record::kind::frame, {}, {0, 1, 2}, false, {}, {}, "first"});
    const std::string good = payload;
    append(payload, {relay_record::kind::frame, {}, {0, 1, 2}, false, {}, {}, "second"});

    std::vector<relay_record> out;
    CHECK_FALSE(parse_records(payload.substr(0, payload.size() - 1), out)); // cut short
    REQUIRE(out.size() == 1);
    CHECK(out[0].text == "first");

    for (const std::string& bad : {good + "X 3\nabc", good + "F x\n", good + "F 3\nabc", std::string{"F 999\n"}}) {
        out.clear();
        CHECK_FALSE(parse_records(bad, out));
    }
    std::string wrong_flag = good;
    wrong_flag.replace(wrong_flag.find(" r "), 3, " q ");
    out.clear();
    CHECK_FALSE(parse_records(wrong_flag, out));
    CHECK(out.empty());
}
