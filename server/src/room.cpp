#include "room.hpp"

#include <spdlog/spdlog.h>

#include "quarto/archive/game_record.hpp"
#include "random_ids.hpp"
#include "room_registry.hpp"

namespace quarto::server {

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

} // namespace

room::room(net::io_context& ioc, protocol::room_id id, room_settings settings, server_context& context)
    : id_{std::move(id)},
      settings_{std::move(settings)},
      context_{context},
      strand_{net::make_strand(ioc)},
      deadline_timer_{strand_},
      coin_{std::random_device{}()},
      last_activity_{std::chrono::steady_clock::now()}
{
    context_.metrics.room_status_changed(std::nullopt, status_);
    refresh_summary();
}

void room::set_status(room_status s)
{
    context_.metrics.room_status_changed(status_, s);
    status_ = s;
}

template <class Handler>
void room::on_strand(Handler handler)
{
    net::post(strand_, [self = shared_from_this(), handler = std::move(handler)]() mutable {
        try {
            const auto started = std::chrono::steady_clock::now();
            handler();
            self->context_.metrics.room_handling.record(std::chrono::steady_clock::now() - started);
        } catch (const std::exception& e) { // a bug: keep the room and the process alive
            spdlog::error("room {}: {}", self->id_, e.what());
        }
    });
}

nlohmann::json room::summary() const
{
    std::lock_guard lock{summary_mutex_};
    if (!summary_) {
        const protocol::room_view v{id_, 0, settings_.name, settings_.game_rules, settings_.clock,
                                    lobby_.status, lobby_.seats, lobby_.spectators, nullptr, {}, {}, tournament_id()};
        summary_ = protocol::room_summary(v, settings_.is_private);
    }
    return *summary_;
}

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

bool room::attached(const connection_ptr& c) const
{
    return std::any_of(attachments_.begin(), attachments_.end(), [&](const auto& a) { return a.conn == c; });
}

bool room::has_connection(const std::string& player_id) const
{
    return std::any_of(attachments_.begin(), attachments_.end(), [&](const auto& a) { return a.player_id == player_id; });
}

void room::attach(const connection_ptr& c, const player_ptr& p)
{
    if (!attached(c)) attachments_.push_back({c, p->info.id});
    context_.players.add_room(p->info.id, id_);
}

void room::seat_creator(const connection_ptr& c, const player_ptr& p)
{
    seats_[0] = p->info;
    attach(c, p);
    broadcast(protocol::joined_event(p->info, false, seat{0}), c.get());
    refresh_summary();
}

void room::seat_pair(const player_ptr& first_seat, const player_ptr& second_seat)
{
    seats_[0] = first_seat->info;
    seats_[1] = second_seat->info;
    context_.players.add_room(first_seat->info.id, id_);
    context_.players.add_room(second_seat->info.id, id_);
    start_game();
}

void room::forfeit(const std::string& player_id)
{
    on_strand([this, player_id] {
        const auto s = seat_of(player_id);
        if (closed_ || !s || status_ != room_status::playing) return;
        const instant now = context_.clock.now();
        if (game_->expire(now) != time_event::game_over) (void)game_->resign(*s, now);
        game_finished();
    });
}

void room::join(connection_ptr c, player_ptr p, bool as_spectator, json req)
{
    on_strand([this, c = std::move(c), p = std::move(p), as_spectator, req = std::move(req)] {
        if (closed_) return send_error(c, error_code::no_such_room, "That room has closed.", req);
        last_activity_ = std::chrono::steady_clock::now();
        const std::string& id = p->info.id;

        if (seat_of(id) || (as_spectator && spectating(id))) { // already here: just the view
            attach(c, p);
            return send_snapshot(c, id, req);
        }
        if (as_spectator) {
            spectators_.push_back(p->info);
            attach(c, p);
            broadcast(protocol::joined_event(p->info, true, std::nullopt), c.get());
            send_snapshot(c, id, req);
            return refresh_summary();
        }
        std::optional<seat> free;
        for (seat s = 0; s < 2 && !free; ++s)
            if (!seats_[s]) free = s;
        if (!free) return send_error(c, error_code::room_full, protocol::default_message(error_code::room_full), req);

        std::erase_if(spectators_, [&](const auto& s) { return s.id == id; });
        seats_[*free] = p->info;
        attach(c, p);
        broadcast(protocol::joined_event(p->info, false, free), c.get());
        send_snapshot(c, id, req);
        if (seats_[0] && seats_[1] && status_ != room_status::playing) start_game();
        refresh_summary();
    });
}

void room::leave(connection_ptr c, player_ptr p, json req)
{
    on_strand([this, c = std::move(c), p = std::move(p), req = std::move(req)] {
        if (closed_) return send_error(c, error_code::no_such_room, "That room has closed.", req);
        const std::string& id = p->info.id;
        const auto s = seat_of(id);
        const bool watcher = spectating(id);
        if (!s && !watcher) return send_error(c, error_code::not_in_room, protocol::default_message(error_code::not_in_room), req);
        last_activity_ = std::chrono::steady_clock::now();

        if (s && status_ == room_status::playing) { // leaving a game in progress resigns it
            const instant now = context_.clock.now();
            if (game_->expire(now) == time_event::game_over) game_finished();
            if (game_->resign(*s, now).ok()) game_finished();
        }
        broadcast(protocol::left_event(p->info, watcher, s));
        if (s) {
            seats_[*s].reset();
            rematch_wanted_ = {};
            if (status_ != room_status::playing) { // the next opponent starts a fresh game
                game_.reset();
                set_status(room_status::waiting);
            }
        }
        std::erase_if(spectators_, [&](const auto& w) { return w.id == id; });
        std::erase_if(attachments_, [&](const auto& a) { return a.player_id == id; });
        context_.players.remove_room(id, id_);
        refresh_summary();
    });
}

void room::resume(connection_ptr c, player_ptr p)
{
    on_strand([this, c = std::move(c), p = std::move(p)] {
        if (closed_) return;
        const std::string& id = p->info.id;
        if (!seat_of(id)) { // a watcher who went away had left; come back as one
            if (!spectating(id)) {
                spectators_.push_back(p->info);
                broadcast(protocol::joined_event(p->info, true, std::nullopt), c.get());
                refresh_summary();
            }
        } else if (!has_connection(id)) {
            broadcast(protocol::connection_event(p->info, true), c.get());
            refresh_summary();
        }
        attach(c, p);
        send_snapshot(c, id, nullptr);
    });
}

void room::detach(connection_ptr c)
{
    on_strand([this, c = std::move(c)] {
        const auto it = std::find_if(attachments_.begin(), attachments_.end(), [&](const auto& a) { return a.conn == c; });
        if (it == attachments_.end()) return;
        const std::string player_id = it->player_id;
        attachments_.erase(it);
        if (has_connection(player_id)) return;

        if (const auto s = seat_of(player_id)) {
            broadcast(protocol::connection_event(*seats_[*s], false));
        } else if (spectating(player_id)) { // watchers do not keep a place while away
            const auto w = std::find_if(spectators_.begin(), spectators_.end(), [&](const auto& x) { return x.id == player_id; });
            broadcast(protocol::left_event(*w, true, std::nullopt));
            spectators_.erase(w);
        }
        refresh_summary();
    });
}

void room::act(connection_ptr c, player_ptr p, protocol::client_message message, json req)
{
    on_strand([this, c = std::move(c), p = std::move(p), message = std::move(message), req = std::move(req)] {
        if (closed_) return send_error(c, error_code::no_such_room, "That room has closed.", req);
        const auto s = seat_of(p->info.id);
        if (!s) {
            const bool watcher = spectating(p->info.id);
            return send_error(c, watcher ? error_code::not_a_player : error_code::not_in_room,
                              protocol::default_message(watcher ? error_code::not_a_player : error_code::not_in_room), req);
        }
        last_activity_ = std::chrono::steady_clock::now();
        apply(c, *s, message, req);
    });
}

void room::apply(const connection_ptr& c, seat s, const protocol::client_message& message, const json& req)
{
    if (std::holds_alternative<protocol::rematch>(message)) {
        if (settings_.tournament)
            return send_error(c, error_code::wrong_phase, "Tournament games have no rematch; the tournament pairs the next game.", req);
        if (status_ != room_status::finished)
            return send_error(c, error_code::wrong_phase, "A rematch can be asked for once the game is over.", req);
        if (!rematch_wanted_[s]) {
            rematch_wanted_[s] = true;
            publish(protocol::rematch_requested_event(next_stamp(), s));
        }
        if (rematch_wanted_[0] && rematch_wanted_[1] && seats_[0] && seats_[1]) start_game();
        return;
    }
    if (status_ != room_status::playing)
        return send_error(c, error_code::wrong_phase,
                          status_ == room_status::waiting ? "The game has not started yet." : "The game is over.", req);

    const instant now = context_.clock.now();
    if (game_->expire(now) == time_event::game_over) { // a deadline passed before the timer fired
        game_finished();
        return send_error(c, error_code::wrong_phase, "The game is over.", req);
    }

    game& g = *game_;
    const outcome result = std::visit(
        [&](const auto& m) -> outcome {
            using message_type = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<message_type, protocol::give>) return g.give(s, m.what, now);
            else if constexpr (std::is_same_v<message_type, protocol::place>) return g.place(s, m.where, now);
            else if constexpr (std::is_same_v<message_type, protocol::call_quarto>) return g.call_quarto(s, m.line, now);
            else if constexpr (std::is_same_v<message_type, protocol::pass>) return g.pass(s, now);
            else if constexpr (std::is_same_v<message_type, protocol::resign>) return g.resign(s, now);
            else return outcome::failure(action_error::wrong_phase);
        },
        message);

    if (!result) {
        const error_code code = protocol::from_action_error(result.error());
        const std::string_view text = result.error() == action_error::invalid_claim ? claim_problem_message(result.problem())
                                                                                    : protocol::default_message(code);
        return send_error(c, code, text, req);
    }

    if (const auto* give = std::get_if<protocol::give>(&message)) {
        publish(protocol::given_event(next_stamp(), g, s, give->what, now));
    } else if (const auto* place = std::get_if<protocol::place>(&message)) {
        publish(protocol::placed_event(next_stamp(), g, s, place->where, *g.board().at(place->where), now));
    } else if (std::holds_alternative<protocol::pass>(message)) {
        publish(protocol::passed_event(next_stamp(), g, s, now));
    }
    if (g.finished()) game_finished();
    else arm_timer();
}

void room::start_game()
{
    const instant now = context_.clock.now();
    const seat first = settings_.tournament && settings_.tournament->first ? *settings_.tournament->first : flip_coin(coin_);
    game_.emplace(settings_.game_rules, settings_.clock, first, now);
    // 12 characters of base32 (60 bits): unique across rooms, rematches and restarts alike,
    // which room ids (reused once a room is reclaimed) are not.
    game_id_ = new_short_id(12);
    game_players_ = {*seats_[0], *seats_[1]};
    game_started_unix_ms_ = server_clock::unix_ms();
    set_status(room_status::playing);
    metrics::add(context_.metrics.games_started);
    rematch_wanted_ = {};
    publish(protocol::game_started_event(next_stamp(), *game_, {*seats_[0], *seats_[1]}, now));
    spdlog::info("room {}: game started, {} vs {}, {} gives first", id_, seats_[0]->name, seats_[1]->name,
                 seats_[first]->name);
    arm_timer();
    refresh_summary();
}

void room::game_finished()
{
    deadline_timer_.cancel();
    set_status(room_status::finished);
    const game_result r = *game_->result();
    metrics::add(context_.metrics.games_finished[static_cast<std::size_t>(r.reason)]);
    archive_game();
    publish(protocol::game_over_event(next_stamp(), *game_, game_id_, context_.clock.now()));
    if (r.winner)
        spdlog::info("room {}: game over, {} wins by {}", id_, seats_[*r.winner] ? seats_[*r.winner]->name : "?",
                     to_string(r.reason));
    else
        spdlog::info("room {}: game over, draw", id_);
    refresh_summary();
    if (settings_.tournament && settings_.tournament->on_result) settings_.tournament->on_result(r, game_id_);
}

void room::archive_game()
{
    if (!context_.archive) return; // only a server without an archive: never in quarto-server
    archive::game_origin origin{game_id_, id_, settings_.name, game_players_, game_started_unix_ms_,
                                server_clock::unix_ms()};
    context_.archive->save_game(archive::make_game_record(std::move(origin), *game_),
                                [&counters = context_.metrics](bool stored) {
                                    metrics::add(stored ? counters.games_archived : counters.archive_failures);
                                });
}

void room::arm_timer()
{
    const auto deadline = game_ ? game_->next_deadline() : std::nullopt;
    if (!deadline) {
        deadline_timer_.cancel();
        return;
    }
    deadline_timer_.expires_at(context_.clock.to_steady(*deadline));
    deadline_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (ec == net::error::operation_aborted) return; // re-armed or cancelled
        try {
            self->on_deadline();
        } catch (const std::exception& e) {
            spdlog::error("room {}: {}", self->id_, e.what());
        }
    });
}

void room::on_deadline()
{
    if (status_ != room_status::playing) return;
    // Trust the game, not the timer: ask what is due now.
    if (game_->expire(context_.clock.now()) == time_event::game_over) game_finished();
    else arm_timer();
}

void room::sync(connection_ptr c, player_ptr p, std::uint64_t since, json req)
{
    on_strand([this, c = std::move(c), p = std::move(p), since, req = std::move(req)] {
        if (closed_) return send_error(c, error_code::no_such_room, "That room has closed.", req);
        const std::string& id = p->info.id;
        if (!seat_of(id) && !spectating(id))
            return send_error(c, error_code::not_in_room, protocol::default_message(error_code::not_in_room), req);
        attach(c, p);
        const std::uint64_t oldest_kept = seq_ - recent_.size() + 1;
        if (since + 1 < oldest_kept) {
            send_snapshot(c, id, nullptr);
        } else {
            for (std::uint64_t s = since + 1; s <= seq_; ++s) c->send(recent_[s - oldest_kept]);
        }
        c->send(std::make_shared<const std::string>(protocol::synced(id_, seq_, req).dump()));
    });
}

void room::reclaim_if_idle(std::chrono::seconds idle)
{
    on_strand([this, idle] {
        if (closed_) return;
        const bool deserted = attachments_.empty() && status_ != room_status::playing;
        const bool idle_enough = std::chrono::steady_clock::now() - last_activity_ >= idle;
        const bool empty = !seats_[0] && !seats_[1] && spectators_.empty();
        if (!(empty || (idle_enough && (deserted || status_ == room_status::finished)))) return;
        closed_ = true;
        context_.metrics.room_status_changed(status_, std::nullopt);
        deadline_timer_.cancel();
        const auto closing = std::make_shared<const std::string>(protocol::room_closed(id_).dump());
        for (const auto& a : attachments_) a.conn->send(closing);
        for (const auto& s : seats_)
            if (s) context_.players.remove_room(s->id, id_);
        for (const auto& w : spectators_) context_.players.remove_room(w.id, id_);
        attachments_.clear();
        context_.rooms->remove(id_);
        spdlog::info("room {}: reclaimed", id_);
    });
}

void room::broadcast(json event, const connection* except)
{
    event["room"] = id_;
    event["seq"] = ++seq_;
    publish(event.dump(), except);
}

void room::publish(std::string event, const connection* except)
{
    auto message = std::make_shared<const std::string>(std::move(event));
    recent_.push_back(message);
    if (recent_.size() > ring_capacity) recent_.pop_front();
    for (const auto& a : attachments_)
        if (a.conn.get() != except) a.conn->send(message);
}

std::array<std::optional<protocol::seat_info>, 2> room::seat_view() const
{
    std::array<std::optional<protocol::seat_info>, 2> view;
    for (seat s = 0; s < 2; ++s)
        if (seats_[s]) view[s] = protocol::seat_info{*seats_[s], has_connection(seats_[s]->id)};
    return view;
}

protocol::room_view room::view(const std::array<std::optional<protocol::seat_info>, 2>& seats) const
{
    return {id_,    seq_,  settings_.name, settings_.game_rules, settings_.clock, status_, seats,
            static_cast<int>(spectators_.size()), game_ ? &*game_ : nullptr, context_.clock.now(), game_id_,
            tournament_id()};
}

void room::send_snapshot(const connection_ptr& c, const std::string& player_id, const json& req)
{
    const auto seats = seat_view();
    c->send(std::make_shared<const std::string>(protocol::room_snapshot(view(seats), seat_of(player_id), req).dump()));
}

void room::send_error(const connection_ptr& c, error_code code, std::string_view message, const json& req)
{
    context_.metrics.error(code);
    c->send(std::make_shared<const std::string>(protocol::error_reply(code, message, req).dump()));
}

void room::refresh_summary()
{
    lobby_state now{status_, {}, static_cast<int>(spectators_.size())};
    for (seat s = 0; s < 2; ++s)
        if (seats_[s]) now.seats[s] = protocol::seat_info{*seats_[s], true};
    const auto same_player = [](const auto& a, const auto& b) {
        return a.has_value() == b.has_value() && (!a || a->player == b->player);
    };
    std::lock_guard lock{summary_mutex_};
    if (now.status == lobby_.status && now.spectators == lobby_.spectators && same_player(now.seats[0], lobby_.seats[0]) &&
        same_player(now.seats[1], lobby_.seats[1]))
        return;
    lobby_ = std::move(now);
    summary_.reset();
}

} // namespace quarto::server
