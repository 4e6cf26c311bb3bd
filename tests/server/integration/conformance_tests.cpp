// The transport against RFC 6455 and the request line against RFC 7230, written byte for byte
// to the real server: frames sent with the upgrade request, text that is not UTF-8, a request
// line in absolute-form, a request without Host.
#include "helpers.hpp"
#include "raw_client.hpp"

using namespace quarto_test;

namespace {

// A connection whose upgrade has been accepted (101).
std::unique_ptr<raw_connection> upgraded(const server_process& server)
{
    auto c = std::make_unique<raw_connection>(server.port());
    c->write(upgrade_request(server.port()));
    REQUIRE(c->read_status() == 101);
    return c;
}

// The next text frame, as JSON.
json next_message(raw_connection& c, const std::string& what)
{
    const auto f = c.read_until(0x1);
    REQUIRE_MESSAGE(f, what);
    return json::parse(f->payload);
}

// The server's close frame with `code`, then the end of the stream.
void expect_close(raw_connection& c, std::uint16_t code)
{
    const auto f = c.read_until(0x8);
    REQUIRE_MESSAGE(f, "a close frame");
    CHECK(f->close_code() == code);
    CHECK(c.read_rest().has_value()); // and the server ends the connection
}

std::string text(std::string_view payload, bool fin = true) { return masked_frame(fin ? 0x81 : 0x01, payload); }
std::string continuation(std::string_view payload, bool fin) { return masked_frame(fin ? 0x80 : 0x00, payload); }

std::string plain_get(const std::string& target, const std::string& headers)
{
    return "GET " + target + " HTTP/1.1\r\n" + headers + "Connection: close\r\n\r\n";
}

} // namespace

// ---- frames written with the upgrade request -----------------------------------------------

TEST_CASE("conformance: a ping written in the same write as the upgrade request is answered")
{
    server_process server;
    raw_connection c{server.port()};
    c.write(upgrade_request(server.port()) + masked_frame(0x89, "early"));
    REQUIRE(c.read_status() == 101);
    const auto pong = c.read_frame();
    REQUIRE_MESSAGE(pong, "the pong");
    CHECK(int{pong->op} == 0xA);
    CHECK(pong->payload == "early");
}

TEST_CASE("conformance: messages written with the upgrade request are all read, a frame cut after it too")
{
    server_process server;
    for (int run = 0; run < 10; ++run) {
        CAPTURE(run);
        raw_connection c{server.port()};
        const std::string last = text(R"({"type":"ping","req":3})");
        c.write(upgrade_request(server.port()) + text(R"({"type":"hello","name":"Eager","req":1})") +
                text(R"({"type":"ping","req":2})") + last.substr(0, 5));
        REQUIRE(c.read_status() == 101);
        const json welcome = next_message(c, "welcome");
        CHECK(welcome["type"] == "welcome");
        CHECK(welcome["req"] == 1);
        const json pong = next_message(c, "pong");
        CHECK(pong["type"] == "pong");
        CHECK(pong["req"] == 2);
        c.write(last.substr(5)); // the rest of the cut frame
        CHECK(next_message(c, "the second pong")["req"] == 3);
    }
}

// ---- UTF-8 -----------------------------------------------------------------------------------

TEST_CASE("conformance: text that is not UTF-8 closes the connection with 1007")
{
    server_process server;
    struct bad_text {
        std::string what;
        std::string frames;
    };
    const bad_text cases[] = {
        {"an overlong form", text("{\"type\":\"hello\",\"name\":\"\xC0\xAF\"}")},
        {"an overlong three-byte form", text("\xE0\x80\xAF")},
        {"an overlong four-byte form", text("\xF0\x80\x80\xAF")},
        {"a surrogate", text("{\"type\":\"hello\",\"name\":\"\xED\xA0\x80\"}")},
        {"past U+10FFFF", text("\xF4\x90\x80\x80")},
        {"FE", text("\xFE")},
        {"FF", text("{\xFF}")},
        {"a lone continuation byte", text("\x80")},
        {"a truncated character", text("{\"type\":\"ping\"}\xE2\x82")},
        {"a bad sequence split across fragments", text("{\"type\":\"ping\",\"x\":\"\xED", false) + continuation("\xA0\x80\"}", true)},
        {"a character cut at the end of the last fragment", text("\xF0\x9F", false) + continuation("\x98", true)},
        {"a close reason that is not UTF-8", masked_frame(0x88, close_payload(1000, "bye \xFF"))},
    };
    for (const auto& c : cases) {
        CAPTURE(c.what);
        auto ws = upgraded(server);
        ws->write(c.frames);
        expect_close(*ws, 1007);
    }
    // After hello too, and at the first bad fragment: the rest of the message never comes.
    auto ws = upgraded(server);
    ws->write(text(R"({"type":"hello","name":"Ann"})"));
    CHECK(next_message(*ws, "welcome")["type"] == "welcome");
    ws->write(text("{\"type\":\"ping\",\"req\":\"\xC1\xBF", false));
    expect_close(*ws, 1007);
}

TEST_CASE("conformance: UTF-8 split across fragments is read, and a binary message is still bad_message")
{
    server_process server;
    auto ws = upgraded(server);
    // "Zoë" with its ë (C3 AB) cut between two fragments.
    ws->write(text("{\"type\":\"hello\",\"name\":\"Zo\xC3", false) + continuation("\xAB\"}", true));
    const json welcome = next_message(*ws, "welcome");
    CHECK(welcome["name"] == "Zo\xC3\xAB");
    ws->write(masked_frame(0x82, "\xFF\xFE"));
    const json refused = next_message(*ws, "the answer to a binary message");
    CHECK(refused["type"] == "error");
    CHECK(refused["code"] == "bad_message");
    ws->write(text(R"({"type":"ping","req":"still open"})"));
    CHECK(next_message(*ws, "pong")["req"] == "still open");
    // A close reason in UTF-8 beyond ASCII is fine: the code comes back.
    ws->write(masked_frame(0x88, close_payload(1000, "\xC3\xA0 bient\xC3\xB4t")));
    expect_close(*ws, 1000);
}

// ---- the request line and Host ---------------------------------------------------------------

TEST_CASE("conformance: a request line in absolute-form is served as its path")
{
    server_process server;
    const std::string authority = "127.0.0.1:" + std::to_string(server.port());
    const std::string host = "Host: " + authority + "\r\n";

    SUBCASE("the WebSocket")
    {
        raw_connection c{server.port()};
        c.write(upgrade_request(server.port(), "http://" + authority + "/ws") + text(R"({"type":"hello","name":"Abs"})"));
        REQUIRE(c.read_status() == 101);
        CHECK(next_message(c, "welcome")["type"] == "welcome");
    }
    SUBCASE("a query string, the scheme in capitals")
    {
        raw_connection c{server.port()};
        c.write(upgrade_request(server.port(), "HTTP://" + authority + "/ws?from=proxy"));
        CHECK(c.read_status() == 101);
    }
    SUBCASE("another path is not the WebSocket")
    {
        raw_connection c{server.port()};
        c.write(upgrade_request(server.port(), "http://" + authority + "/other"));
        CHECK(c.read_status() == 404);
    }
    SUBCASE("/healthz, the API and the files")
    {
        struct page {
            std::string target;
            std::string body_has;
        };
        const page pages[] = {
            {"http://" + authority + "/healthz", "ok"},
            {"http://" + authority + "/api/rooms?limit=1", "\"rooms\""},
            {"https://" + authority + "/", "<html"},
            {"http://" + authority, "<html"},
        };
        for (const auto& p : pages) {
            CAPTURE(p.target);
            raw_connection c{server.port()};
            c.write(plain_get(p.target, host));
            std::string head;
            CHECK(c.read_status(&head) == 200);
            const auto body = c.read_rest();
            REQUIRE(body);
            CHECK(body->find(p.body_has) != std::string::npos);
        }
    }
    SUBCASE("the authority is the host an Origin is compared with")
    {
        // RFC 7230 section 5.4: the absolute-form's authority stands in for the Host header.
        const auto upgrade_with = [&](const std::string& origin) {
            raw_connection c{server.port()};
            c.write("GET http://play.example/ws HTTP/1.1\r\nHost: elsewhere.example\r\nOrigin: " + origin +
                    "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
            return c.read_status();
        };
        CHECK(upgrade_with("https://play.example") == 101);
        CHECK(upgrade_with("https://elsewhere.example") == 403);
    }
}

TEST_CASE("conformance: an HTTP/1.1 request without exactly one Host gets 400, an upgrade too")
{
    server_process server;
    const std::string host = "Host: 127.0.0.1:" + std::to_string(server.port()) + "\r\n";
    const std::string requests[] = {
        upgrade_request(server.port(), "/ws", false),
        plain_get("/healthz", ""),
        plain_get("/", ""),
        plain_get("/healthz", host + host),
        plain_get("http://127.0.0.1/healthz", ""),
    };
    for (const auto& request : requests) {
        CAPTURE(request);
        raw_connection c{server.port()};
        c.write(request);
        CHECK(c.read_status() == 400);
        CHECK(c.read_rest().has_value()); // and the connection ends
    }
    // HTTP/1.0 has no such rule, and HTTP/1.1 with one Host is served as ever.
    raw_connection old{server.port()};
    old.write("GET /healthz HTTP/1.0\r\n\r\n");
    CHECK(old.read_status() == 200);
    raw_connection ok{server.port()};
    ok.write(plain_get("/healthz", host));
    CHECK(ok.read_status() == 200);
}
