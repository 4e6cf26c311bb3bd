// What a new password must be: at least 8 characters (code points, so that "éééééééé" counts
// as 8) and at most 256 bytes of UTF-8 (what is hashed and what travels is bytes). The wire
// answers anything else `bad_password`. Pure; never reports the password itself.
#pragma once

#include <cstddef>
#include <string_view>

namespace quarto::server::accounts {

// NIST SP 800-63B (5.1.1.2) asks for at least 8 characters and for room for at least 64; 256
// bytes leaves room for passphrases while keeping what the pool hashes small.
inline constexpr std::size_t min_password_characters = 8;
inline constexpr std::size_t max_password_bytes = 256;

enum class password_check { ok, too_short, too_long };

// The bytes that do not continue a UTF-8 sequence are counted as characters: for valid UTF-8,
// its code points (the JSON parser hands over valid UTF-8 only).
password_check check_password(std::string_view password);

} // namespace quarto::server::accounts
