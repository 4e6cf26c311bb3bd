#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "cluster/node.hpp"
#include "redis_server.hpp"

using namespace std::chrono_literals;
using quarto::server::cluster::node;
using quarto::server::parse_redis_address;
using quarto::server::redis_address;

namespace {

redis_address address_of(const test_redis::redis_server& server)
{
    return std::get<redis_address>(parse_redis_address(server.address()));
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds limit = 10s)
{
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) return true;
        std::this_thread::sleep_for(20ms);
    }
    return condition();
}

std::vector<std::string> ids(const node& n)
{
    std::vector<std::string> out;
    for (const auto& p : n.peers()) out.push_back(p.id);
    return out;
}

} // namespace

TEST_CASE("nodes see each other and what each says of itself, and a node that stops is gone at once")
{
    test_redis::redis_server server;
    node::hooks a_hooks, b_hooks;
    a_hooks.figures = [] { return std::string{R"({"connections":3})"}; };
    b_hooks.figures = [] { return std::string{R"({"connections":4})"}; };
    node a{address_of(server), "a", a_hooks};
    node b{address_of(server), "b", b_hooks};
    a.start();
    b.start();
    REQUIRE(eventually([&] { return a.peers().size() == 2 && b.peers().size() == 2; }));
    CHECK(ids(a) == std::vector<std::string>{"a", "b"}); // itself first
    CHECK(ids(b) == std::vector<std::string>{"b", "a"});
    CHECK(a.peers()[1].figures == R"({"connections":4})");
    CHECK(a.peers()[0].self);
    CHECK_FALSE(a.peers()[1].self);
    CHECK(a.lease_held());
    CHECK(b.lease_held());
    CHECK(a.fencing_token() != b.fencing_token());
    CHECK(server.cli("PTTL quarto:node:a") != "-2\n");

    // Stopping gives the lease back: the other sees one node at its next heartbeat, not after
    // the TTL, and the keys are gone.
    const auto stopped_at = std::chrono::steady_clock::now();
    b.stop();
    CHECK(server.cli("EXISTS quarto:node:b") == "0\n");
    REQUIRE(eventually([&] { return a.peers().size() == 1; }, 5s));
    CHECK(std::chrono::steady_clock::now() - stopped_at < node::heartbeat + 500ms);
}

TEST_CASE("a second process with the same node id waits for the first one's lease")
{
    test_redis::redis_server server;
    node first{address_of(server), "same", {}};
    first.start();
    REQUIRE(eventually([&] { return first.lease_held(); }));
    node second{address_of(server), "same", {}};
    second.start();
    std::this_thread::sleep_for(2500ms);
    CHECK_FALSE(second.lease_held());
    CHECK(first.lease_held());

    const auto token = first.fencing_token();
    first.stop();
    REQUIRE(eventually([&] { return second.lease_held(); }, 5s));
    CHECK(second.fencing_token() > token);
}

TEST_CASE("a node cut off from Redis longer than its lease takes a new token when it is back")
{
    test_redis::redis_server server;
    node n{address_of(server), "n", {}};
    n.start();
    REQUIRE(eventually([&] { return n.lease_held(); }));
    const auto token = n.fencing_token();

    server.pause();
    // Held until the TTL has run out, not held after (it may have been taken over).
    REQUIRE(eventually([&] { return !n.lease_held(); }, node::lease_ttl + 2s));
    CHECK(n.lease_losses() == 1);
    server.resume();
    REQUIRE(eventually([&] { return n.lease_held(); }));
    CHECK(n.fencing_token() > token);
}

TEST_CASE("tokens keep growing when Redis restarts and forgets its counter")
{
    test_redis::redis_server server;
    std::int64_t token = 0;
    {
        node n{address_of(server), "n", {}};
        n.start();
        REQUIRE(eventually([&] { return n.lease_held(); }));
        token = n.fencing_token();
        n.stop();
    }
    server.restart();
    node again{address_of(server), "n", {}};
    again.start();
    REQUIRE(eventually([&] { return again.lease_held(); }));
    CHECK(again.fencing_token() > token);
}

TEST_CASE("a node that owned rooms and has no lease is taken over by one live node, once")
{
    test_redis::redis_server server;
    // A node that died: listed among the owners with its token, no lease.
    server.cli("HSET quarto:owners ghost 41");
    std::mutex mutex;
    std::vector<std::string> calls; // "node:dead:token"
    node* nodes[2] = {};
    const auto hooks_for = [&](const std::string& self, int index) {
        node::hooks h;
        h.dead_node = [&, self, index](const std::string& dead, std::int64_t token) {
            {
                std::lock_guard lock{mutex};
                calls.push_back(self + ":" + dead + ":" + std::to_string(token));
            }
            nodes[index]->took_over(dead, token, true);
        };
        return h;
    };
    node a{address_of(server), "a", hooks_for("a", 0)};
    node b{address_of(server), "b", hooks_for("b", 1)};
    nodes[0] = &a;
    nodes[1] = &b;
    a.start();
    b.start();
    REQUIRE(eventually([&] {
        std::lock_guard lock{mutex};
        return !calls.empty();
    }));
    std::this_thread::sleep_for(2500ms); // more heartbeats of both: no second call
    {
        std::lock_guard lock{mutex};
        REQUIRE(calls.size() == 1);
        CHECK((calls[0] == "a:ghost:41" || calls[0] == "b:ghost:41"));
    }
    CHECK(server.cli("HEXISTS quarto:owners ghost") == "0\n");
    CHECK(server.cli("HEXISTS quarto:owners a") == "1\n"); // the live ones are owners too

    // The same node id started again (a new token), then dead again at once, well within the
    // first takeover's mark: taken over again.
    server.cli("HSET quarto:owners ghost 43");
    REQUIRE(eventually([&] {
        std::lock_guard lock{mutex};
        return calls.size() == 2;
    }));
    std::lock_guard lock{mutex};
    CHECK((calls[1] == "a:ghost:43" || calls[1] == "b:ghost:43"));
}
