#include "play/room.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "play/random_ids.hpp"
#include "quarto/protocol/game_events.hpp"

namespace quarto::server::play {

using protocol::error_code;
using protocol::room_status;

namespace {

std::string_view claim_problem_message(claim_problem p)
{
    switch (p) {
    case claim_problem::not_a_pattern: return "Those 4 squares do not form a line.";
    case claim_problem::not_full: return "Some of those squares are empty.";
    case claim_problem::no_shared_attribute: return "Those 4 pieces share no attribute.";
    case claim_problem::misses_placement: return "That line does not include the last piece placed.";
    case claim_problem::too_late: return "Too late: the chance to call that Quarto has passed.";
    case claim_problem::none: break;
    }
    return protocol::default_message(error_code::invalid_claim);
}

// The event of an accepted action, written into a pooled frame; null for the actions whose
// only event is game_over (a call, a resignation).
template <class Write>
net::frame_ptr event_frame(Write write)
{
    net::frame_ptr f = net::make_frame();
    write(f->text());
    f->seal();
    return f;
}

} // namespace

room::room(room_host& host, protocol::room_id id, room_settings settings)
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
            settings_.bot.has_value()};
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
    subscribe(c, p);
    publish(protocol::joined_event(next_stamp(), p.info, false, seat{0}), change::take_seat{0, {p.info, p.token_hash}}, &c);
    if (bot_) seat_bot();
    lobby_changed();
}

void room::seat_pair(const player_record& first_seat, const player_record& second_seat)
{
    seats_[0] = first_seat.info;
    seats_[1] = second_seat.info;
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

    std::erase_if(spectators_, [&](const auto& w) { return w.id == id; });
    seats_[*free] = p.info;
    subscribe(c, p);
    publish(protocol::joined_event(next_stamp(), p.info, false, free), change::take_seat{*free, {p.info, p.token_hash}}, &c);
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

void room::rename(const protocol::player_info& renamed)
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

// ---- the game ------------------------------------------------------------------------------

void room::rematch(const client_ref& c, seat s, const json& req)
{
    if (settings_.tournament)
        return send_error(c, error_code::wrong_phase, "Tournament games have no rematch; the tournament pairs the next game.", req);
    if (status_ != room_status::finished)
        return send_error(c, error_code::wrong_phase, "A rematch can be asked for once the game is over.", req);
    if (!rematch_wanted_[s]) {
        rematch_wanted_[s] = true;
        publish(event_frame([&](std::string& out) { protocol::rematch_requested_event(out, next_stamp(), s); }),
                change::rematch{s});
    }
    if (bot_) bot_accepts_rematch();
    if (rematch_wanted_[0] && rematch_wanted_[1] && seats_[0] && seats_[1]) start_game();
}

bool room::act(const client_ref* c, seat s, const protocol::room_action& action, const json& req)
{
    if (status_ != room_status::playing) {
        refuse(c, error_code::wrong_phase,
               status_ == room_status::waiting ? "The game has not started yet." : "The game is over.", req);
        return false;
    }

    const instant now = host_.now();
    const std::int64_t t = *game_time();
    if (game_->expire(now) == time_event::game_over) { // a deadline passed before the timer fired
        game_finished(change::time_passed{t});
        refuse(c, error_code::wrong_phase, "The game is over.", req);
        return false;
    }

    game& g = *game_;
    const outcome result = std::visit(
        [&](const auto& a) -> outcome {
            using action_type = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<action_type, protocol::give>) return g.give(s, a.what, now);
            else if constexpr (std::is_same_v<action_type, protocol::place>) return g.place(s, a.where, now);
            else if constexpr (std::is_same_v<action_type, protocol::call_quarto>) return g.call_quarto(s, a.line, now);
            else if constexpr (std::is_same_v<action_type, protocol::pass>) return g.pass(s, now);
            else if constexpr (std::is_same_v<action_type, protocol::resign>) return g.resign(s, now);
            else return outcome::failure(action_error::wrong_phase);
        },
        action);

    if (!result) {
        const error_code code = protocol::from_action_error(result.error());
        const std::string_view text = result.error() == action_error::invalid_claim ? claim_problem_message(result.problem())
                                                                                    : protocol::default_message(code);
        refuse(c, code, text, req);
        return false;
    }

    const move_record& accepted = g.moves().back();
    const change::act done{{accepted.kind, accepted.by, accepted.value, accepted.line}, t};
    bool announced = true; // calls and resignations have no event but game_over
    if (const auto* give = std::get_if<protocol::give>(&action)) {
        publish(event_frame([&](std::string& out) { protocol::given_event(out, next_stamp(), g, s, give->what, now); }),
                done);
    } else if (const auto* place = std::get_if<protocol::place>(&action)) {
        const piece placed = *g.board().at(place->where);
        publish(event_frame(
                    [&](std::string& out) { protocol::placed_event(out, next_stamp(), g, s, place->where, placed, now); }),
                done);
    } else if (std::holds_alternative<protocol::pass>(action)) {
        publish(event_frame([&](std::string& out) { protocol::passed_event(out, next_stamp(), g, s, now); }), done);
    } else {
        announced = false;
    }
    if (g.finished()) game_finished(announced ? room_change{change::event_only{t}} : room_change{done});
    else arm_timer();
    bot_poke();
    return true;
}

void room::start_game()
{
    const instant now = host_.now();
    const seat first = settings_.tournament && settings_.tournament->first ? *settings_.tournament->first : flip_coin(coin_);
    journal_summary(); // what came before this game is no longer needed to restore the room
    game_.emplace(settings_.game_rules, settings_.clock, first, now);
    // 12 characters of base32 (60 bits): unique across rooms, rematches and restarts alike,
    // which room ids (reused once a room is reclaimed) are not.
    game_id_ = new_short_id(12);
    game_players_ = {*seats_[0], *seats_[1]};
    game_started_unix_ms_ = host_.unix_ms();
    set_status(room_status::playing);
    metrics::bump(host_.counters().games_started);
    rematch_wanted_ = {};
    lobby_changed(); // before the event: whoever has seen it finds the lobby agree
    publish(event_frame([&](std::string& out) {
                protocol::game_started_event(out, next_stamp(), *game_, game_players_, now);
            }),
            change::start{first, game_started_unix_ms_, game_id_});
    spdlog::info("room {}: game started, {} vs {}, {} gives first", id_, seats_[0]->name, seats_[1]->name,
                 seats_[first]->name);
    arm_timer();
    bot_poke();
}

void room::game_finished(const room_change& cause)
{
    deadline_->cancel();
    set_status(room_status::finished);
    count_result();
    const game_result r = *game_->result();
    metrics::bump(host_.counters().games_finished[static_cast<std::size_t>(r.reason)]);
    archive_game();
    lobby_changed(); // before the event: whoever has seen it finds the lobby agree
    const instant now = host_.now();
    publish(event_frame([&](std::string& out) {
                protocol::game_over_event(out, next_stamp(), *game_, game_id_, now, &score_);
            }),
            cause);
    if (r.winner)
        spdlog::info("room {}: game over, {} wins by {}", id_, seats_[*r.winner] ? seats_[*r.winner]->name : "?",
                     to_string(r.reason));
    else
        spdlog::info("room {}: game over, draw", id_);
    if (report_result_) host_.defer([on_result = report_result_, r, game_id = game_id_] { on_result(r, game_id); });
    bot_poke(); // the bot stops whatever it was thinking about
}

void room::archive_game()
{
    // The end on the game's own clock: the wall clock read now is late by however long this
    // turn has run, and the start's by its own turn, which could make a game shorter than its
    // moves' times.
    const auto played = std::chrono::duration_cast<milliseconds>(host_.now() - game_->started_at()).count();
    archive::game_origin origin{game_id_, archived_room_id(), settings_.name, game_players_, game_started_unix_ms_,
                                game_started_unix_ms_ + played};
    host_.archive_game(id_, archive::make_game_record(std::move(origin), *game_));
}

void room::arm_timer()
{
    const auto deadline = game_ ? game_->next_deadline() : std::nullopt;
    if (deadline) deadline_->set(*deadline);
    else deadline_->cancel();
}

void room::on_deadline()
{
    if (closed_ || status_ != room_status::playing) return;
    // Trust the game, not the timer: ask what is due now.
    const std::int64_t t = *game_time();
    if (game_->expire(host_.now()) == time_event::game_over) {
        game_finished(change::time_passed{t});
    } else {
        arm_timer();
        bot_poke(); // a claim window closed: the bot's position has changed
    }
}

bool room::reclaim_if_idle(std::chrono::milliseconds idle)
{
    if (closed_) return true;
    end_if_deserted(idle);
    const bool deserted = subscribers_.empty() && status_ != room_status::playing;
    const bool idle_enough = host_.now() - last_activity_ >= idle;
    // The bot alone keeps nobody's room open.
    const bool empty = (!seats_[0] || bot_in(0)) && (!seats_[1] || bot_in(1)) && spectators_.empty();
    if (!(empty || host_gone(host_.abandon_after()) || (idle_enough && (deserted || status_ == room_status::finished))))
        return false;
    closed_ = true;
    if (journaled_) host_.journal_cut(id_, archive::journal_batch::all_entries);
    host_.counters().room_status_changed(status_, std::nullopt);
    deadline_->cancel();
    const net::frame_ptr closing = net::make_frame(protocol::room_closed(id_));
    for (const auto& s : subscribers_) {
        host_.send(s.client, closing);
        host_.unsubscribed(s.client, {place::kind::room, id_});
    }
    subscribers_.clear();
    for (const auto& s : seats_)
        if (s) host_.players().remove_room(s->id, id_);
    for (const auto& w : spectators_) host_.players().remove_room(w.id, id_);
    spdlog::info("room {}: reclaimed", id_);
    return true;
}

void room::vacate(seat s)
{
    seats_[s].reset();
    away_since_[s].reset();
    absent_at_start_[s] = false;
    score_ = {}; // a new pair starts from nothing
    rematch_wanted_ = {};
    if (status_ != room_status::playing) { // the next opponent starts a fresh game
        game_.reset();
        set_status(room_status::waiting);
    }
}

// ---- the journal ---------------------------------------------------------------------------

std::optional<std::int64_t> room::game_time() const
{
    if (!game_ || status_ != room_status::playing) return std::nullopt;
    return (host_.now() - game_->started_at()).count();
}

void room::journal(const room_change& c, std::string_view event)
{
    if (!journaled_) return;
    host_.journal_append(id_, ++journal_n_, c, event);
}

void room::journal_summary()
{
    if (!journaled_) return;
    change::summary s{settings_.name, settings_.game_rules, settings_.clock, settings_.is_private, {}, seq_, {}, {},
                      score_,        settings_.bot, settings_.bot_seat};
    if (settings_.tournament) {
        s.tournament = settings_.tournament->tournament;
        s.tournament_first = settings_.tournament->first;
    }
    for (seat i = 0; i < 2; ++i) {
        if (!seats_[i]) continue;
        const auto known = host_.players().find_by_id(seats_[i]->id);
        s.seats[i] = seated_player{*seats_[i], known ? known->token_hash : std::string{}};
    }
    journal(s);
    host_.journal_cut(id_, journal_n_);
}

std::unique_ptr<room> room::restore(room_host& host, protocol::room_id id,
                                    std::span<const archive::journal_entry> entries, std::string& problem)
{
    std::vector<room_change> changes;
    changes.reserve(entries.size());
    for (const auto& e : entries) {
        auto c = decode(e.change);
        if (!c) {
            problem = "entry " + std::to_string(e.n) + " cannot be read: " + e.change;
            return nullptr;
        }
        changes.push_back(std::move(*c));
    }
    const auto* first = changes.empty() ? nullptr : std::get_if<change::summary>(&changes.front());
    if (!first) {
        problem = "the first entry is not a summary of the room";
        return nullptr;
    }
    // The game's clock resumes where the room's last entry left it: the time the server was
    // down is nobody's.
    std::int64_t last_time = 0;
    for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
        if (const auto t = play::game_time(*it)) last_time = std::max(last_time, *t);
        if (std::holds_alternative<change::start>(*it)) break;
    }
    const instant base = host.now() - milliseconds{last_time};

    room_settings settings{first->name, first->game_rules, first->clock, first->is_private, {}, first->bot, {}, first->bot_seat};
    if (first->tournament) settings.tournament = tournament_link{*first->tournament, first->tournament_first, nullptr};
    auto r = std::make_unique<room>(host, id, std::move(settings));
    r->seq_ = first->seq;
    r->ring_start_ = first->seq + 1; // the events before the summary were cut
    for (std::size_t i = 0; i < changes.size(); ++i) {
        if (!r->replay(changes[i], base)) {
            problem = "entry " + std::to_string(entries[i].n) + " does not fit the room: " + entries[i].change;
            return nullptr;
        }
        if (!entries[i].event.empty()) {
            ++r->seq_;
            r->recent_[r->seq_ % ring_capacity] = net::make_frame(entries[i].event);
        }
    }
    r->journal_n_ = entries.back().n;
    r->arm_timer();
    const instant now = host.now();
    for (seat s = 0; s < 2; ++s) // nobody is connected yet: away from the restart on
        if (r->seats_[s] && !r->bot_in(s)) r->away_since_[s] = now;
    r->archive_replayed_game();
    r->publish(event_frame([&](std::string& out) {
                   protocol::resumed_event(out, r->next_stamp(), r->status_, r->game_ ? &*r->game_ : nullptr, now);
               }),
               r->event_only());
    if (r->bot_) r->defer_while_open([room = r.get()] { room->bot_resume(); });
    return r;
}

void room::archive_replayed_game()
{
    if (status_ != room_status::finished || !game_) return;
    // Its end time as well as the journal knows it: the last move's.
    const auto moves = game_->moves();
    const std::int64_t ended = game_started_unix_ms_ + (moves.empty() ? 0 : moves.back().at_ms);
    archive::game_origin origin{game_id_, archived_room_id(), settings_.name, game_players_, game_started_unix_ms_, ended};
    host_.archive_game_if_missing(id_, archive::make_game_record(std::move(origin), *game_));
}

bool room::replay(const room_change& c, instant base)
{
    return std::visit(
        [&](const auto& x) -> bool {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, change::summary>) {
                for (seat s = 0; s < 2; ++s) {
                    seats_[s].reset();
                    if (!x.seats[s]) continue;
                    seats_[s] = x.seats[s]->info;
                    if (bot_in(s)) continue; // the bot is no guest: nothing to resume
                    host_.players().restore({x.seats[s]->info, x.seats[s]->token_hash});
                    host_.players().add_room(x.seats[s]->info.id, id_);
                }
                score_ = x.score;
                return true;
            } else if constexpr (std::is_same_v<T, change::take_seat>) {
                if (seats_[x.s]) return false;
                seats_[x.s] = x.player.info;
                if (bot_in(x.s)) return true;
                host_.players().restore({x.player.info, x.player.token_hash});
                host_.players().add_room(x.player.info.id, id_);
                return true;
            } else if constexpr (std::is_same_v<T, change::leave_seat>) {
                if (!seats_[x.s]) return false;
                host_.players().remove_room(seats_[x.s]->id, id_);
                vacate(x.s);
                return true;
            } else if constexpr (std::is_same_v<T, change::start>) {
                if (!seats_[0] || !seats_[1]) return false;
                archive_replayed_game(); // the game before: its entries are cut only once it is archived
                game_.emplace(settings_.game_rules, settings_.clock, x.first, base);
                game_id_ = x.game_id;
                game_players_ = {*seats_[0], *seats_[1]};
                game_started_unix_ms_ = x.unix_ms;
                rematch_wanted_ = {};
                set_status(room_status::playing);
                return true;
            } else if constexpr (std::is_same_v<T, change::act>) {
                if (status_ != room_status::playing) return false;
                const instant at = base + milliseconds{x.t};
                (void)game_->expire(at);
                if (!game_->apply(x.what, at).ok()) return false;
                if (game_->finished()) {
                    set_status(room_status::finished);
                    count_result();
                }
                return true;
            } else if constexpr (std::is_same_v<T, change::time_passed>) {
                if (status_ != room_status::playing) return false;
                if (game_->expire(base + milliseconds{x.t}) != time_event::game_over) return false;
                set_status(room_status::finished);
                count_result();
                return true;
            } else if constexpr (std::is_same_v<T, change::rematch>) {
                rematch_wanted_[x.s] = true;
                return true;
            } else if constexpr (std::is_same_v<T, change::rename_seat>) {
                if (!seats_[x.s]) return false;
                rename_seat(x.s, x.name);
                host_.players().rename(seats_[x.s]->id, x.name);
                return true;
            } else if constexpr (std::is_same_v<T, change::abandon>) {
                if (status_ != room_status::playing) return false;
                const instant at = base + milliseconds{x.t};
                (void)game_->expire(at);
                if (!game_->abandon(x.absent, at).ok()) return false;
                set_status(room_status::finished);
                count_result();
                return true;
            } else {
                return true; // only an event
            }
        },
        c);
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

std::array<std::optional<protocol::seat_info>, 2> room::seat_view() const
{
    std::array<std::optional<protocol::seat_info>, 2> view;
    for (seat s = 0; s < 2; ++s)
        if (seats_[s])
            view[s] = protocol::seat_info{*seats_[s], bot_in(s) || has_connection(seats_[s]->id), claim_victory_in_ms(s)};
    return view;
}

protocol::room_view room::view(const std::array<std::optional<protocol::seat_info>, 2>& seats) const
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
            &score_};
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
