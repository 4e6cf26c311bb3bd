// Origin normalization and the Origin check of WebSocket handshakes.
#include <doctest/doctest.h>

#include "http/origin_policy.hpp"

using namespace quarto::server;
using namespace quarto::server::http;

TEST_CASE("origin policy: normalize_origin")
{
    CHECK(normalize_origin("https://quarto.example.org") == "https://quarto.example.org");
    CHECK(normalize_origin("HTTPS://Quarto.Example.ORG:8443/") == "https://quarto.example.org:8443");
    CHECK(normalize_origin("http://127.0.0.1:8080") == "http://127.0.0.1:8080");
    CHECK(normalize_origin("http://[::1]:8080") == "http://[::1]:8080");
    CHECK(normalize_origin("http://[::1]") == "http://[::1]");
    for (const char* bad : {"", "null", "quarto.example.org", "ftp://quarto.example.org", "https://",
                            "https://quarto.example.org/path", "https://host:0", "https://host:65536",
                            "https://host:", "https://ho st", "https://user@host", "https://[::1", "https://a:b:c"}) {
        CAPTURE(bad);
        CHECK_FALSE(normalize_origin(bad).has_value());
    }
}

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
