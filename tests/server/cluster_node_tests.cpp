// Servers started as nodes of one cluster (--redis, --node-id): each lists every node and the
// cluster's totals in GET /api/nodes and /metrics; a node that stops is gone from the others'
// lists at their next heartbeat; a single server lists itself alone.
#include <thread>

#include <sys/wait.h>

#include "helpers.hpp"
#include "redis_server.hpp"

using namespace quarto_test;

namespace {

json nodes_of(const server_process& server)
{
    const http_response res = http_get(server.port(), "/api/nodes");
    REQUIRE(res.status == 200);
    return json::parse(res.body);
}

// Waits (up to 10 s) until `server`'s /api/nodes satisfies `condition`; returns the last answer.
template <class Condition>
json nodes_when(const server_process& server, Condition condition)
{
    const auto deadline = in(std::chrono::seconds{10});
    json nodes = nodes_of(server);
    while (!condition(nodes) && steady::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds{50});
        nodes = nodes_of(server);
    }
    return nodes;
}

} // namespace

TEST_CASE("cluster: nodes list each other, with each node's figures and the totals")
{
    test_redis::redis_server redis;
    server_process a{{"--redis", redis.address(), "--node-id", "alpha"}};
    server_process b{{"--redis", redis.address(), "--node-id", "beta"}};
    CHECK(a.log().find("node alpha of a cluster on Redis at " + redis.address()) != std::string::npos);

    // A game on alpha: its two players are counted there, and in beta's totals.
    duel d = start_duel(a);
    const json seen_from_beta = nodes_when(b, [](const json& n) { return n["totals"]["connections"] == 2; });
    CHECK(seen_from_beta["cluster"] == true);
    CHECK(seen_from_beta["node"] == "beta");
    CHECK(seen_from_beta["redis"] == "up");
    CHECK(seen_from_beta["lease"]["held"] == true);
    REQUIRE(seen_from_beta["nodes"].size() == 2);
    CHECK(seen_from_beta["nodes"][0]["id"] == "beta");
    CHECK(seen_from_beta["nodes"][0]["self"] == true);
    CHECK(seen_from_beta["nodes"][1]["id"] == "alpha");
    CHECK(seen_from_beta["nodes"][1]["connections"] == 2);
    CHECK(seen_from_beta["nodes"][1]["rooms"]["playing"] == 1);
    CHECK(seen_from_beta["totals"]["nodes"] == 2);
    CHECK(seen_from_beta["totals"]["rooms"]["playing"] == 1);
    CHECK(seen_from_beta["totals"]["games_started"] == 1);

    const std::string metrics = http_get(b.port(), "/metrics").body;
    CHECK(metrics.find("quarto_cluster_nodes 2\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_redis_up 1\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_node_connections{node=\"alpha\"} 2\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_connections 2\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_rooms{status=\"playing\"} 1\n") != std::string::npos);

    // Alpha stops: it gives its lease back, and beta lists itself alone at its next heartbeat.
    d.act(0, "resign");
    d.expect_all("game_over");
    a.stop();
    const json after = nodes_when(b, [](const json& n) { return n["nodes"].size() == 1; });
    CHECK(after["nodes"].size() == 1);
    CHECK(after["totals"]["nodes"] == 1);
}

TEST_CASE("cluster: a node whose Redis is down serves on and says so, and rejoins when Redis is back")
{
    test_redis::redis_server redis;
    server_process a{{"--redis", redis.address(), "--node-id", "alpha"}};
    nodes_when(a, [](const json& n) { return n["lease"]["held"] == true; });
    redis.stop();
    const json down = nodes_when(a, [](const json& n) { return n["redis"] == "down" && n["lease"]["held"] == false; });
    CHECK(down["redis"] == "down");
    CHECK(down["lease"]["held"] == false);
    // Games on the node go on meanwhile.
    duel d = start_duel(a);
    d.act(1, "resign");
    d.expect_all("game_over");
    redis.start();
    const json back = nodes_when(a, [](const json& n) { return n["redis"] == "up" && n["lease"]["held"] == true; });
    CHECK(back["lease"]["held"] == true);
    CHECK(a.log().find("lost Redis") != std::string::npos);
}

TEST_CASE("cluster: a single server lists itself alone")
{
    server_process server;
    const json nodes = nodes_of(server);
    CHECK(nodes["cluster"] == false);
    CHECK(nodes.contains("redis") == false);
    REQUIRE(nodes["nodes"].size() == 1);
    CHECK(nodes["nodes"][0]["self"] == true);
    CHECK(nodes["nodes"][0]["shards"].get<int>() >= 1);
    CHECK(http_get(server.port(), "/metrics").body.find("quarto_cluster_") == std::string::npos);
}

TEST_CASE("cluster: a bad --redis or --node-id stops the start, and the password is never shown")
{
    auto run = run_to_exit({"--redis", "redis://:hunter2@cache:0"});
    REQUIRE(run.status);
    CHECK(WEXITSTATUS(*run.status) == 2);
    CHECK(run.output.find("--redis: the port is a number from 1 to 65535") != std::string::npos);
    CHECK(run.output.find("hunter2") == std::string::npos);

    run = run_to_exit({"--node-id", "a b"});
    REQUIRE(run.status);
    CHECK(WEXITSTATUS(*run.status) == 2);
    CHECK(run.output.find("--node-id") != std::string::npos);
}
