// The per-connection token buckets: the documented bursts exactly, whatever order the clock
// readings come in. Time is the argument: nothing sleeps.
#include <chrono>

#include <doctest/doctest.h>

#include "config/config.hpp"
#include "net/rate_limiter.hpp"

using quarto::server::config;
using quarto::server::net::rate_limiter;
using namespace std::chrono_literals;

namespace {

using verdict = rate_limiter::verdict;

// How many admits in a row at `at` are accepted before the first refusal.
int accepted_in_a_row(rate_limiter& bucket, rate_limiter::clock::time_point at)
{
    int accepted = 0;
    while (bucket.admit(at) == verdict::accept) {
        ++accepted;
        REQUIRE(accepted <= 1000); // a bucket that never refuses
    }
    return accepted;
}

} // namespace

TEST_CASE("rate_limiter: the join bucket takes exactly 10 joins in a row, the 11th is refused")
{
    const config defaults;
    REQUIRE(defaults.join_rate == 2);
    REQUIRE(defaults.join_burst == 10);
    const auto t0 = rate_limiter::clock::now();

    SUBCASE("all at the instant the bucket was made")
    {
        rate_limiter joins{defaults.join_rate, defaults.join_burst, t0};
        CHECK(accepted_in_a_row(joins, t0) == 10);
    }
    SUBCASE("read with a turn's time from before the bucket was made")
    {
        // A client is made during a turn of its loop, and its messages are timed with that
        // turn's time, read when the turn began.
        rate_limiter joins{defaults.join_rate, defaults.join_burst, t0 + 1ms};
        for (int i = 0; i < 10; ++i) {
            CAPTURE(i);
            CHECK(joins.admit(t0) == verdict::accept);
        }
        CHECK(joins.admit(t0) == verdict::refuse);
        CHECK(joins.admit(t0 + 1ms) == verdict::refuse);
    }
    SUBCASE("a second's refill is 2 more, no more")
    {
        rate_limiter joins{defaults.join_rate, defaults.join_burst, t0};
        CHECK(accepted_in_a_row(joins, t0) == 10);
        CHECK(accepted_in_a_row(joins, t0 + 1s) == 2);
        CHECK(accepted_in_a_row(joins, t0 + 1h) == 10); // never more than the burst
    }
}

TEST_CASE("rate_limiter: the message bucket takes exactly 40 messages in a row, the 41st is refused")
{
    const config defaults;
    REQUIRE(defaults.rate_limit == 20);
    REQUIRE(defaults.rate_burst == 40);
    const auto t0 = rate_limiter::clock::now();
    rate_limiter messages{defaults.rate_limit, defaults.rate_burst, t0 + 5ms};
    CHECK(accepted_in_a_row(messages, t0) == 40);
    CHECK(accepted_in_a_row(messages, t0 + 5ms + 100ms) == 2);
}

TEST_CASE("rate_limiter: a reading earlier than the last one neither refills nor takes away")
{
    const auto t0 = rate_limiter::clock::now();
    rate_limiter bucket{1, 3, t0};
    CHECK(bucket.admit(t0 + 10s) == verdict::accept); // full already: 2 left
    // Ten seconds back: no negative refill, and the next reading counts from t0 + 10s.
    CHECK(bucket.admit(t0) == verdict::accept); // 1 left
    CHECK(bucket.admit(t0 + 10s + 500ms) == verdict::accept); // 0.5 refilled, then 0.5 left
    CHECK(bucket.admit(t0 + 10s + 500ms) == verdict::refuse);
    CHECK(bucket.admit(t0 + 11s) == verdict::accept);
}

TEST_CASE("rate_limiter: refusals past abuse_limit within the window close, and the window restarts")
{
    const auto t0 = rate_limiter::clock::now();
    rate_limiter bucket{1, 1, t0};
    REQUIRE(bucket.admit(t0) == verdict::accept);
    for (int i = 1; i < rate_limiter::abuse_limit; ++i) REQUIRE(bucket.admit(t0) == verdict::refuse);
    CHECK(bucket.admit(t0) == verdict::close);

    rate_limiter patient{1e-9, 1, t0};
    REQUIRE(patient.admit(t0) == verdict::accept);
    for (int i = 1; i < rate_limiter::abuse_limit; ++i) REQUIRE(patient.admit(t0) == verdict::refuse);
    CHECK(patient.admit(t0 + rate_limiter::abuse_window) == verdict::refuse); // a new window
}
