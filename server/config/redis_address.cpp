#include "config/redis_address.hpp"

#include <charconv>

namespace quarto::server {

namespace {

// %XX escapes, as in any URL's user and password; false on a broken escape.
bool percent_decode(std::string_view in, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] != '%') {
            out += in[i];
            continue;
        }
        unsigned value = 0;
        if (in.size() - i < 3) return false;
        const auto [end, ec] = std::from_chars(in.data() + i + 1, in.data() + i + 3, value, 16);
        if (ec != std::errc{} || end != in.data() + i + 3) return false;
        out += static_cast<char>(value);
        i += 2;
    }
    return true;
}

template <class Int>
bool parse_number(std::string_view text, Int& value)
{
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc{} && end == text.data() + text.size();
}

} // namespace

std::string redis_address::shown() const
{
    std::string out = unix_path.empty() ? "redis://" : "unix://";
    if (!password.empty()) out += (user.empty() ? "" : user) + ":***@";
    out += unix_path.empty() ? host + ":" + std::to_string(port) : unix_path;
    if (db != 0) out += unix_path.empty() ? "/" + std::to_string(db) : "?db=" + std::to_string(db);
    return out;
}

std::variant<redis_address, std::string> parse_redis_address(std::string_view text)
{
    redis_address a;
    bool is_unix = false;
    if (text.starts_with("redis://")) text.remove_prefix(8);
    else if (text.starts_with("unix://")) {
        text.remove_prefix(7);
        is_unix = true;
    } else
        return std::string{"--redis: expected redis://host[:port][/db] or unix:///path/to/redis.sock"};

    // Credentials end at the last '@' before the path (a password may hold '/').
    if (const auto at = text.rfind('@'); at != std::string_view::npos) {
        const auto credentials = text.substr(0, at);
        text.remove_prefix(at + 1);
        const auto colon = credentials.find(':');
        if (colon == std::string_view::npos)
            return std::string{"--redis: credentials are user:password@ or :password@"};
        if (!percent_decode(credentials.substr(0, colon), a.user) || !percent_decode(credentials.substr(colon + 1), a.password))
            return std::string{"--redis: a broken %-escape in the credentials"};
        if (a.password.empty()) return std::string{"--redis: an empty password"};
    }

    if (is_unix) {
        std::string_view query;
        if (const auto q = text.find('?'); q != std::string_view::npos) {
            query = text.substr(q + 1);
            text = text.substr(0, q);
        }
        if (!text.starts_with('/')) return std::string{"--redis: a Unix socket's path must be absolute (unix:///path)"};
        a.unix_path = std::string{text};
        if (!query.empty()) {
            if (!query.starts_with("db=") || !parse_number(query.substr(3), a.db) || a.db < 0)
                return std::string{"--redis: the only parameter of a unix:// address is db=N"};
        }
        return a;
    }

    std::string_view authority = text;
    if (const auto slash = text.find('/'); slash != std::string_view::npos) {
        authority = text.substr(0, slash);
        const auto db = text.substr(slash + 1);
        if (!db.empty() && (!parse_number(db, a.db) || a.db < 0))
            return std::string{"--redis: the database after the host is a number (redis://host:6379/0)"};
    }
    bool has_port = false;
    if (authority.starts_with('[')) { // [IPv6]:port
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::string{"--redis: an IPv6 host needs its closing ]"};
        a.host = std::string{authority.substr(1, close - 1)};
        authority.remove_prefix(close + 1);
        if (!authority.empty() && !authority.starts_with(':')) return std::string{"--redis: expected :port after ]"};
        has_port = !authority.empty();
        if (has_port) authority.remove_prefix(1);
    } else {
        const auto colon = authority.find(':');
        a.host = std::string{authority.substr(0, colon)};
        has_port = colon != std::string_view::npos;
        if (has_port) authority.remove_prefix(colon + 1);
    }
    if (a.host.empty()) return std::string{"--redis: no host"};
    if (has_port && (!parse_number(authority, a.port) || a.port == 0))
        return std::string{"--redis: the port is a number from 1 to 65535"};
    return a;
}

} // namespace quarto::server
