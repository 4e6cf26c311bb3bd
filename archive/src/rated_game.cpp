#include "rated_game.hpp"

#include <chrono>

#include <nlohmann/json.hpp>

#include "quarto/core/rating/glicko2.hpp"

namespace quarto::archive::detail {
namespace {

constexpr double ms_per_day = 86'400'000.0;

// What the player brought to the game: the stored rating, or a new player's.
stored_rating brought(rating::pool pool, const std::optional<stored_rating>& stored)
{
    if (!stored) {
        const rating::rating& n = rating::new_player;
        return {pool, n.value, n.deviation, n.volatility, 0, 0};
    }
    stored_rating out = *stored;
    out.pool = pool;
    return out;
}

rating::rating glicko_of(const stored_rating& s)
{
    return {.value = s.rating, .deviation = s.deviation, .volatility = s.volatility, .games = s.games};
}

double score_of(const game_result& result, seat s)
{
    if (!result.winner) return 0.5;
    return *result.winner == s ? 1.0 : 0.0;
}

} // namespace

game_ratings ratings_to_apply(const game_record& r, const std::array<std::optional<stored_rating>, 2>& stored)
{
    game_ratings applied = *r.ratings;
    const rating::pool pool = applied.pool;
    const std::array<stored_rating, 2> now{brought(pool, stored[0]), brought(pool, stored[1])};
    bool current = true;
    for (seat s = 0; s < 2; ++s)
        current = current && now[s].games == applied.seats[s].before.games && now[s].rating == applied.seats[s].before.rating;
    if (current) {
        for (seat_rating_change& change : applied.seats) change.before.pool = change.after.pool = pool;
        return applied;
    }
    // Another rated game of a player was stored since the record's ratings were computed: both
    // sides again from what is stored, as lichess rates a game (each rating brought forward by
    // the days since its player's last game, then the game as a period of its own).
    // A new player has no last game to be idle since.
    std::array<rating::rating, 2> idle{};
    for (seat s = 0; s < 2; ++s) {
        const double days = static_cast<double>(r.ended_ms - now[s].last_game_ms) / ms_per_day;
        idle[s] = stored[s] ? rating::after_idle(glicko_of(now[s]), days) : glicko_of(now[s]);
    }
    for (seat s = 0; s < 2; ++s) {
        const rating::rating after = rating::after_game(idle[s], idle[opponent(s)], score_of(r.result, s));
        applied.seats[s] = {now[s], {pool, after.value, after.deviation, after.volatility, after.games, r.ended_ms}};
    }
    return applied;
}

std::string quoted_player_id(std::string_view player_id)
{
    // Replacing what is not UTF-8 rather than throwing: such an id is in no state anyway.
    return nlohmann::json(player_id).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::int64_t wall_clock_ms()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace quarto::archive::detail
