// A room's journal: each change and the event that announced it, a summary that lets older
// entries go, and a room brought back from its entries after a restart.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "play/event_frame.hpp"
#include "play/room.hpp"
#include "quarto/protocol/game_events.hpp"

namespace quarto::server::play {

using protocol::error_code;
using model::room_status;

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

namespace {

// A seated player as the registry knows them again after a restart: an account ("-", no token)
// until its session's hello reads its ratings, a guest by the hash of its token.
player_record restored_player(const seated_player& p)
{
    const bool account = p.token_hash == "-" || p.token_hash.empty();
    return {{p.info.id, p.info.name, {}}, account ? std::string{} : p.token_hash, account, {}};
}

} // namespace

void room::journal_summary()
{
    if (!journaled_) return;
    change::summary s{settings_.name, settings_.game_rules, settings_.clock, settings_.is_private, {}, seq_, {}, {},
                      score_,        settings_.bot, settings_.bot_seat, settings_.rated};
    if (settings_.tournament) {
        s.tournament = settings_.tournament->tournament;
        s.tournament_first = settings_.tournament->first;
    }
    for (seat i = 0; i < 2; ++i) {
        if (!seats_[i]) continue;
        const auto known = host_.players().find_by_id(seats_[i]->id);
        s.seats[i] = seated_player{*seats_[i], known ? known->token_hash : std::string{}, std::nullopt};
        if (settings_.rated) s.seats[i]->rating = seat_ratings_[i];
    }
    journal(s);
    host_.journal_cut(id_, journal_n_);
}

std::unique_ptr<room> room::restore(room_host& host, model::room_id id,
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

    room_settings settings{first->name, first->game_rules, first->clock, first->is_private, {}, first->bot, {}, first->bot_seat,
                           first->rated};
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
    auto record = archive::make_game_record(std::move(origin), *game_);
    record.ratings = game_ratings_;
    host_.archive_game_if_missing(id_, std::move(record));
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
                    if (x.seats[s]->rating) seat_ratings_[s] = *x.seats[s]->rating;
                    if (bot_in(s)) continue; // the bot is no guest: nothing to resume
                    host_.players().restore(restored_player(*x.seats[s]));
                    host_.players().add_room(x.seats[s]->info.id, id_);
                }
                score_ = x.score;
                return true;
            } else if constexpr (std::is_same_v<T, change::take_seat>) {
                if (seats_[x.s]) return false;
                seats_[x.s] = x.player.info;
                if (x.player.rating) seat_ratings_[x.s] = *x.player.rating;
                if (bot_in(x.s)) return true;
                host_.players().restore(restored_player(x.player));
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
                    rate_game();
                }
                return true;
            } else if constexpr (std::is_same_v<T, change::time_passed>) {
                if (status_ != room_status::playing) return false;
                if (game_->expire(base + milliseconds{x.t}) != time_event::game_over) return false;
                set_status(room_status::finished);
                count_result();
                rate_game();
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
                rate_game();
                return true;
            } else {
                return true; // only an event
            }
        },
        c);
}

} // namespace quarto::server::play
