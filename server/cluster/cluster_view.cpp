#include "cluster/cluster_view.hpp"

#include <nlohmann/json.hpp>

#include "cluster/node.hpp"
#include "metrics/metrics.hpp"

namespace quarto::server::cluster {

namespace {

using json = nlohmann::json;
constexpr std::array<const char*, 3> room_statuses{"waiting", "playing", "finished"};

// Another node's figures: a node of another version may lack some, or have more.
node_figures parse_figures(const std::string& text)
{
    node_figures f;
    const auto j = json::parse(text, nullptr, false);
    if (!j.is_object()) return f;
    const auto number = [&](const char* key, auto& into) {
        if (const auto it = j.find(key); it != j.end() && it->is_number()) into = it->get<std::decay_t<decltype(into)>>();
    };
    number("started_ms", f.started_ms);
    number("shards", f.shards);
    number("connections", f.connections);
    number("games_started", f.games_started);
    number("games_finished", f.games_finished);
    number("messages_in", f.messages_in);
    if (const auto it = j.find("rooms"); it != j.end() && it->is_object())
        for (std::size_t i = 0; i < room_statuses.size(); ++i)
            if (const auto r = it->find(room_statuses[i]); r != it->end() && r->is_number()) f.rooms[i] = r->get<std::int64_t>();
    return f;
}

json figures_object(const node_figures& f)
{
    json rooms = json::object();
    for (std::size_t i = 0; i < room_statuses.size(); ++i) rooms[room_statuses[i]] = f.rooms[i];
    return {{"started_ms", f.started_ms},       {"shards", f.shards},
            {"connections", f.connections},     {"rooms", std::move(rooms)},
            {"games_started", f.games_started}, {"games_finished", f.games_finished},
            {"messages_in", f.messages_in}};
}

void add(node_figures& total, const node_figures& f)
{
    total.shards += f.shards;
    total.connections += f.connections;
    for (std::size_t i = 0; i < f.rooms.size(); ++i) total.rooms[i] += f.rooms[i];
    total.games_started += f.games_started;
    total.games_finished += f.games_finished;
    total.messages_in += f.messages_in;
}

} // namespace

std::string to_json(const node_figures& f) { return figures_object(f).dump(); }

std::string nodes_json(const node* cluster, const std::string& self_id, const node_figures& self)
{
    json nodes = json::array();
    node_figures total;
    const auto add_node = [&](const std::string& id, const node_figures& f, bool is_self) {
        json entry = figures_object(f);
        entry["id"] = id;
        entry["self"] = is_self;
        nodes.push_back(std::move(entry));
        add(total, f);
    };
    // This node's own figures are always the current ones, whatever the last heartbeat read.
    add_node(self_id, self, true);
    if (cluster)
        for (const auto& p : cluster->peers())
            if (!p.self) add_node(p.id, parse_figures(p.figures), false);
    json totals = figures_object(total);
    totals.erase("started_ms");
    totals["nodes"] = nodes.size();
    json out{{"cluster", cluster != nullptr}, {"node", self_id}, {"nodes", std::move(nodes)}, {"totals", std::move(totals)}};
    if (cluster) {
        out["redis"] = cluster->redis_up() ? "up" : "down";
        out["lease"] = {{"held", cluster->lease_held()}, {"token", cluster->fencing_token()}};
    }
    return out.dump();
}

void append_metrics(std::string& out, const node& cluster)
{
    using metrics::header;
    using metrics::line;
    const auto peers = cluster.peers();
    header(out, "quarto_cluster_redis_up", "gauge", "1 while this node's connection to Redis is up.");
    line(out, "quarto_cluster_redis_up", "", cluster.redis_up() ? 1 : 0);
    header(out, "quarto_cluster_lease_held", "gauge", "1 while this node holds its lease in Redis.");
    line(out, "quarto_cluster_lease_held", "", cluster.lease_held() ? 1 : 0);
    header(out, "quarto_cluster_lease_losses_total", "counter", "Times this node's lease expired under it.");
    line(out, "quarto_cluster_lease_losses_total", "", static_cast<double>(cluster.lease_losses()));
    header(out, "quarto_cluster_nodes", "gauge", "Live nodes, as this node's last heartbeat read them.");
    line(out, "quarto_cluster_nodes", "", static_cast<double>(peers.size()));

    std::vector<std::pair<std::string, node_figures>> figures;
    node_figures total;
    for (const auto& p : peers) {
        figures.emplace_back("node=\"" + p.id + "\"", parse_figures(p.figures));
        add(total, figures.back().second);
    }
    const auto per_node_and_total = [&](std::string_view name, std::string_view type, std::string_view help, auto field) {
        const std::string per_node = "quarto_cluster_node_" + std::string{name};
        const std::string all = "quarto_cluster_" + std::string{name};
        header(out, per_node, type, std::string{help} + ", by node (as its last heartbeat said).");
        for (const auto& [label, f] : figures) line(out, per_node, label, static_cast<double>(field(f)));
        header(out, all, type, std::string{help} + ", on every node.");
        line(out, all, "", static_cast<double>(field(total)));
    };
    per_node_and_total("connections", "gauge", "Open WebSocket connections", [](const node_figures& f) { return f.connections; });
    per_node_and_total("games_started_total", "counter", "Games started", [](const node_figures& f) { return f.games_started; });
    per_node_and_total("games_finished_total", "counter", "Games finished", [](const node_figures& f) { return f.games_finished; });
    per_node_and_total("messages_in_total", "counter", "WebSocket messages received", [](const node_figures& f) { return f.messages_in; });
    header(out, "quarto_cluster_node_rooms", "gauge", "Rooms by status, by node (as its last heartbeat said).");
    for (const auto& [label, f] : figures)
        for (std::size_t i = 0; i < room_statuses.size(); ++i)
            line(out, "quarto_cluster_node_rooms", label + ",status=\"" + room_statuses[i] + "\"", static_cast<double>(f.rooms[i]));
    header(out, "quarto_cluster_rooms", "gauge", "Rooms by status, on every node.");
    for (std::size_t i = 0; i < room_statuses.size(); ++i)
        line(out, "quarto_cluster_rooms", std::string{"status=\""} + room_statuses[i] + "\"", static_cast<double>(total.rooms[i]));
}

} // namespace quarto::server::cluster
