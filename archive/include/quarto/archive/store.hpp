// What the archive keeps, whatever keeps it: finished games, the tournaments' stored state and
// games' analyses, behind one interface with two engines: an SQLite file (sqlite_store, the
// default) and a PostgreSQL database (postgres_store). Each is used synchronously from one
// thread (game_archive's); `open_store` picks the engine from what --db names.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "quarto/archive/accounts.hpp"
#include "quarto/archive/game_record.hpp"

namespace quarto::archive {

// The schema version this build writes (SQLite: PRAGMA user_version; PostgreSQL: the
// quarto_schema table). Older stores are migrated on open; newer ones are refused.
inline constexpr int schema_version = 8;

// Answers up to this many games per player query.
inline constexpr int max_games_per_query = 100;
// Answers up to this many points of a rating chart, lines of a leaderboard or tournaments of
// a player per query.
inline constexpr int max_rows_per_query = 500;

// A tournament's stored state. The archive does not read `state`: it is the JSON document the
// tournament code defines, stored and returned as text (only the migration to schema version 3
// rewrote it once, to hash its people's tokens).
struct stored_tournament {
    std::string id;
    std::string name;
    std::string status;
    std::string state;
    friend bool operator==(const stored_tournament&, const stored_tournament&) = default;
};

// A game's analysis as computed once (GET /api/games/{id}/analysis): the document the analysis
// code defines, kept as text, with the version of that code (a newer analysis replaces an older
// one) and whether every value in it is exact.
struct stored_analysis {
    std::string game;
    int version = 0;
    bool exact = false;
    std::string document;
    friend bool operator==(const stored_analysis&, const stored_analysis&) = default;
};

// An answer from the store. `failed`: the database could not answer (the reason has been
// logged) and `value` is empty; otherwise `value` is the answer (an empty optional or list is
// "nothing stored", not a failure).
template <class T>
struct archive_result {
    T value{};
    bool failed = false;
};

struct open_error {
    std::string message;
};

// When an SQLite file's commit reaches the disk. `each_commit`: before it returns (an fsync
// each; synchronous=FULL). `by_journal`: within a second, by the syncer of the journal that
// shares the file (journal.hpp; synchronous=NORMAL), which spares the game archive's commits
// their fsync and the journal its waits behind them. A power cut then loses at most the last
// second, and nothing of a finished game: the log it shares with the journal comes back as a
// prefix of its commits, and the journal keeps a game's entries until the archive has
// committed it (the server's rule), so a game whose commit was lost is restored from them and
// archived again. PostgreSQL has its own rules and ignores this.
enum class file_sync { each_commit, by_journal };

class store {
public:
    virtual ~store() = default;

    // Where the store is: the file's path, or the database's address without its password.
    virtual const std::string& location() const = 0;
    // The schema version the store holds now.
    virtual int version() = 0;

    // One transaction for all the games, each game with all its moves or nothing: a game that
    // cannot be stored (e.g. its id is taken) is undone alone and the others are kept. The
    // answer says, by position, which games are stored; failures are logged. If the
    // transaction itself cannot begin or commit, no game is stored.
    // A record with `ratings` applies them in the same transaction, once per game id (a game
    // stored again changes no rating): both seats' ratings become their `after`, and each
    // change is kept for the players' charts (rating_history). When a seat's stored rating is
    // not the `before` the record holds (another rated game of the player was stored in
    // between), both changes are computed again from the stored ratings (rating::after_game),
    // and the record is stored with what was applied.
    virtual std::vector<bool> save_games(std::span<const game_record> records) = 0;
    // save_games of one game.
    bool save_game(const game_record& record) { return save_games({&record, 1}).front(); }
    virtual archive_result<std::optional<game_record>> find_game(std::string_view id) = 0;
    // The games `name` played (either seat; ASCII letters compared without case), the most
    // recently finished first; `limit` 1..max_games_per_query, skipping the `offset` most recent.
    virtual archive_result<std::vector<game_record>> games_of_player(std::string_view name, int limit,
                                                                     int offset = 0) = 0;

    // Insert or replace by id.
    virtual bool save_tournament(const stored_tournament& t) = 0;
    // True also when there was none.
    virtual bool delete_tournament(std::string_view id) = 0;
    virtual archive_result<std::vector<stored_tournament>> load_tournaments() = 0;
    virtual archive_result<std::optional<stored_tournament>> find_tournament(std::string_view id) = 0;

    // Insert or replace by game id.
    virtual bool save_analysis(const stored_analysis& a) = 0;
    virtual archive_result<std::optional<stored_analysis>> find_analysis(std::string_view game) = 0;

    // Accounts, sessions and ratings (accounts.hpp). `now` is Unix ms. A session is known by
    // its id's hash (token_hash of the 128-bit id): the id itself is never stored.
    // A deleted account's player id cannot have an account again.
    virtual archive_result<account_creation> create_account(std::string_view player_id, std::string_view name,
                                                            std::string_view password_hash, std::int64_t now) = 0;
    // By name, ASCII letters in any case (account_name_key); none for a deleted account.
    virtual archive_result<std::optional<stored_account>> find_account_by_name(std::string_view name) = 0;
    // Whether an account (not deleted) has this name in any case: a guest cannot take it.
    virtual archive_result<bool> name_is_account(std::string_view name) = 0;
    // Replaces the hash and ends every session of the account but `keep_session_hash` (empty:
    // all of them). False when there is no such account (or it is deleted).
    virtual archive_result<bool> set_password(std::string_view player_id, std::string_view password_hash,
                                              std::string_view keep_session_hash) = 0;
    // False when there is no such account (or it is deleted), or the hash is taken.
    virtual archive_result<bool> add_session(std::string_view id_hash, std::string_view player_id, std::int64_t now) = 0;
    // The session's account, its last_seen_ms set to `now`; none when the session has ended.
    virtual archive_result<std::optional<std::string>> find_session(std::string_view id_hash, std::int64_t now) = 0;
    // True also when there was none (logging out twice is no failure).
    virtual bool end_session(std::string_view id_hash) = 0;
    virtual bool end_sessions(std::string_view player_id) = 0;
    // The player's ratings, by pool name; empty before a first rated game.
    virtual archive_result<std::vector<stored_rating>> ratings_of(std::string_view player_id) = 0;
    // Records `game_id` as rated and writes both players' new ratings, in one transaction:
    // a game's result is applied once, and a second apply of the same game changes nothing.
    virtual archive_result<rated_game_outcome> apply_rated_game(std::string_view game_id, const rating_update& first,
                                                                const rating_update& second, std::int64_t now) = 0;
    // Removes the personal data: the name becomes deleted_player_name (in the account and in
    // its games, which are kept with their player id), the password hash and the sessions go.
    // The ratings stay, as the games they come from do. False when there was no such account.
    virtual archive_result<bool> delete_account(std::string_view player_id) = 0;
    // Everything stored about the account; none when there is no such account.
    virtual archive_result<std::optional<account_export>> export_account(std::string_view player_id) = 0;
    // The account of a player id; none when it has none (or it is deleted).
    virtual archive_result<std::optional<stored_account>> find_account(std::string_view player_id) = 0;
    // The player of that name (ASCII letters in any case): the account that has it, else the
    // guest of the most recent game played under it; none when neither. The results count the
    // games of that player id.
    virtual archive_result<std::optional<player_profile>> find_player(std::string_view name) = 0;
    // The player's rating after each of their rated games in `pool`, oldest first: the most
    // recent `limit` (1..max_rows_per_query) of them.
    virtual archive_result<std::vector<rating_point>> rating_history(std::string_view player_id, rating::pool pool,
                                                                     int limit) = 0;
    // The best `limit` (1..max_rows_per_query) ratings of the pool, best first, leaving out
    // provisional ones (rating::provisional, as stored) and players without an account (or
    // with a deleted one).
    virtual archive_result<std::vector<leaderboard_entry>> leaderboard(rating::pool pool, int limit) = 0;
    // The tournaments the player played in (their state names the player id), the most
    // recently updated first, `limit` 1..max_rows_per_query; `state` is left empty.
    virtual archive_result<std::vector<stored_tournament>> tournaments_of_player(std::string_view player_id,
                                                                                 int limit) = 0;

    // Write transactions committed since open. Unlike the rest, it may be read from any thread.
    virtual std::uint64_t commits() const = 0;
};

// A PostgreSQL address (postgresql://… or postgres://…) opens a postgres_store; anything else
// is an SQLite file's path.
bool is_postgres_address(std::string_view where);
// `node`: the cluster node this server is (--node-id with --redis), or empty. A PostgreSQL
// database that several nodes share keeps each node's tournaments (and journal) apart: a node
// loads only its own, and takes those of no node (written before it was one) as its own.
// An SQLite file belongs to one server: `node` is not used.
std::variant<std::unique_ptr<store>, open_error> open_store(const std::string& where, const std::string& node = {},
                                                           file_sync sync = file_sync::each_commit);

} // namespace quarto::archive
