// A rated room's ratings: what each seat's player brings to a game, and the Glicko-2 update
// when it ends (core/rating), computed the same way live and when the journal replays the game,
// so that a restart between the game's end and its archive record changes nothing. The archive
// applies a game's ratings once, keyed by the game (archive/store.hpp).
#include <algorithm>
#include <cmath>

#include "play/room.hpp"
#include "quarto/core/rating/glicko2.hpp"
#include "quarto/core/rating/pool.hpp"

namespace quarto::server::play {
namespace {

constexpr double ms_per_day = 24.0 * 3600 * 1000;

rating::rating glicko(const archive::stored_rating& r) { return {r.rating, r.deviation, r.volatility, r.games}; }

} // namespace

void room::seat_rating(seat s, const player_record& p)
{
    seats_[s]->rating = shown_rating_of(p, settings_.game_rules);
    if (const auto pool = rating::pool_of(settings_.game_rules, settings_.clock); pool && settings_.rated)
        seat_ratings_[s] = p.rating_in(*pool);
}

std::optional<archive::stored_rating> room::rated_seat(seat s) const
{
    if (!settings_.rated) return std::nullopt;
    return seat_ratings_[s];
}

void room::rate_game()
{
    game_ratings_.reset();
    const auto pool = rating::pool_of(settings_.game_rules, settings_.clock);
    if (!settings_.rated || !pool || !game_ || !game_->finished()) return;
    const auto moves = game_->moves();
    if (std::none_of(moves.begin(), moves.end(), [](const move_record& m) { return m.kind == move_kind::place; })) return;
    // The end as the journal knows it (its last action), so that a replay computes the same.
    const std::int64_t ended = game_started_unix_ms_ + moves.back().at_ms;
    std::array<rating::rating, 2> now;
    for (seat s = 0; s < 2; ++s) {
        const auto& r = seat_ratings_[s];
        now[s] = r.games == 0 ? glicko(r) : rating::after_idle(glicko(r), static_cast<double>(ended - r.last_game_ms) / ms_per_day);
    }
    const auto winner = game_->result()->winner;
    archive::game_ratings rated{*pool, {}};
    for (seat s = 0; s < 2; ++s) {
        const double score = !winner ? 0.5 : *winner == s ? 1.0 : 0.0;
        const rating::rating after = rating::after_game(now[s], now[1 - s], score);
        const archive::stored_rating before = seat_ratings_[s];
        const archive::stored_rating kept{*pool, after.value, after.deviation, after.volatility, after.games, ended};
        rated.seats[s] = {before, kept};
        const bool provisional = rating::provisional(after);
        shown_changes_[s] = {static_cast<int>(std::lround(before.rating)), static_cast<int>(std::lround(after.value)),
                             static_cast<int>(std::lround(after.deviation)), provisional};
        seat_ratings_[s] = kept;
        const model::shown_rating shown{shown_changes_[s].after, provisional};
        if (seats_[s] && seats_[s]->id == game_players_[s].id) seats_[s]->rating = shown;
        host_.players().set_rating(game_players_[s].id, *pool, kept);
    }
    game_ratings_ = std::move(rated);
}

const std::array<protocol::rating_change, 2>* room::shown_rating_changes() const
{
    return game_ratings_ ? &shown_changes_ : nullptr;
}

} // namespace quarto::server::play
