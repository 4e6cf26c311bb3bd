// A room: who is in it (seats and watchers) and what they are sent; the game is in room_game.cpp,
// the journal and the restore in room_journal.cpp, presence in room_presence.cpp, the computer
// in room_bot.cpp.
#include "play/room.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "play/random_ids.hpp"

namespace quarto::server::play {

using protocol::error_code;
using model::room_status;

room::room(room_host& host, model::room_id id, room_settings settings)
    : host_{host},
      id_{std::move(id)},
      settings_{std::move(settings)},
      deadline_{host.make_alarm([this] { on_deadline(); })},
      coin_{random_word()},
      last_activity_{host.now()},
      report_result_{settings_.tournament ? settings_.tournament->on_result : nullptr},
      journaled_{host.journaling()}
{
    host_.counters().room_status_changed(std::nullopt, status_);
    if (settings_.bot) bot_init();
}

lobby_listing room::listing() const
{
    return {id_,
            settings_.name,
            settings_.game_rules,
            settings_.clock,
            settings_.is_private,
            settings_.tournament ? settings_.tournament->tournament : std::string{},
            settings_.bot.has_value(),
            settings_.rated};
}

lobby_state room::lobby() const
{
    lobby_state state{status_, {}, static_cast<int>(spectators_.size())};
    for (seat s = 0; s < 2; ++s) {
        state.seats[s] = seats_[s];
        state.connected[s] = seats_[s] && (bot_in(s) || has_connection(seats_[s]->id));
    }
    return state;
}

void room::set_status(room_status s)
{
    host_.counters().room_status_changed(status_, s);
    status_ = s;
}

// ---- who is here ---------------------------------------------------------------------------

std::optional<seat> room::seat_of(const std::string& player_id) const
{
    for (seat s = 0; s < 2; ++s)
        if (seats_[s] && seats_[s]->id == player_id) return s;
    return std::nullopt;
}

bool room::spectating(const std::string& player_id) const
{
    return std::any_of(spectators_.begin(), spectators_.end(), [&](const auto& p) { return p.id == player_id; });
}

bool room::subscribed(const client_ref& c) const
{
    return std::any_of(subscribers_.begin(), subscribers_.end(), [&](const auto& s) { return s.client == c; });
}

bool room::has_connection(const std::string& player_id) const
{
    return std::any_of(subscribers_.begin(), subscribers_.end(), [&](const auto& s) { return s.player_id == player_id; });
}

void room::subscribe(const client_ref& c, const player_record& p)
{
    if (!subscribed(c)) {
        subscribers_.push_back({c, p.info.id});
        host_.subscribed(c, {place::kind::room, id_});
    }
    host_.players().add_room(p.info.id, id_);
    if (const auto s = seat_of(p.info.id)) {
        absent_at_start_[*s] = false;
        if (away_since_[*s]) { // back: the lobby may offer a waiting room again
            away_since_[*s].reset();
            lobby_changed();
        }
    }
}

void room::seat_creator(const client_ref& c, const player_record& p)
{
    journal_summary(); // the room's first entry
    seats_[0] = p.info;
    seat_rating(0, p);
    subscribe(c, p);
    publish(protocol::joined_event(next_stamp(), *seats_[0], false, seat{0}), change::take_seat{0, {*seats_[0], p.token_hash, rated_seat(0)}}, &c);
    if (bot_) seat_bot();
    lobby_changed();
}

void room::seat_pair(const player_record& first_seat, const player_record& second_seat)
{
    seats_[0] = first_seat.info;
    seats_[1] = second_seat.info;
    seat_rating(0, first_seat);
    seat_rating(1, second_seat);
    host_.players().add_room(first_seat.info.id, id_);
    host_.players().add_room(second_seat.info.id, id_);
    // Away until the tournament brings their connections; the computer is never away.
    for (seat s = 0; s < 2; ++s)
        if (!bot_in(s)) away_since_[s] = host_.now();
    start_game();
}

void room::forfeit(const std::string& player_id)
{
    const auto s = seat_of(player_id);
    if (closed_ || !s || status_ != room_status::playing) return;
    const instant now = host_.now();
    const auto t = game_time();
    if (game_->expire(now) == time_event::game_over) return game_finished(change::time_passed{*t});
    (void)game_->resign(*s, now);
    game_finished(change::act{{move_kind::resign, *s}, *t});
}

bool room::relink(const std::string& tournament, tournament_link::result_callback on_result)
{
    if (!settings_.tournament || settings_.tournament->tournament != tournament) return false;
    report_result_ = std::move(on_result);
    if (status_ == room_status::finished && game_ && game_->result())
        host_.defer([on_result = report_result_, r = *game_->result(), game_id = game_id_] { on_result(r, game_id); });
    return true;
}

// ---- client messages -----------------------------------------------------------------------

void room::handle(const client_ref& from, const player_record& p, const protocol::room_action& action, const json& req)
{
    if (closed_) return send_error(from, error_code::no_such_room, "That room has closed.", req);
    const auto* joining = std::get_if<protocol::join>(&action);
    const bool may_start_a_game = (joining && !joining->as_spectator) || std::holds_alternative<protocol::rematch>(action);
    if (may_start_a_game && host_.new_games_paused())
        return send_error(from, error_code::unavailable, new_games_paused_message, req);
    std::visit(
        [&](const auto& a) {
            using action_type = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<action_type, protocol::join>) {
                join(from, p, a.as_spectator, req);
            } else if constexpr (std::is_same_v<action_type, protocol::leave>) {
                leave(from, p, req);
            } else if constexpr (std::is_same_v<action_type, protocol::sync>) {
                sync(from, p, a.since, req);
            } else {
                const auto s = seat_of(p.info.id);
                if (!s) {
                    const auto code = spectating(p.info.id) ? error_code::not_a_player : error_code::not_in_room;
                    return send_error(from, code, protocol::default_message(code), req);
                }
                // A player acting through a connection the room does not know yet: on a cluster, a
                // move a node held while the room's node died, played by the node that took the
                // room over before the player's resume got there. The player sees its result.
                if (!subscribed(from)) resume(from, p);
                touch();
                if constexpr (std::is_same_v<action_type, protocol::rematch>) rematch(from, *s, req);
                else if constexpr (std::is_same_v<action_type, protocol::claim_victory>) claim_victory(from, *s, req);
                else act(&from, *s, action, req);
            }
        },
        action);
}

void room::join(const client_ref& c, const player_record& p, bool as_spectator, const json& req)
{
    touch();
    const std::string& id = p.info.id;
    if (seat_of(id) || (as_spectator && spectating(id))) { // already here: just the view
        if (seat_of(id) && !has_connection(id)) // back after being away
            publish(protocol::connection_event(next_stamp(), p.info, true), event_only(), &c);
        subscribe(c, p);
        return send_snapshot(c, id, req);
    }
    if (as_spectator) {
        spectators_.push_back(p.info);
        subscribe(c, p);
        publish(protocol::joined_event(next_stamp(), p.info, true, std::nullopt), event_only(), &c);
        send_snapshot(c, id, req);
        return lobby_changed();
    }
    // A tournament game's seats are its players', even once one has left: nobody else sits
    // down (a new game would start, with a tournament player's clock running).
    if (settings_.tournament)
        return send_error(c, error_code::room_full, "The seats of a tournament game are its players'; join as a spectator.", req);
    std::optional<seat> free;
    for (seat s = 0; s < 2 && !free; ++s)
        if (!seats_[s]) free = s;
    if (!free) return send_error(c, error_code::room_full, protocol::default_message(error_code::room_full), req);
    if (settings_.rated && !p.account)
        return send_error(c, error_code::not_allowed, "The seats of a rated room are for players with an account; watch as a spectator, or log in.", req);

    std::erase_if(spectators_, [&](const auto& w) { return w.id == id; });
    seats_[*free] = p.info;
    seat_rating(*free, p);
    subscribe(c, p);
    publish(protocol::joined_event(next_stamp(), *seats_[*free], false, free), change::take_seat{*free, {*seats_[*free], p.token_hash, rated_seat(*free)}}, &c);
    send_snapshot(c, id, req);
    if (seats_[0] && seats_[1] && status_ != room_status::playing) {
        start_game();
        announce_absent_at_start();
    }
    lobby_changed();
}

void room::leave(const client_ref& c, const player_record& p, const json& req)
{
    const std::string& id = p.info.id;
    const auto s = seat_of(id);
    const bool watcher = spectating(id);
    if (!s && !watcher) return send_error(c, error_code::not_in_room, protocol::default_message(error_code::not_in_room), req);
    touch();

    if (s && status_ == room_status::playing) { // leaving a game in progress resigns it
        const instant now = host_.now();
        const auto t = game_time();
        if (game_->expire(now) == time_event::game_over) game_finished(change::time_passed{*t});
        if (game_->resign(*s, now).ok()) game_finished(change::act{{move_kind::resign, *s}, *t});
    }
    if (s) publish(protocol::left_event(next_stamp(), p.info, watcher, s), change::leave_seat{*s});
    else publish(protocol::left_event(next_stamp(), p.info, watcher, s), event_only());
    if (s) vacate(*s);
    std::erase_if(spectators_, [&](const auto& w) { return w.id == id; });
    std::erase_if(subscribers_, [&](const subscriber& sub) {
        if (sub.player_id != id) return false;
        host_.unsubscribed(sub.client, {place::kind::room, id_});
        return true;
    });
    host_.players().remove_room(id, id_);
    lobby_changed();
}

void room::sync(const client_ref& c, const player_record& p, std::uint64_t since, const json& req)
{
    const std::string& id = p.info.id;
    if (!seat_of(id) && !spectating(id))
        return send_error(c, error_code::not_in_room, protocol::default_message(error_code::not_in_room), req);
    subscribe(c, p);
    const std::uint64_t kept = std::min<std::uint64_t>(seq_, ring_capacity);
    const std::uint64_t oldest_kept = std::max(seq_ - kept + 1, ring_start_);
    if (since + 1 < oldest_kept) {
        send_snapshot(c, id, nullptr);
    } else {
        for (std::uint64_t s = since + 1; s <= seq_; ++s) host_.send(c, recent_[s % ring_capacity]);
    }
    host_.send(c, net::make_frame(protocol::synced(id_, seq_, req)));
}

void room::resume(const client_ref& c, const player_record& p)
{
    if (closed_) return;
    const std::string& id = p.info.id;
    if (!seat_of(id)) { // a watcher who went away had left; come back as one
        if (!spectating(id)) {
            spectators_.push_back(p.info);
            publish(protocol::joined_event(next_stamp(), p.info, true, std::nullopt), event_only(), &c);
            lobby_changed();
        }
    } else if (!has_connection(id)) {
        publish(protocol::connection_event(next_stamp(), p.info, true), event_only(), &c);
    }
    subscribe(c, p);
    send_snapshot(c, id, nullptr);
}

void room::resend_snapshots(const std::function<bool(const client_ref&)>& to)
{
    for (const auto& s : subscribers_)
        if (to(s.client)) send_snapshot(s.client, s.player_id, nullptr);
}

void room::rename(const model::player_info& renamed)
{
    if (closed_) return;
    if (const auto s = seat_of(renamed.id)) {
        rename_seat(*s, renamed.name);
        publish(protocol::player_renamed_event(next_stamp(), renamed, *s), change::rename_seat{*s, renamed.name});
        lobby_changed();
        return;
    }
    const auto w = std::find_if(spectators_.begin(), spectators_.end(), [&](const auto& x) { return x.id == renamed.id; });
    if (w == spectators_.end()) return;
    w->name = renamed.name;
    publish(protocol::player_renamed_event(next_stamp(), renamed, std::nullopt), event_only());
}

void room::rename_seat(seat s, const std::string& name)
{
    seats_[s]->name = name;
    // The game in progress is archived with the names its players have at its end.
    if (status_ == room_status::playing && game_players_[s].id == seats_[s]->id) game_players_[s].name = name;
}

// ---- sending -------------------------------------------------------------------------------

void room::publish(net::frame_ptr event, const room_change& change, const client_ref* except)
{
    journal(change, event->payload());
    for (const auto& s : subscribers_) {
        if (except && s.client == *except) continue;
        // Players get each event at once; watchers' may wait to share a write with the next.
        if (seat_of(s.player_id)) host_.send(s.client, event);
        else host_.send_to_watcher(s.client, event);
    }
    recent_[seq_ % ring_capacity] = std::move(event);
}

void room::publish(std::string event, const room_change& change, const client_ref* except)
{
    publish(net::make_frame(event), change, except);
}

std::array<std::optional<model::seat_info>, 2> room::seat_view() const
{
    std::array<std::optional<model::seat_info>, 2> view;
    for (seat s = 0; s < 2; ++s)
        if (seats_[s])
            view[s] = model::seat_info{*seats_[s], bot_in(s) || has_connection(seats_[s]->id), claim_victory_in_ms(s)};
    return view;
}

protocol::room_view room::view(const std::array<std::optional<model::seat_info>, 2>& seats) const
{
    return {id_,
            seq_,
            settings_.name,
            settings_.game_rules,
            settings_.clock,
            status_,
            seats,
            static_cast<int>(spectators_.size()),
            game_ ? &*game_ : nullptr,
            host_.now(),
            game_id_,
            settings_.tournament ? std::string_view{settings_.tournament->tournament} : std::string_view{},
            &score_,
            settings_.rated};
}

void room::count_result()
{
    const auto winner = game_->result()->winner;
    if (winner) ++score_.wins[*winner];
    else ++score_.draws;
}

void room::send_snapshot(const client_ref& c, const std::string& player_id, const json& req)
{
    const auto seats = seat_view();
    host_.send(c, net::make_frame(protocol::room_snapshot(view(seats), seat_of(player_id), req)));
}

void room::refuse(const client_ref* c, error_code code, std::string_view message, const json& req)
{
    if (c) return send_error(*c, code, message, req);
    spdlog::error("room {}: the bot's action was refused: {} ({})", id_, protocol::to_string(code), message);
}

void room::send_error(const client_ref& c, error_code code, std::string_view message, const json& req)
{
    host_.counters().error(code);
    host_.send(c, net::make_frame(protocol::error_reply(code, message, req)));
}

void room::lobby_changed()
{
    lobby_state now = lobby();
    if (now == shown_) return;
    shown_ = std::move(now);
    host_.lobby_changed(id_, shown_);
}

} // namespace quarto::server::play
