// The shard's part in a cluster (--redis): what its rooms send to clients of other nodes, and
// what other nodes send its rooms and clients (cluster/relay_record.hpp).
#include "shards/shard.hpp"

#include <cstdlib>

#include <spdlog/spdlog.h>

#include "quarto/protocol/encode.hpp"
#include "shards/client.hpp"
#include "shards/player_json.hpp"

namespace quarto::server::shards {

namespace {

// A player of another node, as this node's registry is to know them: rooms and tournaments
// record their players there (a `back` finds their places by it), and a tournament stores its
// players' token hashes.
std::shared_ptr<const play::player_record> known_player(play::player_registry& players, const play::player_record& p)
{
    if (p.token_hash.empty()) return std::make_shared<const play::player_record>(p);
    return players.restore(p);
}

} // namespace

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

void shard::publish_lobby(const model::room_id& id)
{
    if (!state_.cluster) return;
    const auto p = lobby_.publication(id);
    if (!p) return;
    // rank, added (unix ms), listed, node, summary: tab-separated (JSON escapes its own tabs).
    const auto added_ms = unix_ms() - std::chrono::duration_cast<std::chrono::milliseconds>(loop_.turn_time() - p->added).count();
    state_.cluster->publish_listing(place_kind::room, id,
                                    std::to_string(p->status_rank) + '\t' + std::to_string(added_ms) + '\t' +
                                        (p->listed ? "1" : "0") + '\t' + state_.cluster->id() + '\t' + p->summary);
}

void shard::publish_tournament(const model::tournament_id& id)
{
    if (!state_.cluster) return;
    auto p = state_.tournaments.publication(id);
    if (!p) return;
    // created (unix ms), node, summary: tab-separated (app::other_nodes_tournaments reads it).
    state_.cluster->publish_listing(place_kind::tournament, id,
                                    std::to_string(p->created_ms) + '\t' + state_.cluster->id() + '\t' + p->summary);
    state_.cluster->publish_view(id, std::move(p->snapshot));
}

void shard::announce_moved(const play::place& where, const std::vector<std::string>& people)
{
    std::string moved;
    cluster::append(moved, {cluster::relay_record::kind::moved, state_.cluster->id(), {}, where.what == play::place::kind::tournament,
                            where.id, nlohmann::json(people).dump(), {}});
    state_.cluster->to_all(std::move(moved));
}

void shard::resume_in(const model::room_id& id, const play::client_ref& c, const play::player_record& p, bool ask_owner)
{
    run_on(state_.shard_of_room(id), [id, c, p, ask_owner](shard& s) {
        if (auto* r = s.find_room(id)) return r->resume(c, p);
        if (s.state_.cluster && ask_owner) s.ask_owner_to_resume({play::place::kind::room, id}, c, p);
    });
}

void shard::resume_tournament_in(const model::tournament_id& id, const play::client_ref& c, const play::player_record& p,
                                 bool ask_owner)
{
    run_on(state_.shard_of_tournament(id), [id, c, p, ask_owner](shard& s) {
        if (auto* t = s.find_tournament(id)) return t->resubscribe(c, p);
        if (s.state_.cluster && ask_owner) s.ask_owner_to_resume({play::place::kind::tournament, id}, c, p);
    });
}

void shard::ask_owner_to_resume(const play::place& where, const play::client_ref& c, const play::player_record& p)
{
    to_owner(c, where,
             {cluster::relay_record::kind::resume, state_.cluster->id(), {c.shard, c.slot, c.generation},
              where.what == play::place::kind::tournament, where.id, player_json(p), {}},
             nullptr);
}

void shard::resync_across_nodes()
{
    for (auto& [id, r] : rooms_) r->resend_snapshots(is_remote);
    for (auto& [id, t] : tournaments_) t->resend_snapshots(is_remote);
    for (auto& s : slots_) {
        if (!s.occupant || !s.occupant->player()) continue;
        for (const auto& where : s.occupant->places())
            run_on(state_.shard_of_place(where), [where, c = s.occupant->ref(), p = *s.occupant->player()](shard& x) {
                const bool here = where.what == play::place::kind::room ? x.find_room(where.id) != nullptr
                                                                        : x.find_tournament(where.id) != nullptr;
                if (!here) x.ask_owner_to_resume(where, c, p); // nothing was lost inside this node
            });
    }
}

void shard::announce_back(const play::client_ref& c, const play::player_record& p)
{
    std::string back;
    cluster::append(back, {cluster::relay_record::kind::back, state_.cluster->id(), {c.shard, c.slot, c.generation}, false, {},
                           player_json(p), {}});
    state_.cluster->to_all(std::move(back));
}

void shard::to_owner(const play::client_ref& from, const play::place& where, cluster::relay_record r, const nlohmann::json& req)
{
    std::string records;
    cluster::append(records, r);
    const bool answer = r.type == cluster::relay_record::kind::message;
    const bool tournament = where.what == play::place::kind::tournament;
    std::string player = answer ? r.player : std::string{};
    std::string text = answer ? r.text : std::string{};
    state_.cluster->to_owner(tournament ? place_kind::tournament : place_kind::room, where.id, std::move(records),
                             [this, from, req, answer, tournament, where, player = std::move(player),
                              text = std::move(text)](cluster::node::undelivered why) {
        if (!answer) return; // a detach that went nowhere: the place is gone already, or its node
        if (why == cluster::node::undelivered::here)
            return post([from, req, where, player, text](shard& s) { s.handle_here(from, where, player, text, req); });
        post([from, req, why, tournament](shard& s) {
            const auto code = why == cluster::node::undelivered::unavailable ? protocol::error_code::unavailable
                              : tournament                                   ? protocol::error_code::no_such_tournament
                                                                             : protocol::error_code::no_such_room;
            s.counters().error(code);
            s.send(from, net::make_frame(protocol::error_reply(code, protocol::default_message(code), req)));
        });
    });
}

void shard::handle_here(const play::client_ref& from, const play::place& where, const std::string& player,
                        const std::string& text, const nlohmann::json& req)
{
    const bool tournament = where.what == play::place::kind::tournament;
    const auto holder = tournament ? state_.shard_of_tournament(where.id) : state_.shard_of_room(where.id);
    auto handle = [from, player, text, req](shard& s) {
        const auto p = player_from_json(player);
        auto parsed = protocol::parse_client_message(text);
        const auto* message = std::get_if<protocol::parsed_message>(&parsed);
        if (!p || !message) return spdlog::warn("shard {}: a message to handle here could not be read again", s.index_);
        if (const auto* m = std::get_if<protocol::room_message>(&message->message))
            return s.room_request(s.find_room(m->room), from, *p, *m, req, text, /*ask_cluster=*/false);
        if (const auto* m = std::get_if<protocol::tournament_message>(&message->message))
            return s.tournament_request(s.find_tournament(m->tournament), from, *p, *m, req, text, /*ask_cluster=*/false);
    };
    if (holder == index_) return handle(*this);
    forward(holder, std::move(handle));
}

void shard::remote_record(const cluster::relay_record& r)
{
    using kind = cluster::relay_record::kind;
    switch (r.type) {
    case kind::message: {
        const auto player = player_from_json(r.player);
        if (!player) return spdlog::warn("shard {}: a message from node {} without its player", index_, r.from_node);
        const auto from = remote_.ref_for(r.from_node, r.client, loop_.turn_time());
        auto parsed = protocol::parse_client_message(r.text);
        auto* message = std::get_if<protocol::parsed_message>(&parsed);
        // Not here (any more): the sender's node asked before this node's rooms were taken over
        // by another, or before a new process of this node started: on to the owner Redis names
        // (which answers no such room when that is this node).
        if (auto* m = message ? std::get_if<protocol::room_message>(&message->message) : nullptr) {
            if (std::holds_alternative<protocol::join>(m->action)) known_player(players(), *player);
            auto* room = find_room(m->room);
            if (!room) return to_owner(from, {play::place::kind::room, m->room}, r, message->req);
            return room_request(room, from, *player, *m, message->req, r.text);
        }
        if (auto* m = message ? std::get_if<protocol::tournament_message>(&message->message) : nullptr) {
            auto* t = find_tournament(m->tournament);
            if (!t) return to_owner(from, {play::place::kind::tournament, m->tournament}, r, message->req);
            return tournament_request(t, from, *known_player(players(), *player), *m, message->req, r.text);
        }
        return spdlog::warn("shard {}: node {} relayed what is neither a room's nor a tournament's message", index_, r.from_node);
    }
    case kind::detach: {
        const auto from = remote_.ref_for(r.from_node, r.client, loop_.turn_time());
        if (r.tournament) {
            if (auto* t = find_tournament(r.place)) t->detach(from);
        } else if (auto* room = find_room(r.place)) {
            room->detach(from);
        }
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
        // The player's rooms and tournaments on other nodes are theirs here too: a resume on
        // hello finds them.
        if (client* c = find_client(ref); c && c->player()) {
            const auto& id = c->player()->info.id;
            if (r.tournament && r.type == kind::subscribed) players().add_tournament(id, r.place);
            else if (r.tournament) players().remove_tournament(id, r.place);
            else if (r.type == kind::subscribed) players().add_room(id, r.place);
            else players().remove_room(id, r.place);
        }
        return;
    }
    case kind::resume: {
        const auto player = player_from_json(r.player);
        if (!player) return spdlog::warn("shard {}: a resume from node {} without its player", index_, r.from_node);
        const auto from = remote_.ref_for(r.from_node, r.client, loop_.turn_time());
        if (r.tournament) {
            if (auto* t = find_tournament(r.place)) return t->resubscribe(from, *known_player(players(), *player));
        } else if (auto* room = find_room(r.place)) {
            return room->resume(from, *player);
        }
        // Gone: the client's node forgets it.
        return relay(r.from_node, {kind::unsubscribed, {}, r.client, r.tournament, r.place, {}, {}});
    }
    case kind::gone:
    case kind::renamed: return; // the node's, not a shard's (app::relay_in)
    case kind::back: { // one of the player's places here (app::relay_in found it in the registry)
        const auto player = player_from_json(r.player);
        if (!player) return spdlog::warn("shard {}: a `back` from node {} without its player", index_, r.from_node);
        if (r.tournament) {
            if (auto* t = find_tournament(r.place)) t->resubscribe(remote_.ref_for(r.from_node, r.client, loop_.turn_time()), *player);
        } else if (auto* room = find_room(r.place)) {
            room->resume(remote_.ref_for(r.from_node, r.client, loop_.turn_time()), *player);
        }
        return;
    }
    case kind::moved: {
        // Its clients here: those that were in it, and its people who came back to any node
        // before it moved (their hello found it nowhere then).
        const play::place where{r.tournament ? play::place::kind::tournament : play::place::kind::room, r.place};
        const auto listed = nlohmann::json::parse(r.player, nullptr, false);
        const auto people = listed.is_array() ? listed : nlohmann::json::array();
        for (auto& s : slots_) {
            if (!s.occupant || !s.occupant->player()) continue;
            const auto& player = *s.occupant->player();
            bool in = s.occupant->in(where) || std::find(people.begin(), people.end(), player.info.id) != people.end();
            if (!in) {
                const auto places = r.tournament ? players().tournaments_of(player.info.id) : players().rooms_of(player.info.id);
                in = std::find(places.begin(), places.end(), r.place) != places.end();
            }
            if (!in) continue;
            if (r.tournament) resume_tournament_in(r.place, s.occupant->ref(), player);
            else resume_in(r.place, s.occupant->ref(), player);
        }
        return;
    }
    }
}

} // namespace quarto::server::shards
