// The per-address connection cap.
#include <vector>

#include <doctest/doctest.h>

#include "net/address_limiter.hpp"

using namespace quarto::server;
using namespace quarto::server::net;

TEST_CASE("address limiter: admits up to the cap per address, and again once a ticket is dropped")
{
    auto limiter = std::make_shared<address_limiter>(2);
    auto a1 = limiter->admit("203.0.113.7");
    auto a2 = limiter->admit("203.0.113.7");
    CHECK(a1);
    CHECK(a2);
    CHECK_FALSE(limiter->admit("203.0.113.7"));
    CHECK(limiter->admit("203.0.113.8")); // another address has its own count
    a1.reset();
    CHECK(limiter->admit("203.0.113.7"));
}

TEST_CASE("address limiter: what was held before a restart is counted even over the cap")
{
    auto limiter = std::make_shared<address_limiter>(1);
    auto held = limiter->admit("pdirector", /*even_over_cap=*/true);
    auto again = limiter->admit("pdirector", /*even_over_cap=*/true);
    CHECK(held);
    CHECK(again);
    CHECK_FALSE(limiter->admit("pdirector"));
    held.reset();
    CHECK_FALSE(limiter->admit("pdirector")); // still one held
    again.reset();
    CHECK(limiter->admit("pdirector"));
}

TEST_CASE("address limiter: no cap admits everything")
{
    auto limiter = std::make_shared<address_limiter>(0);
    std::vector<address_limiter::ticket> tickets;
    for (int i = 0; i < 100; ++i) tickets.push_back(limiter->admit("203.0.113.7"));
    for (const auto& t : tickets) CHECK(t);
}
