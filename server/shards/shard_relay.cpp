// The shard's part in a cluster (--redis): what its rooms send to clients of other nodes, and
// what other nodes send its rooms and clients (cluster/relay_record.hpp).
#include "shards/shard.hpp"

#include <cstdlib>

#include <spdlog/spdlog.h>

#include "quarto/protocol/encode.hpp"
#include "shards/client.hpp"
#include "shards/player_json.hpp"
#include "shards/shard_of.hpp"

namespace quarto::server::shards {

void stop_fenced_node(const std::string& node)
{
    spdlog::critical("node {} is fenced: another node has taken its rooms over. Stopping now.", node);
    spdlog::default_logger()->flush();
    std::_Exit(3);
}

void shard::relay(const std::string& node, const cluster::relay_record& r) { cluster::append(relayed_[node], r); }

void shard::send_relayed()
{
    if (relayed_.empty()) return;
    for (auto& [node, records] : relayed_) state_.cluster->to_node(node, std::move(records));
    relayed_.clear();
}

void shard::publish_lobby(const protocol::room_id& id)
{
    if (!state_.cluster) return;
    const auto p = lobby_.publication(id);
    if (!p) return;
    // rank, added (unix ms), listed, node, summary: tab-separated (JSON escapes its own tabs).
    const auto added_ms = unix_ms() - std::chrono::duration_cast<std::chrono::milliseconds>(loop_.turn_time() - p->added).count();
    state_.cluster->publish_room(id, std::to_string(p->status_rank) + '\t' + std::to_string(added_ms) + '\t' +
                                         (p->listed ? "1" : "0") + '\t' + state_.cluster->id() + '\t' + p->summary);
}

void shard::resume_in(const protocol::room_id& id, const play::client_ref& c, const play::player_record& p)
{
    run_on(shard_of(id, state_.shards.size()), [id, c, p](shard& s) {
        if (auto* r = s.find_room(id)) return r->resume(c, p);
        if (!s.state_.cluster) return;
        s.to_owner(c, id, {cluster::relay_record::kind::resume, s.state_.cluster->id(), {c.shard, c.slot, c.generation}, false,
                           id, player_json(p.info), {}}, nullptr);
    });
}

void shard::to_owner(const play::client_ref& from, const std::string& room, cluster::relay_record r, const nlohmann::json& req)
{
    std::string records;
    cluster::append(records, r);
    const bool answer = r.type == cluster::relay_record::kind::message;
    state_.cluster->to_owner(room, std::move(records), [this, from, req, answer](cluster::node::undelivered why) {
        if (!answer) return; // a detach that went nowhere: the room is gone already, or its node
        post([from, req, why](shard& s) {
            const auto code = why == cluster::node::undelivered::no_such_room ? protocol::error_code::no_such_room
                                                                                : protocol::error_code::unavailable;
            s.counters().error(code);
            s.send(from, net::make_frame(protocol::error_reply(code, protocol::default_message(code), req)));
        });
    });
}

void shard::remote_record(const cluster::relay_record& r)
{
    using kind = cluster::relay_record::kind;
    switch (r.type) {
    case kind::message: {
        const auto player = player_from_json(r.player);
        if (!player) return spdlog::warn("shard {}: a message from node {} without its player", index_, r.from_node);
        const play::player_record p{*player, {}};
        const auto from = remote_.ref_for(r.from_node, r.client, loop_.turn_time());
        auto parsed = protocol::parse_client_message(r.text);
        auto* message = std::get_if<protocol::parsed_message>(&parsed);
        auto* room_message = message ? std::get_if<protocol::room_message>(&message->message) : nullptr;
        if (!room_message) return spdlog::warn("shard {}: node {} relayed what is not a room message", index_, r.from_node);
        return room_request(find_room(room_message->room), from, p, *room_message, message->req, r.text);
    }
    case kind::detach: {
        const auto from = remote_.ref_for(r.from_node, r.client, loop_.turn_time());
        if (auto* room = find_room(r.place)) room->detach(from);
        remote_.left(from, loop_.turn_time());
        return;
    }
    case kind::frame:
        if (client* c = find_client({index_, r.client.slot, r.client.generation})) c->connection().send(net::make_frame(r.text));
        return;
    case kind::subscribed:
    case kind::unsubscribed: {
        const play::place where{r.tournament ? play::place::kind::tournament : play::place::kind::room, r.place};
        const play::client_ref ref{index_, r.client.slot, r.client.generation};
        if (r.type == kind::subscribed) client_subscribed(ref, where);
        else client_unsubscribed(ref, where);
        // The player's rooms on other nodes are theirs here too: a resume on hello finds them.
        if (client* c = find_client(ref); c && c->player() && !r.tournament) {
            if (r.type == kind::subscribed) players().add_room(c->player()->info.id, r.place);
            else players().remove_room(c->player()->info.id, r.place);
        }
        return;
    }
    case kind::resume: {
        const auto player = player_from_json(r.player);
        if (!player) return spdlog::warn("shard {}: a resume from node {} without its player", index_, r.from_node);
        const play::player_record p{*player, {}};
        const auto from = remote_.ref_for(r.from_node, r.client, loop_.turn_time());
        if (auto* room = find_room(r.place)) return room->resume(from, p);
        // Gone: the client's node forgets it.
        return relay(r.from_node, {kind::unsubscribed, {}, r.client, false, r.place, {}, {}});
    }
    case kind::gone: return; // the node's, not a shard's (app::relay_in)
    case kind::moved: {
        // Its clients here: those that were in it, and the players of it who came back to this
        // node before it moved (their hello found nothing to resume then).
        const play::place where{play::place::kind::room, r.place};
        for (auto& s : slots_) {
            if (!s.occupant || !s.occupant->player()) continue;
            const auto& player = *s.occupant->player();
            const auto rooms = s.occupant->in(where) ? std::vector<std::string>{} : players().rooms_of(player.info.id);
            if (s.occupant->in(where) || std::find(rooms.begin(), rooms.end(), r.place) != rooms.end())
                resume_in(r.place, s.occupant->ref(), player);
        }
        return;
    }
    }
}

} // namespace quarto::server::shards
