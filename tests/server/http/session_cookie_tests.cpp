// The session cookie: found among others, refused when it is not a session id, and given with
// the attributes that keep it from scripts and from other sites.
#include <doctest/doctest.h>

#include "http/session_cookie.hpp"

using namespace quarto::server::http;

TEST_CASE("session cookie: read from a Cookie header among others")
{
    const std::string id = "0123456789abcdef0123456789abcdef";
    CHECK(session_from_cookies("quarto_session=" + id) == id);
    CHECK(session_from_cookies("theme=dark; quarto_session=" + id + "; lang=fr") == id);
    CHECK(session_from_cookies("theme=dark;quarto_session=\"" + id + "\"") == id);
    CHECK(session_from_cookies("") == "");
    CHECK(session_from_cookies("other_session=" + id) == "");
    CHECK(session_from_cookies("xquarto_session=" + id) == "");
    CHECK(session_from_cookies("quarto_session=" + id.substr(1)) == "");            // too short
    CHECK(session_from_cookies("quarto_session=0123456789ABCDEF0123456789ABCDEF") == ""); // not ours
    CHECK(session_from_cookies("quarto_session=; quarto_session=" + id) == id);      // an ended one first
}

TEST_CASE("session cookie: HttpOnly and SameSite=Lax, Secure over TLS, and its end")
{
    const std::string given = session_cookie("0123456789abcdef0123456789abcdef", false);
    CHECK(given.starts_with("quarto_session=0123456789abcdef0123456789abcdef; Path=/; Max-Age="));
    CHECK(given.find("; HttpOnly; SameSite=Lax") != std::string::npos);
    CHECK(given.find("Secure") == std::string::npos);
    CHECK(session_cookie("0123456789abcdef0123456789abcdef", true).ends_with("; Secure"));
    const std::string ended = ended_session_cookie(false);
    CHECK(ended.starts_with("quarto_session=; Path=/; Max-Age=0;"));
}

TEST_CASE("session cookie: only a trusted proxy says the client came over TLS")
{
    CHECK(reached_over_tls("https", true));
    CHECK(reached_over_tls("HTTPS, http", true));
    CHECK_FALSE(reached_over_tls("https", false));
    CHECK_FALSE(reached_over_tls("http, https", true));
    CHECK_FALSE(reached_over_tls("", true));
}
