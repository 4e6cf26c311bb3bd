// A tournament as typed values: its settings, entrants, rounds, pairings and game results. The
// server keeps one of these per tournament, changed only by the thread of the shard that holds
// the tournament; the protocol turns it into the `tournament` snapshot and into the archive's
// stored form (the same document plus what only the server may see, see
// quarto/protocol/encode_tournament.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "quarto/model/player.hpp"
#include <string_view>
#include <vector>

#include "quarto/core/clock.hpp"
#include "quarto/core/rules.hpp"
#include "quarto/model/bot_opponent.hpp"

namespace quarto::model {

using tournament_id = std::string;

enum class tournament_format : std::uint8_t { round_robin, swiss };
enum class tournament_status : std::uint8_t { registering, running, paused, finished };

// The wire's names ("round_robin", "swiss"; "registering", ...), also in the server's logs.
std::string_view to_string(tournament_format f);
std::string_view to_string(tournament_status s);

// The tournament rule: one minute per move.
inline constexpr clock_settings tournament_clock{milliseconds{60'000}, default_claim_window};

inline constexpr int min_tournament_players = 2;
inline constexpr int max_tournament_players = 64;
inline constexpr int default_max_players = 16;
inline constexpr int max_swiss_rounds = 20;
inline constexpr std::size_t max_tournament_name_length = 64; // bytes of UTF-8
// How far ahead start_at_ms may be: a year (366 days).
inline constexpr std::int64_t max_tournament_start_ahead_ms = 366LL * 24 * 3600 * 1000;
// Between the end of a round and the start of the next: time to read the last result, or to
// come back from another tab, before a clock runs again. 0: the next round starts at once.
inline constexpr int default_round_pause_seconds = 20;
inline constexpr int max_round_pause_seconds = 600;

struct tournament_settings {
    std::string name;
    tournament_format format = tournament_format::round_robin;
    int rounds = 0; // swiss: 0 until started means "as many as the field needs" (ceil log2 n)
    int games_per_pairing = 1;
    rules game_rules;
    clock_settings clock = tournament_clock;
    int max_players = default_max_players;
    std::optional<std::int64_t> start_at_ms; // unix time; the server starts it then
    int round_pause_seconds = default_round_pause_seconds;
    // Accounts only, each game rated; the Swiss is seeded by rating.
    bool rated = false;
};

struct tournament_entrant {
    std::string id;
    std::string name;
    bool active = true; // false once removed by the director (after the start)
    std::optional<bot_opponent> bot; // the computer, entered by the director (add_bot)
    // An account's rating in the tournament's pool when it registered, and again when the
    // tournament started; none for a guest and the computer.
    std::optional<shown_rating> rating{};
};

// One game of a pairing. `reason` is the game's end reason on the wire ("quarto", "timeout",
// ...), or "forfeit" when the director removed a player; empty while the game is played.
struct tournament_game {
    std::string room;
    std::string game;  // the archive's game id, once finished; empty for a forfeit
    int first = 0;     // 0 or 1: which of the pairing's players started
    bool finished = false;
    std::optional<int> winner; // 0 or 1 (the pairing's players); nullopt: draw
    std::string reason;
};

// A board of a round: players by index into the entrants; no second player is a bye.
struct tournament_pairing {
    int first = 0;
    std::optional<int> second;
    std::vector<tournament_game> games; // played or being played, in order
};

// A round is paired (and announced) as soon as the one before it ends; its games start
// `round_pause_seconds` later. Only the last round can be waiting.
struct tournament_round {
    int number = 1;
    std::vector<tournament_pairing> pairings;
    std::optional<std::int64_t> starts_at_ms; // unix time its games start; set only while it waits
};

struct tournament_record {
    tournament_id id;
    tournament_settings settings;
    std::string director;      // player id
    std::string director_name;
    tournament_status status = tournament_status::registering;
    std::vector<tournament_entrant> players;
    std::vector<tournament_round> rounds;
    std::int64_t created_ms = 0;
};

// Points of a pairing in half-points, from its finished games ({first, second}); a bye is a
// win for each game the pairing would have had.
std::array<int, 2> pairing_half_points(const tournament_pairing& p, int games_per_pairing);
// Every game of a pairing has a result (a bye is complete at once).
bool pairing_complete(const tournament_pairing& p, int games_per_pairing);

} // namespace quarto::model
