// What the archive keeps of a player who has an account (schema versions 7 and 8): the account (the
// guest's player id, its name, the password's Argon2id hash string), its sessions (by the hash
// of their ids), its rating in each pool, and which games have been rated. The archive hashes
// nothing itself and reads none of these secrets: it stores the strings it is given, and no
// log line of it holds a hash or a session's.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "quarto/core/rating/pool.hpp"

namespace quarto::archive {

// What a deleted account's name becomes; its name is free again.
inline constexpr std::string_view deleted_player_name = "deleted player";

// The key that makes account names unique: the name with ASCII letters in lower case, as the
// games' player lookup compares names (SQLite's NOCASE). Other letters compare as they are
// written ("Zoë" and "ZOË" are two names).
std::string account_name_key(std::string_view name);

// An account as a login needs it.
struct stored_account {
    std::string player_id;
    std::string name;
    std::string password_hash; // crypto_pwhash_str's text
    friend bool operator==(const stored_account&, const stored_account&) = default;
};

enum class account_creation {
    created,
    name_taken,     // another account has this name, in any case of its ASCII letters
    already_account // this player id has an account already (or had one, since deleted)
};

// A player's rating in one pool, and the time of the last rated game it counts.
struct stored_rating {
    rating::pool pool = rating::pool::standard;
    double rating = 0;
    double deviation = 0;
    double volatility = 0;
    int games = 0;
    std::int64_t last_game_ms = 0;
    friend bool operator==(const stored_rating&, const stored_rating&) = default;
};

// One player's new rating after a rated game.
struct rating_update {
    std::string player_id;
    stored_rating rating;
};

// A rated game's ratings: what each seat brought to the game and left with, in its pool.
struct seat_rating_change {
    stored_rating before; // a player's first rated game: rating::new_player, games 0
    stored_rating after;
    friend bool operator==(const seat_rating_change&, const seat_rating_change&) = default;
};
struct game_ratings {
    rating::pool pool = rating::pool::standard;
    std::array<seat_rating_change, 2> seats; // by seat
    friend bool operator==(const game_ratings&, const game_ratings&) = default;
};

// A player as the profile page shows them: an account's, or a guest's as their games know them.
struct player_profile {
    std::string player_id;
    std::string name;
    bool account = false;
    std::vector<stored_rating> ratings; // by pool name; empty before a first rated game
    int wins = 0;
    int draws = 0;
    int losses = 0;
    friend bool operator==(const player_profile&, const player_profile&) = default;
};

// One point of a player's rating chart: the rating after a rated game.
struct rating_point {
    std::string game_id;
    std::int64_t at_ms = 0; // the game's end
    double rating = 0;
    double deviation = 0;
    friend bool operator==(const rating_point&, const rating_point&) = default;
};

// One line of a pool's leaderboard.
struct leaderboard_entry {
    std::string player_id;
    std::string name;
    double rating = 0;
    double deviation = 0;
    int games = 0;
    friend bool operator==(const leaderboard_entry&, const leaderboard_entry&) = default;
};

enum class rated_game_outcome {
    applied,
    already_applied // this game's result had been applied: nothing changed
};

// Everything stored about one account (GET of one's own data): no password hash and no
// session's id hash, which are secrets, not the player's data.
struct account_export {
    struct session {
        std::int64_t created_ms = 0;
        std::int64_t last_seen_ms = 0;
        friend bool operator==(const session&, const session&) = default;
    };
    std::string player_id;
    std::string name;
    std::int64_t created_ms = 0;
    bool deleted = false;
    std::vector<session> sessions;        // oldest first
    std::vector<stored_rating> ratings;   // by pool name
    std::vector<std::string> games;       // ids of the games played as this player id, oldest first
};

nlohmann::json account_export_json(const account_export& e);

} // namespace quarto::archive
