// What storing a rated game does to its players' ratings, apart from either engine's SQL: the
// record's own changes when they start from the ratings stored now, else both computed again
// from those (store.hpp, save_games).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarto/archive/game_record.hpp"

namespace quarto::archive::detail {

// The ratings a rated game applies. `stored[seat]`: that seat's player's stored rating in the
// game's pool, none before their first rated game there (rating::new_player, games 0).
// Precondition: r.ratings. Every stored_rating of the answer is in r.ratings->pool.
game_ratings ratings_to_apply(const game_record& r, const std::array<std::optional<stored_rating>, 2>& stored);

// How a player id is written in a tournament's JSON state: quoted and escaped, so that a search
// for it matches the whole id and never a longer one that begins with it.
std::string quoted_player_id(std::string_view player_id);

// Unix ms now: when a game's ratings were applied (rated_games.applied_ms).
std::int64_t wall_clock_ms();

} // namespace quarto::archive::detail
