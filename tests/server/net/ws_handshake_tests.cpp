// ws_handshake: the accept key, the checks on an upgrade request and the 101 response.
#include <string>
#include <variant>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <doctest/doctest.h>

#include "net/ws_handshake.hpp"
#include "net_support.hpp"

using namespace quarto::server::net;
namespace http = boost::beast::http;

namespace {

using request = http::request<http::string_body>;

// The RFC 6455 section 1.3 example key.
constexpr const char* rfc_key = "dGhlIHNhbXBsZSBub25jZQ==";
constexpr const char* rfc_accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

request upgrade_request()
{
    request r{http::verb::get, "/ws", 11};
    r.set(http::field::host, "localhost:8080");
    r.set(http::field::connection, "Upgrade");
    r.set(http::field::upgrade, "websocket");
    r.set(http::field::sec_websocket_key, rfc_key);
    r.set(http::field::sec_websocket_version, "13");
    return r;
}

// The response parsed back as an HTTP client would read it.
http::response<http::empty_body> parse_response(const std::string& text)
{
    http::response_parser<http::empty_body> parser;
    boost::system::error_code ec;
    const std::size_t used = parser.put(boost::asio::buffer(text), ec);
    INFO("response: " << text);
    REQUIRE_FALSE(ec);
    REQUIRE(parser.is_done());
    CHECK(used == text.size()); // nothing after the header
    return parser.release();
}

void check_accepted(const request& r, const char* expected_accept = rfc_accept)
{
    const auto result = accept_handshake(r);
    if (const auto* refusal = std::get_if<handshake_refusal>(&result)) FAIL("refused: " << refusal->reason);
    const auto& text = std::get<std::string>(result);
    const auto response = parse_response(text);
    CHECK(response.result() == http::status::switching_protocols);
    CHECK(response.version() == 11);
    CHECK(std::string{response[http::field::upgrade]} == "websocket");
    CHECK(std::string{response[http::field::connection]} == "upgrade");
    CHECK(std::string{response[http::field::sec_websocket_accept]} == expected_accept);
}

handshake_refusal refusal_of(const request& r)
{
    const auto result = accept_handshake(r);
    if (std::holds_alternative<std::string>(result)) FAIL("accepted: " << std::get<std::string>(result));
    return std::get<handshake_refusal>(result);
}

} // namespace

TEST_CASE("ws_handshake: accept_key gives RFC 6455's example answer")
{
    CHECK(accept_key(rfc_key) == rfc_accept);
    // Another key, checked against Python's base64(sha1(key + GUID)).
    CHECK(accept_key("x3JJHMbDL1EzLkh9GBhXDw==") == "HSmrc0sMlYUkAGmm5OPpG2HaGWk=");
}

TEST_CASE("ws_handshake: a valid request is accepted with a 101 carrying the accept key")
{
    check_accepted(upgrade_request());
}

TEST_CASE("ws_handshake: header values are read regardless of case, and as token lists")
{
    const char* connections[] = {"upgrade", "UPGRADE", "keep-alive, Upgrade", "Upgrade,keep-alive",
                                 "keep-alive,\tupgrade ", "close , Upgrade , foo"};
    for (const std::string connection : connections) {
        CAPTURE(connection);
        auto r = upgrade_request();
        r.set(http::field::connection, connection);
        CHECK(is_websocket_upgrade(r));
        check_accepted(r);
    }
    for (const std::string upgrade : {"WebSocket", "WEBSOCKET", "h2c, websocket"}) {
        CAPTURE(upgrade);
        auto r = upgrade_request();
        r.set(http::field::upgrade, upgrade);
        CHECK(is_websocket_upgrade(r));
        check_accepted(r);
    }
    // Field names are case-insensitive too (Beast looks them up so).
    request r{http::verb::get, "/ws", 11};
    r.insert("connection", "upgrade");
    r.insert("UPGRADE", "websocket");
    r.insert("sec-websocket-key", rfc_key);
    r.insert("SEC-WEBSOCKET-VERSION", "13");
    CHECK(is_websocket_upgrade(r));
    check_accepted(r);
}

TEST_CASE("ws_handshake: is_websocket_upgrade wants both the Connection and the Upgrade token")
{
    CHECK(is_websocket_upgrade(upgrade_request()));
    auto r = upgrade_request();
    r.erase(http::field::connection);
    CHECK_FALSE(is_websocket_upgrade(r));
    r = upgrade_request();
    r.erase(http::field::upgrade);
    CHECK_FALSE(is_websocket_upgrade(r));
    for (const std::string connection : {"keep-alive", "upgrades", "no-upgrade", ""}) {
        CAPTURE(connection);
        r = upgrade_request();
        r.set(http::field::connection, connection);
        CHECK_FALSE(is_websocket_upgrade(r));
    }
    for (const std::string upgrade : {"h2c", "websockets", "web socket"}) {
        CAPTURE(upgrade);
        r = upgrade_request();
        r.set(http::field::upgrade, upgrade);
        CHECK_FALSE(is_websocket_upgrade(r));
    }
    // A plain page request.
    CHECK_FALSE(is_websocket_upgrade(request{http::verb::get, "/", 11}));
}

TEST_CASE("ws_handshake: the upgrade must be a GET")
{
    for (const auto method : {http::verb::post, http::verb::head, http::verb::put}) {
        auto r = upgrade_request();
        r.method(method);
        const auto refusal = refusal_of(r);
        CHECK(refusal.status == http::status::bad_request);
        CHECK_FALSE(refusal.version_mismatch);
        CHECK(refusal.reason == "the upgrade must be a GET");
    }
}

TEST_CASE("ws_handshake: the upgrade needs HTTP/1.1")
{
    auto r = upgrade_request();
    r.version(10);
    const auto refusal = refusal_of(r);
    CHECK(refusal.status == http::status::bad_request);
    CHECK_FALSE(refusal.version_mismatch);
    CHECK(refusal.reason == "the upgrade needs HTTP/1.1");
}

TEST_CASE("ws_handshake: a request that is not an upgrade is refused")
{
    auto r = upgrade_request();
    r.set(http::field::upgrade, "h2c");
    const auto refusal = refusal_of(r);
    CHECK(refusal.status == http::status::bad_request);
    CHECK(refusal.reason == "not a WebSocket upgrade");
}

TEST_CASE("ws_handshake: a missing or malformed Sec-WebSocket-Key is refused")
{
    auto r = upgrade_request();
    r.erase(http::field::sec_websocket_key);
    auto refusal = refusal_of(r);
    CHECK(refusal.status == http::status::bad_request);
    CHECK_FALSE(refusal.version_mismatch);
    CHECK(refusal.reason == "a missing or malformed Sec-WebSocket-Key");

    const char* bad_keys[] = {
        "",
        "dGhlIHNhbXBsZSBub25jZQ=",   // 23 characters
        "dGhlIHNhbXBsZSBub25jZQ===", // 25
        "dGhlIHNhbXBsZSBub25jZQAA",  // no padding: not 16 bytes
        "dGhlIHNhbXBsZSBub25jZ-==",  // not base64
        "dGhlIHNhbXBsZSBub2 jZQ==",  // a space inside
    };
    for (const std::string key : bad_keys) {
        CAPTURE(key);
        r = upgrade_request();
        r.set(http::field::sec_websocket_key, key);
        refusal = refusal_of(r);
        CHECK(refusal.status == http::status::bad_request);
        CHECK(refusal.reason == "a missing or malformed Sec-WebSocket-Key");
    }
}

TEST_CASE("ws_handshake: a version other than 13 gets 426 and asks for version 13")
{
    for (const std::string version : {"8", "12", "14", "13, 8", ""}) {
        CAPTURE(version);
        auto r = upgrade_request();
        r.set(http::field::sec_websocket_version, version);
        const auto refusal = refusal_of(r);
        CHECK(refusal.status == http::status::upgrade_required);
        CHECK(refusal.version_mismatch);
    }
    auto r = upgrade_request();
    r.erase(http::field::sec_websocket_version);
    const auto refusal = refusal_of(r);
    CHECK(refusal.status == http::status::upgrade_required);
    CHECK(refusal.version_mismatch);
}
