// Which address a request is counted and logged under.
#include <doctest/doctest.h>

#include "http/client_address.hpp"

using namespace quarto::server;
using namespace quarto::server::http;

namespace {

beast::http::request<beast::http::string_body> request_with(std::initializer_list<std::string> forwarded_for)
{
    beast::http::request<beast::http::string_body> req{beast::http::verb::get, "/ws", 11};
    for (const auto& value : forwarded_for) req.insert("X-Forwarded-For", value);
    return req;
}

const tcp::endpoint proxy{asio::ip::make_address("127.0.0.1"), 40000};

} // namespace

TEST_CASE("client address: last_forwarded_for")
{
    CHECK(last_forwarded_for("203.0.113.7") == "203.0.113.7");
    CHECK(last_forwarded_for("198.51.100.1, 203.0.113.7") == "203.0.113.7");
    CHECK(last_forwarded_for("198.51.100.1,\t203.0.113.7  ") == "203.0.113.7");
    CHECK(last_forwarded_for("2001:DB8::1") == "2001:db8::1");
    CHECK_FALSE(last_forwarded_for("").has_value());
    CHECK_FALSE(last_forwarded_for("203.0.113.7, unknown").has_value());
    CHECK_FALSE(last_forwarded_for("203.0.113.7,").has_value());
    CHECK_FALSE(last_forwarded_for("203.0.113.7:5000").has_value());
}

TEST_CASE("client address: the TCP peer unless the proxy is trusted")
{
    const auto req = request_with({"198.51.100.1, 203.0.113.7"});
    const client_address ignored = address_of(req, proxy, false);
    CHECK(ignored.address == "127.0.0.1");
    CHECK(ignored.description == "127.0.0.1:40000");
    const client_address trusted = address_of(req, proxy, true);
    CHECK(trusted.address == "203.0.113.7");
    CHECK(trusted.description == "203.0.113.7 via 127.0.0.1:40000");
}

TEST_CASE("client address: several header lines form one list, a bad last entry falls back to the peer")
{
    CHECK(address_of(request_with({"198.51.100.1", "203.0.113.7"}), proxy, true).address == "203.0.113.7");
    CHECK(address_of(request_with({"203.0.113.7", "garbage"}), proxy, true).address == "127.0.0.1");
    CHECK(address_of(request_with({}), proxy, true).address == "127.0.0.1");
}
