// Origin normalization: how --allowed-origin and a handshake's Origin header are compared.
#include <doctest/doctest.h>

#include "config/origin.hpp"

using namespace quarto::server;

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
