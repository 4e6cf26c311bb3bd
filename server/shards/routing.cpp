// Where a client's message for a room or a tournament goes, in one place. The client's shard
// sends it to the shard that holds the place (the place's id hashes to it): handled there at
// once when that is this shard; otherwise the client moves there first, when it is in nothing
// else (so a game's players share their room's loop), or the message is forwarded. On the
// holding shard it reaches the room or tournament, or, on a node of a cluster, the node that
// holds it; otherwise no_such_room or no_such_tournament.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "quarto/protocol/encode.hpp"
#include "shards/client.hpp"
#include "shards/player_json.hpp"
#include "shards/shard.hpp"

namespace quarto::server::shards {

using protocol::error_code;

// ---- on the client's shard -----------------------------------------------------------------

void client::on_room(const protocol::room_message& m, const json& req, std::string_view text)
{
    if (std::holds_alternative<protocol::join>(m.action) && !may_enter_room(m.room, req)) return;
    const auto owner = home_.state().shard_of_room(m.room);
    if (owner == home_.index()) return home_.room_request(local_room(m.room), self_, *player_, m, req, text);
    const bool subscribing = std::holds_alternative<protocol::join>(m.action) || std::holds_alternative<protocol::sync>(m.action);
    if (subscribing && places_.empty() && resume_marks_left_ == 0 && home_.state().settings.shard_migration)
        return move_to(owner, text, false);
    home_.forward(owner, [ref = self_, player = player_, m, req, text = std::string{text}](shard& s) {
        s.room_request(s.find_room(m.room), ref, *player, m, req, text);
    });
}

play::room* client::local_room(const model::room_id& id)
{
    // The room of the client's last message, again: kept while the shard has dropped no room.
    if (cached_room_ && cached_epoch_ == home_.rooms_epoch() && cached_room_->id() == id) return cached_room_;
    cached_room_ = home_.find_room(id);
    cached_epoch_ = home_.rooms_epoch();
    return cached_room_;
}

void client::on_tournament(const protocol::tournament_message& m, const json& req, std::string_view text)
{
    if (std::holds_alternative<protocol::join_tournament>(m.action)) {
        const auto mine = home_.players().tournaments_of(player_->info.id);
        if (mine.size() >= home_.state().settings.max_rooms_per_player &&
            std::find(mine.begin(), mine.end(), m.tournament) == mine.end())
            return reply_error(error_code::too_many_tournaments,
                               "You are in as many tournaments as one player may be; withdraw from one first.", req);
    }
    const auto owner = home_.state().shard_of_tournament(m.tournament);
    if (owner == home_.index()) return home_.tournament_request(home_.find_tournament(m.tournament), self_, *player_, m, req, text);
    const bool subscribing = std::holds_alternative<protocol::join_tournament>(m.action) ||
                             std::holds_alternative<protocol::watch_tournament>(m.action);
    if (subscribing && places_.empty() && resume_marks_left_ == 0 && home_.state().settings.shard_migration)
        return move_to(owner, text, false);
    home_.forward(owner, [ref = self_, player = player_, m, req, text = std::string{text}](shard& s) {
        s.tournament_request(s.find_tournament(m.tournament), ref, *player, m, req, text);
    });
}

// ---- on the place's shard ------------------------------------------------------------------

void shard::room_request(play::room* r, const play::client_ref& from, const play::player_record& p,
                         const protocol::room_message& m, const nlohmann::json& req, std::string_view text, bool ask_cluster)
{
    if (!r && state_.cluster && !is_remote(from) && ask_cluster) {
        spdlog::debug("room {}: not on shard {} for a client's message: asking Redis where it is", m.room, index_);
        cluster::relay_record record{cluster::relay_record::kind::message, state_.cluster->id(),
                                     {from.shard, from.slot, from.generation}, false, m.room, player_json(p),
                                     std::string{text}};
        return to_owner(from, {play::place::kind::room, m.room}, std::move(record), req);
    }
    if (!r) {
        counters_.error(protocol::error_code::no_such_room);
        return send(from, net::make_frame(protocol::error_reply(
                              protocol::error_code::no_such_room,
                              protocol::default_message(protocol::error_code::no_such_room), req)));
    }
    const auto started = std::chrono::steady_clock::now();
    r->handle(from, p, m.action, req);
    counters_.room_handling.record(std::chrono::steady_clock::now() - started);
}

void shard::tournament_request(tournaments::tournament* t, const play::client_ref& from, const play::player_record& p,
                               const protocol::tournament_message& m, const nlohmann::json& req, std::string_view text,
                               bool ask_cluster)
{
    if (t) return t->handle(from, p, m.action, req);
    if (state_.cluster && !is_remote(from) && ask_cluster)
        return to_owner(from, {play::place::kind::tournament, m.tournament},
                        {cluster::relay_record::kind::message, state_.cluster->id(), {from.shard, from.slot, from.generation},
                         true, m.tournament, player_json(p), std::string{text}},
                        req);
    counters_.error(protocol::error_code::no_such_tournament);
    send(from, net::make_frame(protocol::error_reply(protocol::error_code::no_such_tournament,
                                                     protocol::default_message(protocol::error_code::no_such_tournament), req)));
}

} // namespace quarto::server::shards
