// A tournament: opened, reopened after a restart, its people and their messages, registration
// and the director's controls, its subscribers, snapshots and storage. Its rounds and games are in
// tournament_rounds.cpp, the pause between rounds in round_pause.cpp.
#include "tournaments/tournament.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <spdlog/spdlog.h>

#include "quarto/core/tournament/round_robin.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "quarto/protocol/request_id.hpp"
#include "play/bot_moves.hpp"
#include "play/random_ids.hpp"
#include "quarto/core/solver/bot.hpp"
#include "tournaments/stored_document.hpp"

namespace quarto::server::tournaments {

using protocol::error_code;
using model::tournament_status;

tournament::tournament(tournament_host& host, model::tournament_record record, std::shared_ptr<tournament_views> views,
                       std::shared_ptr<void> quota)
    : host_{host},
      id_{record.id},
      record_{std::move(record)},
      views_{std::move(views)},
      start_timer_{host.make_alarm([this] { on_start_time(); })},
      round_timer_{host.make_alarm([this] { on_round_time(); })},
      coin_{play::random_word()},
      quota_{std::move(quota)}
{
    if (record_.status != tournament_status::registering && record_.settings.format == model::tournament_format::round_robin)
        schedule_ = scoring::round_robin_schedule(static_cast<int>(record_.players.size()));
    const auto standings_now = standings();
    snapshot_ = net::make_frame(protocol::tournament_snapshot(record_, seq_, standings_now, nullptr));
    views_->set(protocol::tournament_summary(record_), std::make_shared<const std::string>(std::string{snapshot_->payload()}));
}

void tournament::open(const play::client_ref& director_connection, const play::player_record& director)
{
    host_.players().add_tournament(director.info.id, id_);
    subscribe(director_connection, director.info.id);
    arm_start_timer();
    changed();
}

void tournament::link_people()
{
    for (const auto& entrant : record_.players) host_.players().add_tournament(entrant.id, id_);
    host_.players().add_tournament(record_.director, id_);
}

void tournament::reopen()
{
    const int lost = relink_unfinished_games();
    if (record_.status == tournament_status::running && lost > 0) {
        record_.status = tournament_status::paused;
        spdlog::info("tournament {}: restored paused in round {}: {} games in progress did not come back; the "
                     "director resumes it, and they are played again",
                     id_, record_.rounds.size(), lost);
    } else if (!record_.rounds.empty()) {
        spdlog::info("tournament {}: restored {} in round {}, its games in progress with it", id_,
                     model::to_string(record_.status), record_.rounds.size());
    }
    arm_start_timer();
    arm_round_timer(); // a round that waited before the restart starts at its time, or at once
    changed();
}

int tournament::relink_unfinished_games()
{
    // Every restored room of this tournament's: those of the games the record has in progress
    // are relinked; the others (games started in the instant before a crash, whose record was
    // not stored yet) wait to be claimed by the pairing that starts them again.
    for (play::room* r : host_.rooms_of_tournament(id_)) unclaimed_rooms_.push_back(r->id());
    if (record_.rounds.empty()) return 0;
    int lost = 0;
    for (const auto& p : record_.rounds.back().pairings) {
        if (!p.second || p.games.empty() || p.games.back().finished) continue;
        const std::string& room_id = p.games.back().room;
        std::erase(unclaimed_rooms_, room_id);
        play::room* r = host_.find_room(room_id);
        if (!r || !r->relink(id_, result_callback(room_id))) ++lost;
    }
    return lost;
}

play::room* tournament::claim_restored_room(const std::string& first_player, const std::string& second_player)
{
    for (auto it = unclaimed_rooms_.begin(); it != unclaimed_rooms_.end(); ++it) {
        play::room* r = host_.find_room(*it);
        if (!r) continue;
        const auto seats = r->lobby().seats;
        if (!seats[0] || !seats[1] || seats[0]->id != first_player || seats[1]->id != second_player) continue;
        unclaimed_rooms_.erase(it);
        return r;
    }
    return nullptr;
}

play::tournament_link::result_callback tournament::result_callback(const model::room_id& room)
{
    // The room lives on this shard, as the tournament does, and the tournament outlives it.
    return [this, room](const game_result& r, const std::string& game_id) { on_game_over(room, r, game_id); };
}

void tournament::handle(const play::client_ref& c, const play::player_record& p, const protocol::tournament_action& action,
                        const json& req)
{
    std::visit(
        [&](const auto& m) {
            using action_type = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<action_type, protocol::join_tournament>) join(c, p, req);
            else if constexpr (std::is_same_v<action_type, protocol::withdraw_tournament>) withdraw(c, p, req);
            else if constexpr (std::is_same_v<action_type, protocol::watch_tournament>) {
                subscribe(c, index_of(p.info.id) >= 0 || p.info.id == record_.director ? p.info.id : std::string{});
                send_snapshot(c, req);
            } else if constexpr (std::is_same_v<action_type, protocol::unwatch_tournament>) {
                unsubscribe(c);
            } else { // the director's
                if (p.info.id != record_.director)
                    return send_error(c, error_code::not_director, protocol::default_message(error_code::not_director), req);
                subscribe(c, p.info.id);
                if constexpr (std::is_same_v<action_type, protocol::start_tournament>) start(c, req);
                else if constexpr (std::is_same_v<action_type, protocol::pause_tournament>) pause(c, req);
                else if constexpr (std::is_same_v<action_type, protocol::resume_tournament>) resume(c, req);
                else if constexpr (std::is_same_v<action_type, protocol::remove_player>) remove(c, m.player, req);
                else if constexpr (std::is_same_v<action_type, protocol::add_bot>) add_bot(c, m.opponent, req);
            }
        },
        action);
}

void tournament::rename(const model::player_info& renamed)
{
    bool known = false;
    if (record_.director == renamed.id) {
        record_.director_name = renamed.name;
        known = true;
    }
    for (auto& entrant : record_.players)
        if (entrant.id == renamed.id) {
            entrant.name = renamed.name;
            known = true;
        }
    if (known) changed();
}

void tournament::resubscribe(const play::client_ref& c, const play::player_record& p)
{
    subscribe(c, p.info.id);
    send_snapshot(c, nullptr);
}

std::vector<std::string> tournament::people() const
{
    std::vector<std::string> out{record_.director};
    for (const auto& entrant : record_.players)
        if (entrant.id != record_.director) out.push_back(entrant.id);
    return out;
}

void tournament::resend_snapshots(const std::function<bool(const play::client_ref&)>& to)
{
    for (const auto& s : subscribers_)
        if (to(s.client)) host_.send(s.client, snapshot_);
}

void tournament::detach(const play::client_ref& c)
{
    std::erase_if(subscribers_, [&](const subscriber& s) { return s.client == c; });
}

bool tournament::close_if_deserted(std::chrono::milliseconds after)
{
    // The computer is nobody: a tournament with only it keeps nobody waiting.
    const bool nobody_registered = std::none_of(record_.players.begin(), record_.players.end(),
                                                [](const auto& p) { return p.active && !p.bot; });
    const bool director_here = std::any_of(subscribers_.begin(), subscribers_.end(),
                                           [&](const subscriber& s) { return s.player_id == record_.director; });
    if (record_.status != tournament_status::registering || !nobody_registered || director_here) {
        deserted_since_.reset();
        return false;
    }
    const instant now = host_.now();
    if (!deserted_since_) deserted_since_ = now;
    if (now - *deserted_since_ < after) return false;

    start_timer_->cancel();
    const auto closing = net::make_frame(protocol::tournament_closed(id_));
    for (const auto& s : subscribers_) {
        host_.send(s.client, closing);
        host_.unsubscribed(s.client, {play::place::kind::tournament, id_});
    }
    subscribers_.clear();
    host_.players().remove_tournament(record_.director, id_);
    for (const auto& p : record_.players) host_.players().remove_tournament(p.id, id_);
    spdlog::info("tournament {}: closed: nobody registered, and its director left", id_);
    return true;
}

// ---- registration and the director's controls ---------------------------------------------

void tournament::join(const play::client_ref& c, const play::player_record& p, const json& req)
{
    const std::string& id = p.info.id;
    if (index_of(id) >= 0) { // already registered: just the view
        subscribe(c, id);
        return send_snapshot(c, req);
    }
    if (record_.status != tournament_status::registering)
        return send_error(c, error_code::registration_closed, protocol::default_message(error_code::registration_closed), req);
    if (static_cast<int>(record_.players.size()) >= record_.settings.max_players)
        return send_error(c, error_code::tournament_full, protocol::default_message(error_code::tournament_full), req);
    if (record_.settings.rated && !p.account)
        return send_error(c, error_code::not_allowed, "A rated tournament is for players with an account; log in to play in it.", req);
    // A player whose connection closed while this join was on its way may be forgotten already:
    // registering them would seat a player nobody can resume as.
    if (!host_.players().add_tournament(id, id_)) return;
    record_.players.push_back({id, p.info.name, true, {}, play::shown_rating_of(p, record_.settings.game_rules)});
    subscribe(c, id);
    spdlog::info("tournament {}: {} ({}) registered", id_, id, p.info.name);
    changed(&c, req);
}

void tournament::add_bot(const play::client_ref& c, const model::bot_opponent& opponent, const json& req)
{
    if (record_.status != tournament_status::registering)
        return send_error(c, error_code::registration_closed, protocol::default_message(error_code::registration_closed), req);
    if (record_.settings.rated)
        return send_error(c, error_code::not_allowed, "Games against the computer are not rated: a rated tournament has none.", req);
    // One at most: two would meet in a room with nobody to play in it.
    if (std::any_of(record_.players.begin(), record_.players.end(), [](const auto& p) { return p.bot.has_value(); }))
        return send_error(c, error_code::bot_already_registered,
                          protocol::default_message(error_code::bot_already_registered), req);
    if (static_cast<int>(record_.players.size()) >= record_.settings.max_players)
        return send_error(c, error_code::tournament_full, protocol::default_message(error_code::tournament_full), req);
    // The id and name the room's computer takes (room_bot.cpp): it is known by them in the room.
    record_.players.push_back({play::bot_player_id(opponent.level), solver::bot_name(opponent.level), true, opponent});
    spdlog::info("tournament {}: the director entered the computer, level {}", id_, opponent.level);
    changed(&c, req);
}

void tournament::withdraw(const play::client_ref& c, const play::player_record& p, const json& req)
{
    const int index = index_of(p.info.id);
    if (index < 0)
        return send_error(c, error_code::not_registered, "You are not registered in this tournament.", req);
    if (record_.status != tournament_status::registering)
        return send_error(c, error_code::registration_closed,
                          "The tournament has started; only the director can take a player out now.", req);
    record_.players.erase(record_.players.begin() + index);
    if (p.info.id != record_.director) host_.players().remove_tournament(p.info.id, id_);
    spdlog::info("tournament {}: {} withdrew", id_, p.info.id);
    changed(&c, req);
}

void tournament::start(const play::client_ref& c, const json& req)
{
    if (record_.status != tournament_status::registering)
        return send_error(c, error_code::wrong_status, "The tournament has already started.", req);
    if (record_.players.size() < model::min_tournament_players)
        return send_error(c, error_code::not_enough_players, protocol::default_message(error_code::not_enough_players), req);
    begin();
    changed(&c, req);
}

void tournament::pause(const play::client_ref& c, const json& req)
{
    if (record_.status != tournament_status::running)
        return send_error(c, error_code::wrong_status, "Only a running tournament can be paused.", req);
    record_.status = tournament_status::paused; // the games in play finish; the next round waits
    round_timer_->cancel();
    spdlog::info("tournament {}: paused in round {}", id_, record_.rounds.size());
    changed(&c, req);
}

void tournament::resume(const play::client_ref& c, const json& req)
{
    if (record_.status != tournament_status::paused)
        return send_error(c, error_code::wrong_status, "Only a paused tournament can be resumed.", req);
    record_.status = tournament_status::running;
    spdlog::info("tournament {}: resumed", id_);
    replay_unfinished_games();
    // Players who waited on the director get the whole pause again, as after any round.
    if (round_waiting()) schedule_round();
    advance();
    changed(&c, req);
}

void tournament::remove(const play::client_ref& c, const std::string& player_id, const json& req)
{
    const int index = index_of(player_id);
    if (index < 0 || !record_.players[static_cast<std::size_t>(index)].active)
        return send_error(c, error_code::not_registered, protocol::default_message(error_code::not_registered), req);
    if (record_.status == tournament_status::registering) {
        record_.players.erase(record_.players.begin() + index);
    } else {
        record_.players[static_cast<std::size_t>(index)].active = false;
        forfeit_games_of(index);
    }
    if (player_id != record_.director) host_.players().remove_tournament(player_id, id_);
    spdlog::info("tournament {}: the director removed {}", id_, player_id);
    if (record_.status == tournament_status::running) advance();
    changed(&c, req);
}

// ---- subscribers, snapshots, storage ------------------------------------------------------

void tournament::subscribe(const play::client_ref& c, const std::string& player_id)
{
    for (auto& s : subscribers_) {
        if (s.client != c) continue;
        if (s.player_id.empty()) s.player_id = player_id;
        return;
    }
    subscribers_.push_back({c, player_id});
    host_.subscribed(c, {play::place::kind::tournament, id_});
}

void tournament::unsubscribe(const play::client_ref& c)
{
    std::erase_if(subscribers_, [&](const subscriber& s) {
        if (s.client != c) return false;
        host_.unsubscribed(c, {play::place::kind::tournament, id_});
        return true;
    });
}

void tournament::changed(const play::client_ref* requester, const json& req)
{
    ++seq_;
    const auto table = standings();
    std::string snapshot = protocol::tournament_snapshot(record_, seq_, table, nullptr);
    snapshot_ = net::make_frame(snapshot);
    views_->set(protocol::tournament_summary(record_), std::make_shared<const std::string>(std::string{snapshot_->payload()}));
    std::optional<std::pair<play::client_ref, net::frame_ptr>> answer;
    if (requester && !req.is_null()) answer.emplace(*requester, net::make_frame(protocol::with_req(std::move(snapshot), req)));
    // Announced once stored: a registration or a result that anyone has been told of survives a
    // crash. Sent to whoever is subscribed by then (one who subscribed meanwhile has had it).
    persist([this, frame = snapshot_, answer = std::move(answer), notices = std::exchange(notices_, {})] {
        for (const auto& [player_id, notice] : notices)
            for (const auto& s : subscribers_)
                if (s.player_id == player_id) host_.send(s.client, notice);
        for (const auto& s : subscribers_)
            if (!answer || s.client != answer->first) host_.send(s.client, frame);
        if (answer) host_.send(answer->first, answer->second);
    });
}

void tournament::send_snapshot(const play::client_ref& c, const json& req)
{
    if (req.is_null()) return host_.send(c, snapshot_);
    host_.send(c, net::make_frame(protocol::with_req(std::string{snapshot_->payload()}, req)));
}

void tournament::send_error(const play::client_ref& c, error_code code, std::string_view message, const json& req)
{
    host_.counters().error(code);
    host_.send(c, net::make_frame(protocol::error_reply(code, message, req)));
}

// The record and its people's token hashes: after a restart they can resume as themselves.
void tournament::persist(std::function<void()> stored)
{
    std::vector<play::player_record> people;
    const auto add = [&](const std::string& player_id) {
        if (const auto p = host_.players().find_by_id(player_id)) people.push_back(*p);
    };
    add(record_.director);
    for (const auto& entrant : record_.players)
        if (entrant.id != record_.director) add(entrant.id);
    host_.store(id_, record_.settings.name, std::string{model::to_string(record_.status)},
                write_stored_document(record_, people), std::move(stored));
}

void tournament::arm_start_timer()
{
    if (record_.status != tournament_status::registering || !record_.settings.start_at_ms) return;
    // Clamped: a stored time from before the limit on start_at_ms must not overflow the timer.
    const auto wait = std::clamp<std::int64_t>(*record_.settings.start_at_ms - host_.unix_ms(), 0,
                                               model::max_tournament_start_ahead_ms);
    start_timer_->set(host_.now() + milliseconds{wait});
}

void tournament::on_start_time()
{
    if (record_.status != tournament_status::registering) return;
    if (record_.players.size() < model::min_tournament_players) {
        spdlog::info("tournament {}: start time reached with fewer than 2 players; waiting for the director", id_);
        return;
    }
    begin();
    changed();
}

} // namespace quarto::server::tournaments
