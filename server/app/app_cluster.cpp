// The node's part in a cluster (--redis), on the node's thread: taking over a dead node's rooms,
// being fenced, other nodes' rooms and tournaments in the lobby, and their records relayed to
// this node's shards.
#include "app/app.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include <spdlog/spdlog.h>

#include "shards/player_json.hpp"
#include "shards/shard.hpp"
#include "tournaments/stored_document.hpp"

namespace quarto::server {

// On the node's thread: the lease was taken again after it had been lost. If no other node took
// this node's rooms over meanwhile, the journal goes on with the new token; if one did, the
// rooms are that node's now and this process must not serve them a moment longer.
void app::refence(std::int64_t token, std::int64_t previous)
{
    if (previous == 0 || !state_.journal) return;
    state_.journal->fence(token, previous, [id = state_.settings.node_id](bool ok) {
        if (!ok) shards::stop_fenced_node(id);
    });
}

// On the node's thread: `dead` has no lease and this node is to take its rooms over: from the
// journal, where they are moved to this node (fencing `dead`), onto the shards, which claim them.
void app::take_over(const std::string& dead, std::int64_t token)
{
    if (!state_.journal) return node_->took_over(dead, token, true);
    state_.journal->take_over(dead, token, [this, dead, token](archive::archive_result<archive::journal::taken_over> taken) {
        if (taken.failed) return node_->took_over(dead, token, false); // another try at the next heartbeat
        auto& entries = taken.value.entries;
        std::size_t rooms = 0;
        for (std::size_t begin = 0; begin < entries.size();) {
            std::size_t end = begin;
            while (end < entries.size() && entries[end].room == entries[begin].room) ++end;
            std::vector<archive::journal_entry> room(std::make_move_iterator(entries.begin() + static_cast<std::ptrdiff_t>(begin)),
                                                     std::make_move_iterator(entries.begin() + static_cast<std::ptrdiff_t>(end)));
            const auto id = room.front().room;
            state_.shards[state_.place_restored_room(id, room)]->post([id, room = std::move(room)](shards::shard& s) {
                s.restore_room(id, room);
            });
            ++rooms;
            begin = end;
        }
        // After the rooms (posted first to the same shard): a tournament finds its games going on.
        std::size_t adopted = 0;
        for (const auto& t : taken.value.tournaments) {
            auto document = tournaments::read_stored_document(t.state);
            if (!document) {
                spdlog::error("node {}: tournament {} of node {} could not be read (damaged); not taken over",
                              state_.settings.node_id, t.id, dead);
                continue;
            }
            for (auto& person : document->people) state_.players.restore(std::move(person));
            state_.shards[state_.shard_of_tournament(t.id)]->post([record = std::move(document->record)](shards::shard& s) mutable {
                s.adopt_tournament(std::move(record));
            });
            ++adopted;
        }
        spdlog::warn("node {}: {} rooms and {} tournaments of node {} taken over", state_.settings.node_id, rooms,
                     adopted, dead);
        node_->took_over(dead, token, true);
    });
}

// On the node's thread: every room the nodes published; the live other nodes' are the lobby's
// (a dead node's stay out of it until they are taken over and published again).
void app::other_nodes_rooms(std::vector<std::pair<std::string, std::string>> published, const std::vector<std::string>& live)
{
    const auto steady_now = std::chrono::steady_clock::now();
    const auto unix_now = play::server_clock::unix_ms();
    std::vector<play::remote_lobby::room> rooms;
    rooms.reserve(published.size());
    for (auto& [id, text] : published) {
        // rank, added (unix ms), listed, node, summary (shard::publish_lobby)
        std::array<std::string_view, 4> fields;
        std::string_view rest = text;
        bool ok = true;
        for (auto& f : fields) {
            const auto tab = rest.find('\t');
            if (tab == std::string_view::npos) {
                ok = false;
                break;
            }
            f = rest.substr(0, tab);
            rest.remove_prefix(tab + 1);
        }
        if (!ok || fields[3] == state_.settings.node_id || std::find(live.begin(), live.end(), fields[3]) == live.end())
            continue;
        int rank = 0;
        std::int64_t added_ms = 0;
        std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), rank);
        std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), added_ms);
        rooms.push_back({std::move(id), rank, steady_now - std::chrono::milliseconds{unix_now - added_ms}, fields[2] == "1",
                         std::string{rest}});
    }
    state_.other_nodes_rooms.replace(std::move(rooms));
}

// On the node's thread: every tournament the nodes published; the live other nodes' are listed
// (a dead node's come back once they are taken over).
void app::other_nodes_tournaments(std::vector<std::pair<std::string, std::string>> published, const std::vector<std::string>& live)
{
    std::vector<shards::tournament_directory::remote_entry> listed;
    listed.reserve(published.size());
    for (auto& [id, text] : published) {
        // created (unix ms), node, summary (shard::publish_tournament)
        const auto first = text.find('\t');
        const auto second = first == std::string::npos ? first : text.find('\t', first + 1);
        if (second == std::string::npos) continue;
        const std::string_view node = std::string_view{text}.substr(first + 1, second - first - 1);
        if (node == state_.settings.node_id || std::find(live.begin(), live.end(), node) == live.end()) continue;
        std::int64_t created_ms = 0;
        std::from_chars(text.data(), text.data() + first, created_ms);
        auto summary = nlohmann::json::parse(std::string_view{text}.substr(second + 1), nullptr, false);
        if (!summary.is_object()) continue;
        listed.push_back({std::move(id), created_ms, std::move(summary)});
    }
    state_.tournaments.replace_remote(std::move(listed));
}

// On the node's thread: a player of another node said hello with their token (`back`: their
// places here resume the connection), or took a new name (`renamed`: their places here show it).
// This node's registry knows which rooms and tournaments of its hold them.
void app::player_news(const cluster::relay_record& r)
{
    const auto player = shards::player_from_json(r.player);
    if (!player) return;
    const bool renamed = r.type == cluster::relay_record::kind::renamed;
    if (renamed && !state_.players.rename(player->info.id, player->info.name)) return; // not known here
    const auto to_place = [&](const std::string& id, bool tournament) {
        auto news = r;
        news.tournament = tournament;
        news.place = id;
        const auto owner = tournament ? state_.shard_of_tournament(id) : state_.shard_of_room(id);
        state_.shards[owner]->post([news = std::move(news), renamed, info = player->info](shards::shard& s) {
            if (!renamed) return s.remote_record(news);
            if (!news.tournament) {
                if (auto* room = s.find_room(news.place)) room->rename(info);
            } else if (auto* t = s.find_tournament(news.place)) {
                t->rename(info);
            }
        });
    };
    for (const auto& id : state_.players.rooms_of(player->info.id)) to_place(id, false);
    for (const auto& id : state_.players.tournaments_of(player->info.id)) to_place(id, true);
}

// On the node's thread: records from other nodes, each to the shard of its room or client.
void app::relay_in(std::string_view payload)
{
    std::vector<cluster::relay_record> records;
    if (!cluster::parse_records(payload, records))
        spdlog::warn("node {}: a malformed message from another node ({} bytes) was dropped after {} records",
                     state_.settings.node_id, payload.size(), records.size());
    const std::size_t count = state_.shards.size();
    for (auto& r : records) {
        using kind = cluster::relay_record::kind;
        if (r.type == kind::gone) {
            if (r.from_node != state_.settings.node_id) node_->beat_now();
            continue;
        }
        if (r.type == kind::renamed || r.type == kind::back) {
            if (r.from_node != state_.settings.node_id) player_news(r); // its own node did its part
            continue;
        }
        if (r.type == kind::moved) { // every shard's clients may be in that room
            for (auto& shard : state_.shards) shard->post([r](shards::shard& s) { s.remote_record(r); });
            continue;
        }
        const bool to_room = r.type == kind::message || r.type == kind::detach || r.type == kind::resume;
        const std::size_t target = !to_room ? r.client.shard
                                   : r.tournament ? state_.shard_of_tournament(r.place)
                                                  : state_.shard_of_room(r.place);
        if (target >= count) continue;
        state_.shards[target]->post([r = std::move(r)](shards::shard& s) { s.remote_record(r); });
    }
}

cluster::node_figures app::figures() const
{
    cluster::node_figures f;
    f.started_ms = started_ms_;
    f.shards = static_cast<unsigned>(state_.shards.size());
    const auto sum = [](const auto& value) { return value.load(std::memory_order_relaxed); };
    for (const auto& shard : state_.shards) {
        const auto& c = shard->counters_view();
        f.connections += sum(c.connections_open);
        for (std::size_t i = 0; i < f.rooms.size(); ++i) f.rooms[i] += sum(c.rooms[i]);
        f.games_started += sum(c.games_started);
        for (const auto& finished : c.games_finished) f.games_finished += sum(finished);
        f.messages_in += sum(c.messages_in);
    }
    return f;
}

} // namespace quarto::server
