// Failed logins limited per address and per account name, with the time passed in.
#include <doctest/doctest.h>

#include <string>

#include "accounts/login_limiter.hpp"

using namespace quarto::server::accounts;
using namespace std::chrono_literals;

namespace failure_limiter_test {
const failure_limiter::clock::time_point t0{std::chrono::hours{1}};
} // namespace failure_limiter_test

TEST_CASE("failure limiter: 10 failures in 10 minutes, then refused until the window ends")
{
    using failure_limiter_test::t0;
    failure_limiter limiter{{}};
    for (int i = 0; i < 10; ++i) {
        CHECK(limiter.retry_after("alice", t0 + i * 1s) == 0s);
        limiter.fail("alice", t0 + i * 1s);
    }
    // The window opened at the first failure: 600 s from t0.
    CHECK(limiter.retry_after("alice", t0 + 9s) == 591s);
    CHECK(limiter.retry_after("alice", t0 + 100s) == 500s);
    CHECK(limiter.retry_after("alice", t0 + 100s + 500ms) == 500s); // rounded up
    CHECK(limiter.retry_after("alice", t0 + 599s + 500ms) == 1s);
    CHECK(limiter.retry_after("bob", t0 + 100s) == 0s);
    // Ended: free again, and a new failure opens a new window with one failure in it.
    CHECK(limiter.retry_after("alice", t0 + 600s) == 0s);
    limiter.fail("alice", t0 + 600s);
    for (int i = 1; i < 9; ++i) limiter.fail("alice", t0 + 600s + i * 1s);
    CHECK(limiter.retry_after("alice", t0 + 610s) == 0s); // 9 failures in the new window
    limiter.fail("alice", t0 + 610s);
    CHECK(limiter.retry_after("alice", t0 + 610s) == 590s);
    CHECK(limiter.keys() == 1);
}

TEST_CASE("failure limiter: forget clears a key")
{
    using failure_limiter_test::t0;
    failure_limiter limiter{{.max_failures = 2}};
    limiter.fail("alice", t0);
    limiter.fail("alice", t0);
    CHECK(limiter.retry_after("alice", t0) == 600s);
    limiter.forget("alice");
    limiter.forget("nobody");
    CHECK(limiter.retry_after("alice", t0) == 0s);
    CHECK(limiter.keys() == 0);
}

TEST_CASE("failure limiter: ended windows are forgotten, and past the cap the oldest")
{
    using failure_limiter_test::t0;
    failure_limiter limiter{{.max_failures = 1, .window = 60s, .max_keys = 3}};
    limiter.fail("a", t0);
    limiter.fail("b", t0 + 1s);
    limiter.fail("c", t0 + 2s);
    CHECK(limiter.keys() == 3);
    limiter.fail("d", t0 + 3s); // at the cap: "a", the oldest, makes room
    CHECK(limiter.keys() == 3);
    CHECK(limiter.retry_after("a", t0 + 3s) == 0s);
    CHECK(limiter.retry_after("b", t0 + 3s) == 58s);
    CHECK(limiter.retry_after("c", t0 + 3s) == 59s);
    CHECK(limiter.retry_after("d", t0 + 3s) == 60s);
    // A known key's new failure takes no room.
    limiter.fail("d", t0 + 4s);
    CHECK(limiter.keys() == 3);
    CHECK(limiter.retry_after("b", t0 + 4s) == 57s);
    // Once "b" and "c" have ended, a new key sweeps them both away.
    limiter.fail("e", t0 + 62s + 500ms);
    CHECK(limiter.keys() == 2);
    CHECK(limiter.retry_after("d", t0 + 62s + 500ms) == 1s);
    CHECK(limiter.retry_after("e", t0 + 62s + 500ms) == 60s);
    // A renewed window moves its key to the newest: "d" outlives "e" at the next evictions.
    limiter.fail("d", t0 + 63s);
    limiter.fail("f", t0 + 64s);
    limiter.fail("g", t0 + 65s);
    CHECK(limiter.keys() == 3);
    CHECK(limiter.retry_after("e", t0 + 65s) == 0s);
    CHECK(limiter.retry_after("d", t0 + 65s) == 58s);
}

TEST_CASE("login limiter: per address and per name, whether the account exists or not")
{
    using failure_limiter_test::t0;
    login_limiter limiter;
    // One name from ten addresses: the name is refused from any address, the addresses are not.
    // "alice" has an account and "nobody" none: the limiter neither knows nor tells.
    for (const char* account : {"alice", "nobody"}) {
        const std::string name = account;
        CAPTURE(name);
        for (int i = 0; i < 10; ++i) {
            const std::string address = name + "-10.0.0." + std::to_string(i);
            CHECK(limiter.retry_after(address, name, t0) == 0s);
            limiter.failed(address, name, t0);
        }
        CHECK(limiter.retry_after(name + "-10.0.0.99", name, t0 + 30s) == 570s);
        CHECK(limiter.retry_after(name + "-10.0.0.1", "carol", t0 + 30s) == 0s);
    }
    // One address trying ten names: the address is refused whatever the name.
    for (int i = 0; i < 10; ++i) limiter.failed("192.0.2.7", "name" + std::to_string(i), t0 + 60s);
    CHECK(limiter.retry_after("192.0.2.7", "dave", t0 + 70s) == 590s);
    CHECK(limiter.retry_after("192.0.2.8", "dave", t0 + 70s) == 0s);
    // The later of the two limits.
    CHECK(limiter.retry_after("192.0.2.7", "alice", t0 + 70s) == 590s);
    // A success clears the name's failures, not the address's.
    limiter.succeeded("alice");
    CHECK(limiter.retry_after("alice-10.0.0.99", "alice", t0 + 70s) == 0s);
    CHECK(limiter.retry_after("192.0.2.7", "alice", t0 + 70s) == 590s);
    CHECK(limiter.retry_after("nobody-10.0.0.99", "nobody", t0 + 70s) == 530s);
}
