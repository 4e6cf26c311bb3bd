// A room's game: a rematch, the actions of the seated players, the start and the end of a game,
// its clock's deadline, and what a room does when a seat is vacated or it has long been idle.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "play/event_frame.hpp"
#include "play/room.hpp"
#include "quarto/protocol/game_events.hpp"

namespace quarto::server::play {

using protocol::error_code;
using model::room_status;

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
    rate_game();
    const game_result r = *game_->result();
    metrics::bump(host_.counters().games_finished[static_cast<std::size_t>(r.reason)]);
    archive_game();
    lobby_changed(); // before the event: whoever has seen it finds the lobby agree
    const instant now = host_.now();
    publish(event_frame([&](std::string& out) {
                protocol::game_over_event(out, next_stamp(), *game_, game_id_, now, &score_, shown_rating_changes());
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
    auto record = archive::make_game_record(std::move(origin), *game_);
    record.ratings = game_ratings_;
    host_.archive_game(id_, std::move(record));
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

} // namespace quarto::server::play
