// The rate of joins, leaves and creations: exactly its documented burst in a row, and what
// --join-rate and --join-burst (or QUARTO_JOIN_RATE and QUARTO_JOIN_BURST) make of it. The
// bursts are counted at a rate of one join in 1,000 s, so that no refill comes between two
// messages however slowly a loaded machine answers (a time read before the bucket was made
// would still take a token's fraction away, and the last of the burst with it).
#include "helpers.hpp"
#include "raw_client.hpp"

using namespace quarto_test;

namespace {

// "no_such_room no_such_room rate_limited": readable in a failure.
std::string words(const std::vector<std::string>& codes)
{
    std::string out;
    for (const auto& c : codes) out += (out.empty() ? "" : " ") + c;
    return out;
}

// A new connection's hello and `leaves` leave messages (for rooms nobody is in: each a
// membership change all the same), in one write after the 101. Returns the replies' error
// codes in order of req (1..leaves).
std::string burst_of_leaves(const server_process& server, int leaves)
{
    raw_connection c{server.port()};
    c.write(upgrade_request(server.port()));
    REQUIRE(c.read_status() == 101);
    std::string bytes = masked_frame(0x81, R"({"type":"hello","name":"Lee"})");
    for (int i = 1; i <= leaves; ++i)
        bytes += masked_frame(0x81, json{{"type", "leave"}, {"room", "nowhere" + std::to_string(i)}, {"req", i}}.dump());
    c.write(bytes);
    const auto welcome = c.read_frame();
    REQUIRE(welcome);
    REQUIRE(json::parse(welcome->payload).value("type", "") == "welcome");
    std::vector<std::string> codes;
    for (int i = 1; i <= leaves; ++i) {
        const auto f = c.read_frame();
        REQUIRE_MESSAGE(f, "the reply to leave " << i);
        const json reply = json::parse(f->payload);
        CHECK(reply.value("req", 0) == i);
        codes.push_back(reply.value("code", std::string{"?"}));
    }
    return words(codes);
}

// The same burst of 10 written with the upgrade request, small enough that the server reads it
// all with the request (its first read takes 512 bytes): the connection takes every leave apart
// in the very turn of its loop that makes it and its buckets. Then an 11th. Returns the codes.
std::string burst_with_the_request(const server_process& server)
{
    std::string bytes = "GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    bytes += masked_frame(0x81, R"({"type":"hello","name":"L"})");
    for (int i = 0; i < 10; ++i) bytes += masked_frame(0x81, R"({"type":"leave","room":"x"})");
    REQUIRE(bytes.size() <= 512);
    raw_connection c{server.port()};
    c.write(bytes);
    REQUIRE(c.read_status() == 101);
    const auto welcome = c.read_frame();
    REQUIRE(welcome);
    REQUIRE(json::parse(welcome->payload).value("type", "") == "welcome");
    std::vector<std::string> codes;
    const auto read_reply = [&] {
        const auto f = c.read_frame();
        REQUIRE_MESSAGE(f, "the reply to leave " << codes.size() + 1);
        codes.push_back(json::parse(f->payload).value("code", std::string{"?"}));
    };
    for (int i = 0; i < 10; ++i) read_reply();
    c.write(masked_frame(0x81, R"({"type":"leave","room":"x"})"));
    read_reply();
    return words(codes);
}

std::string expected_codes(int accepted, int refused)
{
    std::vector<std::string> out(static_cast<std::size_t>(accepted), "no_such_room");
    out.insert(out.end(), static_cast<std::size_t>(refused), "rate_limited");
    return words(out);
}

} // namespace

TEST_CASE("join rate: exactly 10 joins, leaves or creations in a row are accepted, the 11th is refused")
{
    server_process server{{"--threads", "1", "--join-rate", "0.001"}};
    CHECK(burst_of_leaves(server, 11) == expected_codes(10, 1));
    CHECK(burst_with_the_request(server) == expected_codes(10, 1));
}

TEST_CASE("join rate: --join-burst sets how many in a row, QUARTO_JOIN_BURST too")
{
    {
        server_process server{{"--threads", "1", "--join-rate", "0.001", "--join-burst", "30"}};
        CHECK(burst_of_leaves(server, 31) == expected_codes(30, 1));
    }
    {
        server_process server{{"--threads", "1", "--join-rate", "0.001", "--join-burst", "1"}};
        CHECK(burst_of_leaves(server, 2) == expected_codes(1, 1));
    }
    server_process server{{"--threads", "1", "--join-rate", "0.001"}, {"QUARTO_JOIN_BURST=3"}};
    CHECK(burst_of_leaves(server, 4) == expected_codes(3, 1));
}

TEST_CASE("join rate: a raised --join-rate is honoured")
{
    // A bucket of one that refills a billion a second: one leave at a time, each after the
    // answer to the last, is never refused (with the default rate, the second of two would be
    // unless half a second passed between them).
    server_process server{{"--threads", "1", "--join-rate", "1000000000", "--join-burst", "1"}};
    player lee = connect_player(server, "Lee");
    for (int i = 0; i < 25; ++i) {
        CAPTURE(i);
        lee->send({{"type", "leave"}, {"room", "nowhere"}, {"req", i}});
        const json reply = must(lee->next(), "the answer to a leave");
        CHECK(reply["req"] == i);
        CHECK(reply["code"] == "no_such_room");
    }
    // The same from the environment.
    server_process from_env{{"--threads", "1", "--join-burst", "1"}, {"QUARTO_JOIN_RATE=1000000000"}};
    player kim = connect_player(from_env, "Kim");
    for (int i = 0; i < 5; ++i) {
        kim->send({{"type", "leave"}, {"room", "nowhere"}, {"req", i}});
        CHECK(must(kim->next(), "the answer to a leave")["code"] == "no_such_room");
    }
}
