#include <doctest/doctest.h>

#include "config/redis_address.hpp"

using quarto::server::parse_redis_address;
using quarto::server::redis_address;

namespace {

redis_address parsed(std::string_view text)
{
    auto result = parse_redis_address(text);
    REQUIRE_MESSAGE(std::holds_alternative<redis_address>(result), std::string{text});
    return std::get<redis_address>(result);
}

std::string problem(std::string_view text)
{
    auto result = parse_redis_address(text);
    REQUIRE_MESSAGE(std::holds_alternative<std::string>(result), std::string{text});
    return std::get<std::string>(result);
}

} // namespace

TEST_CASE("a TCP address: host, default port, database")
{
    const auto a = parsed("redis://cache.internal");
    CHECK(a.host == "cache.internal");
    CHECK(a.port == 6379);
    CHECK(a.db == 0);
    CHECK(a.unix_path.empty());
    CHECK(a.password.empty());

    const auto b = parsed("redis://10.0.0.5:7000/3");
    CHECK(b.host == "10.0.0.5");
    CHECK(b.port == 7000);
    CHECK(b.db == 3);

    const auto v6 = parsed("redis://[::1]:6380");
    CHECK(v6.host == "::1");
    CHECK(v6.port == 6380);
}

TEST_CASE("credentials: a password alone, a user and a password, escapes")
{
    const auto a = parsed("redis://:s3cret@h:1");
    CHECK(a.user.empty());
    CHECK(a.password == "s3cret");

    const auto b = parsed("redis://quarto:p%40ss%2Fword@h");
    CHECK(b.user == "quarto");
    CHECK(b.password == "p@ss/word");
}

TEST_CASE("a Unix socket, with a database")
{
    const auto a = parsed("unix:///run/redis/redis.sock");
    CHECK(a.unix_path == "/run/redis/redis.sock");
    CHECK(a.db == 0);
    const auto b = parsed("unix://:pw@/tmp/r.sock?db=2");
    CHECK(b.unix_path == "/tmp/r.sock");
    CHECK(b.password == "pw");
    CHECK(b.db == 2);
}

TEST_CASE("what is shown never holds the password")
{
    CHECK(parsed("redis://quarto:hunter2@h:7000/1").shown() == "redis://quarto:***@h:7000/1");
    CHECK(parsed("unix://:hunter2@/tmp/r.sock?db=2").shown() == "unix://:***@/tmp/r.sock?db=2");
    CHECK(parsed("redis://h").shown() == "redis://h:6379");
}

TEST_CASE("bad addresses are refused with the reason, and without repeating them")
{
    CHECK(problem("http://h").find("redis://") != std::string::npos);
    CHECK(problem("redis://").find("no host") != std::string::npos);
    CHECK(problem("redis://h:0").find("port") != std::string::npos);
    CHECK(problem("redis://h:99999").find("port") != std::string::npos);
    CHECK(problem("redis://h:").find("port") != std::string::npos);
    CHECK(problem("redis://h/x").find("database") != std::string::npos);
    CHECK(problem("redis://hunter2@h").find("credentials") != std::string::npos);
    CHECK(problem("redis://:%zz@h").find("escape") != std::string::npos);
    CHECK(problem("unix://relative.sock").find("absolute") != std::string::npos);
    CHECK(problem("unix:///tmp/r.sock?timeout=1").find("db=N") != std::string::npos);
    CHECK(problem("redis://[::1").find("]") != std::string::npos);
    CHECK(problem("redis://:hunter2@h:0").find("hunter2") == std::string::npos);
}
