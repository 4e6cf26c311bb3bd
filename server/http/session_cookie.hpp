// The account's session cookie, quarto_session: read from a request's Cookie header, and the
// Set-Cookie values that give it and take it back. HttpOnly (no script reads it), SameSite=Lax
// (another site's form or script cannot send it along), Secure when the browser reached us over
// TLS. Pure.
#pragma once

#include <string>
#include <string_view>

namespace quarto::server::http {

inline constexpr std::string_view session_cookie_name = "quarto_session";
// A year: a session lasts until its player logs out (or changes their password elsewhere).
inline constexpr long session_cookie_max_age = 365L * 24 * 3600;

// The session id in a Cookie header ("a=b; quarto_session=ID"), empty when there is none or it
// is not one the server makes (32 lowercase hex digits).
std::string session_from_cookies(std::string_view cookie_header);

std::string session_cookie(std::string_view id, bool secure);
// The cookie's end: empty, expired at once.
std::string ended_session_cookie(bool secure);

// Whether the client reached us over TLS: this server speaks plain HTTP, so only a proxy it
// trusts (--trust-proxy) can say so, with X-Forwarded-Proto: https.
bool reached_over_tls(std::string_view forwarded_proto, bool trust_proxy);

} // namespace quarto::server::http
