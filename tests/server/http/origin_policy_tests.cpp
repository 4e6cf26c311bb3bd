// The Origin check of WebSocket handshakes.
#include <doctest/doctest.h>

#include "http/origin_policy.hpp"

using namespace quarto::server;
using namespace quarto::server::http;

TEST_CASE("origin policy: by default the Origin must name the request's own Host")
{
    const std::vector<std::string> none;
    CHECK(origin_allowed("http://localhost:8080", "localhost:8080", none));
    CHECK(origin_allowed("https://quarto.example.org", "Quarto.Example.org", none));
    CHECK(origin_allowed("HTTPS://QUARTO.EXAMPLE.ORG", "quarto.example.org", none));
    CHECK_FALSE(origin_allowed("http://localhost:8081", "localhost:8080", none));
    CHECK_FALSE(origin_allowed("https://evil.example", "quarto.example.org", none));
    CHECK_FALSE(origin_allowed("https://quarto.example.org.evil.example", "quarto.example.org", none));
    CHECK_FALSE(origin_allowed("null", "quarto.example.org", none));
    CHECK_FALSE(origin_allowed("https://quarto.example.org", "", none)); // no Host: nothing to match
}

TEST_CASE("origin policy: with a list, exactly the listed origins")
{
    const std::vector<std::string> allowed{"https://quarto.example.org", "http://localhost:3000"};
    CHECK(origin_allowed("https://quarto.example.org", "anything", allowed));
    CHECK(origin_allowed("https://QUARTO.example.org/", "anything", allowed));
    CHECK(origin_allowed("http://localhost:3000", "anything", allowed));
    CHECK_FALSE(origin_allowed("http://quarto.example.org", "quarto.example.org", allowed));
    CHECK_FALSE(origin_allowed("https://quarto.example.org:444", "anything", allowed));
    CHECK_FALSE(origin_allowed("http://localhost:8080", "localhost:8080", allowed)); // the list replaces the default
}
