// Who is here and who has gone: a seated player's last connection closing, the claim against an
// absent opponent, a game nobody is left in, and a waiting room whose only player has gone.
#include <algorithm>

#include "play/room.hpp"

namespace quarto::server::play {

using protocol::error_code;
using model::room_status;

void room::detach(const client_ref& c)
{
    const auto it = std::find_if(subscribers_.begin(), subscribers_.end(), [&](const auto& s) { return s.client == c; });
    if (it == subscribers_.end()) return;
    const std::string player_id = it->player_id;
    subscribers_.erase(it);
    if (has_connection(player_id)) return;

    if (const auto s = seat_of(player_id)) {
        away_since_[*s] = host_.now();
        std::optional<std::int64_t> claim_in;
        if (status_ == room_status::playing) claim_in = host_.abandon_after().count();
        publish(protocol::connection_event(next_stamp(), *seats_[*s], false, claim_in), event_only());
        lobby_changed(); // a waiting room whose player has gone is no longer offered
    } else if (spectating(player_id)) { // watchers do not keep a place while away
        const auto w = std::find_if(spectators_.begin(), spectators_.end(), [&](const auto& x) { return x.id == player_id; });
        publish(protocol::left_event(next_stamp(), *w, true, std::nullopt), event_only());
        spectators_.erase(w);
        lobby_changed();
    }
}

void room::announce_absent_at_start()
{
    // Someone sat down opposite a player who had already gone (a room's link followed late, or
    // a seat taken as its holder's connection dropped): the game has started against nobody,
    // and waiting --abandon-seconds for a player who was never there only runs the present
    // one's clock. Not after a rematch (both asked for the game; one may be reconnecting after
    // a restart), nor in a tournament, whose players are seated by their pairing, not by choice:
    // those keep the usual wait.
    for (seat s = 0; s < 2; ++s) {
        absent_at_start_[s] = !settings_.tournament && !bot_in(s) && !has_connection(seats_[s]->id);
        if (!absent_at_start_[s]) continue;
        if (!away_since_[s]) away_since_[s] = host_.now();
        publish(protocol::connection_event(next_stamp(), *seats_[s], false, 0), event_only());
    }
}

std::optional<std::int64_t> room::claim_victory_in_ms(seat s) const
{
    if (status_ != room_status::playing || !away_since_[s]) return std::nullopt;
    if (absent_at_start_[s]) return 0;
    const auto waited = std::chrono::duration_cast<milliseconds>(host_.now() - *away_since_[s]);
    return std::max<std::int64_t>(0, (host_.abandon_after() - waited).count());
}

void room::claim_victory(const client_ref& c, seat s, const json& req)
{
    if (status_ != room_status::playing)
        return send_error(c, error_code::wrong_phase,
                          status_ == room_status::waiting ? "The game has not started yet." : "The game is over.", req);
    const seat absent = opponent(s);
    const auto wait = claim_victory_in_ms(absent);
    if (!wait) return send_error(c, error_code::wrong_phase, "Your opponent is still here.", req);
    if (*wait > 0)
        return send_error(c, error_code::wrong_phase,
                          "Your opponent may still come back: you can claim the win in " +
                              std::to_string((*wait + 999) / 1000) + " s.",
                          req);
    const instant now = host_.now();
    const std::int64_t t = *game_time();
    if (game_->expire(now) == time_event::game_over) return game_finished(change::time_passed{t});
    if (game_->abandon(absent, now).ok()) game_finished(change::abandon{absent, t});
}

void room::end_if_deserted(std::chrono::milliseconds idle)
{
    // Nobody is left to claim the win, and an untimed game would wait forever: once both players
    // have been away for the idle time, whoever left first has abandoned it. The bot is never
    // away: against it, the person alone decides.
    if (status_ != room_status::playing || !subscribers_.empty()) return;
    std::array<std::optional<instant>, 2> away = away_since_;
    for (seat s = 0; s < 2; ++s)
        if (bot_in(s)) away[s] = away[opponent(s)];
    if (!away[0] || !away[1]) return;
    const instant now = host_.now();
    if (now - std::max(*away[0], *away[1]) < idle) return;
    seat first_gone = *away[1] < *away[0] ? seat{1} : seat{0};
    if (bot_in(first_gone)) first_gone = opponent(first_gone);
    const std::int64_t t = *game_time();
    if (game_->expire(now) == time_event::game_over) return game_finished(change::time_passed{t});
    if (game_->abandon(first_gone, now).ok()) game_finished(change::abandon{first_gone, t});
}

bool room::host_gone(std::chrono::milliseconds grace) const
{
    // The same grace as a game's absent player gets (--abandon-seconds): far longer than a page's
    // reload or a phone's short trip to another app, short enough that the room does not linger
    // in the lobby. Until then the lobby shows the room but does not offer it (host_away).
    if (status_ != room_status::waiting) return false;
    std::optional<seat> only;
    for (seat s = 0; s < 2; ++s) {
        if (!seats_[s]) continue;
        if (only || bot_in(s)) return false;
        only = s;
    }
    return only && !has_connection(seats_[*only]->id) && away_since_[*only] &&
           host_.now() - *away_since_[*only] >= grace;
}

} // namespace quarto::server::play
