// Accept-Encoding and If-None-Match as the static files read them.
#include <string>

#include <doctest/doctest.h>

#include "http/content_negotiation.hpp"

using namespace quarto::server::http;

TEST_CASE("accepts_gzip: named, by *, or refused with q=0, and gzip named wins over *")
{
    CHECK(accepts_gzip("gzip"));
    CHECK(accepts_gzip("gzip, deflate, br"));
    CHECK(accepts_gzip("br;q=1.0, GZIP;q=0.5"));
    CHECK(accepts_gzip("*"));
    CHECK(accepts_gzip("x-gzip"));
    CHECK_FALSE(accepts_gzip(""));
    CHECK_FALSE(accepts_gzip("identity"));
    CHECK_FALSE(accepts_gzip("br, deflate"));
    CHECK_FALSE(accepts_gzip("gzip;q=0"));
    CHECK_FALSE(accepts_gzip("gzip; q=0.000"));
    CHECK_FALSE(accepts_gzip("gzip;q=0, *"));
    CHECK_FALSE(accepts_gzip("*;q=0"));
    CHECK(accepts_gzip("*;q=0, gzip"));
    CHECK(accepts_gzip("gzip;q=0.001"));
    CHECK_FALSE(accepts_gzip("gzipped"));
}

TEST_CASE("etag_matches: the tag, weakly compared, in a list, or *")
{
    const std::string tag = "\"0123456789abcdef0123456789abcdef\"";
    CHECK(etag_matches(tag, tag));
    CHECK(etag_matches("W/" + tag, tag));
    CHECK(etag_matches("\"a\", " + tag + " ,\"b\"", tag));
    CHECK(etag_matches("*", tag));
    CHECK_FALSE(etag_matches("", tag));
    CHECK_FALSE(etag_matches("\"a\"", tag));
    CHECK_FALSE(etag_matches(tag.substr(1, tag.size() - 2), tag)); // unquoted is not the tag
}
