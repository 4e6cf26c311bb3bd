// A new password's bounds: 8 characters at least, 256 bytes at most.
#include <doctest/doctest.h>

#include <string>

#include "accounts/password_rules.hpp"

using namespace quarto::server::accounts;

namespace password_rules_test {
std::string times(std::string_view part, std::size_t n)
{
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += part;
    return out;
}
} // namespace password_rules_test

TEST_CASE("password rules: 8 characters to 256 bytes")
{
    CHECK(check_password("") == password_check::too_short);
    CHECK(check_password("1234567") == password_check::too_short);
    CHECK(check_password("12345678") == password_check::ok);
    CHECK(check_password(std::string(256, 'x')) == password_check::ok);
    CHECK(check_password(std::string(257, 'x')) == password_check::too_long);
}

TEST_CASE("password rules: characters counted as code points, the limit in bytes")
{
    using password_rules_test::times;
    const std::string e_acute = "\xC3\xA9"; // é, 2 bytes
    const std::string euro = "\xE2\x82\xAC"; // €, 3 bytes
    const std::string clef = "\xF0\x9D\x84\x9E"; // 𝄞, 4 bytes
    CHECK(check_password(times(e_acute, 4)) == password_check::too_short); // 8 bytes, 4 characters
    CHECK(check_password(times(e_acute, 7)) == password_check::too_short);
    CHECK(check_password(times(e_acute, 8)) == password_check::ok);
    CHECK(check_password(times(clef, 7)) == password_check::too_short); // 28 bytes, 7 characters
    CHECK(check_password(times(clef, 8)) == password_check::ok);
    CHECK(check_password(times(e_acute, 128)) == password_check::ok);        // 256 bytes
    CHECK(check_password(times(e_acute, 128) + "a") == password_check::too_long); // 257 bytes
    CHECK(check_password(times(euro, 86)) == password_check::too_long);      // 258 bytes, 86 characters
    CHECK(check_password(times(clef, 64)) == password_check::ok);            // 256 bytes
}
