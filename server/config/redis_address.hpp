// Where a node's Redis is, from --redis (parsed with the rest of the configuration, used by the
// cluster): redis://[[user]:password@]host[:port][/db] for TCP, or
// unix://[[user]:password@]/path/to/redis.sock[?db=N] for a Unix socket.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace quarto::server {

struct redis_address {
    std::string host;      // TCP, when unix_path is empty
    std::uint16_t port = 6379;
    std::string unix_path; // a Unix socket instead
    std::string user;      // with password: AUTH user password (Redis 6 ACLs)
    std::string password;  // empty: no AUTH
    int db = 0;            // SELECT db when not 0

    // The address for logs and errors: never the password.
    std::string shown() const;
};

// The address, or a sentence saying what is wrong with `text` (which it never repeats, since it
// may hold a password).
std::variant<redis_address, std::string> parse_redis_address(std::string_view text);

} // namespace quarto::server
