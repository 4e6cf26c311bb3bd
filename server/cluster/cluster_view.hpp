// What a node tells the others of itself (its figures, as JSON in Redis), and what GET
// /api/nodes and /metrics show of every node and of the whole cluster.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace quarto::server::cluster {

class node;

struct node_figures {
    std::int64_t started_ms = 0; // unix time
    unsigned shards = 0;
    std::int64_t connections = 0;
    std::array<std::int64_t, 3> rooms{}; // waiting, playing, finished
    std::uint64_t games_started = 0;
    std::uint64_t games_finished = 0;
    std::uint64_t messages_in = 0;
};

std::string to_json(const node_figures& f);

// GET /api/nodes. `cluster` is null on a single server: it is then the only node.
std::string nodes_json(const node* cluster, const std::string& self_id, const node_figures& self);

// The cluster's part of /metrics: this node's link to Redis and lease, each node's figures
// (labelled node="id") and the totals.
void append_metrics(std::string& out, const node& cluster);

} // namespace quarto::server::cluster
