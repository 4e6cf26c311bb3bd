// The SQLite file's tables, version by version; see sqlite_schema.hpp.
#include "sqlite_schema.hpp"

#include <array>

#include <nlohmann/json.hpp>

#include "quarto/archive/token_hash.hpp"

namespace quarto::archive::sqlite {
namespace {

using step = statement::step_result;


// Version 1 -> 2: each game's moves, read in order from game_moves, become the text of
// games_v2.moves (see move_text.hpp). json_array writes that format for every well-formed v1
// row, and carries a row the v1 reader would have refused (an unknown kind, say) over as it
// was, so that its game still fails to read rather than failing the whole migration. The
// CASTs read the values as v1 did (sqlite3_column_int64 / _text).
bool fill_moves_column(database& db)
{
    auto moves = db.prepare("SELECT game_seq, json_array(CAST(kind AS TEXT), CAST(seat AS INTEGER), "
                            "CAST(value AS INTEGER), CAST(line AS INTEGER), CAST(t_ms AS INTEGER)) "
                            "FROM game_moves ORDER BY game_seq, n");
    auto update = db.prepare("UPDATE games_v2 SET moves = ?2 WHERE seq = ?1");
    if (!moves || !update) return false;
    const auto store = [&](std::int64_t seq, std::string& text) {
        text += ']';
        in_use u{*update};
        u->bind(1, seq).bind(2, text);
        return u->step() == step::done;
    };
    in_use s{*moves};
    std::optional<std::int64_t> seq; // the game whose moves `text` holds so far
    std::string text;
    for (;;) {
        const step r = s->step();
        if (r == step::error) return false;
        if (r == step::done) break;
        const std::int64_t row_seq = s->int_at(0);
        if (seq != row_seq) {
            if (seq && !store(*seq, text)) return false;
            seq = row_seq;
            text.clear();
            text += '[';
        } else {
            text += ',';
        }
        text += s->text_at(1);
    }
    return !seq || store(*seq, text);
}

// Version 2 -> 3: the tournaments' people kept their tokens in plain text; they keep the
// tokens' hashes instead ("token" becomes "token_hash", see token_hash.hpp). A state that is
// not the tournament code's JSON is left as it was (loading it reports it, as before).
bool replace_tokens_by_hashes(database& db)
{
    auto states = db.prepare("SELECT id, state FROM tournaments");
    auto update = db.prepare("UPDATE tournaments SET state = ?2 WHERE id = ?1");
    if (!states || !update) return false;
    in_use s{*states};
    for (;;) {
        const step r = s->step();
        if (r == step::error) return false;
        if (r == step::done) return true;
        nlohmann::json state = nlohmann::json::parse(s->text_at(1), nullptr, /*allow_exceptions=*/false);
        if (!state.is_object() || !state.contains("people") || !state["people"].is_array()) continue;
        for (auto& person : state["people"]) {
            if (!person.is_object() || !person.contains("token") || !person["token"].is_string()) continue;
            person["token_hash"] = token_hash(person["token"].get<std::string>());
            person.erase("token");
        }
        in_use u{*update};
        u->bind(1, s->text_at(0)).bind(2, state.dump());
        if (u->step() != step::done) return false;
    }
}

// secure_delete zeroes the space the old states free, so no token outlives them in the file.
bool hash_tournament_tokens(database& db)
{
    if (!db.exec("PRAGMA secure_delete = ON")) return false;
    const bool replaced = replace_tokens_by_hashes(db);
    return db.exec("PRAGMA secure_delete = OFF") && replaced;
}

// Migrations by version: migrations[v] brings a file from user_version v to v + 1. A schema
// change appends one; the existing ones never change.
//
// games: one row per finished game; `seq` is the archive order (the most recently finished
// game has the largest), `id` the public id. Players are two column pairs (a game always has
// exactly two seats) with a case-insensitive index each for the per-player listing.
// game_moves (version 1 only): core's move log, one row per accepted action (kind as core
// names it: give, place, call, pass, resign; value the piece or square; line the called
// squares as a mask).
// games.moves (from version 2): the same log as one text per game (move_text.hpp), so that a
// game is one row insert instead of one per move.
// tournaments: opaque JSON state by id for the tournament code (from version 3 its people's
// tokens are hashed).
constexpr std::array<migration, schema_version> migrations{{
    {R"sql(
CREATE TABLE games (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  room         TEXT NOT NULL,
  room_name    TEXT NOT NULL,
  player0_id   TEXT NOT NULL,
  player0_name TEXT NOT NULL,
  player1_id   TEXT NOT NULL,
  player1_name TEXT NOT NULL,
  squares      INTEGER NOT NULL CHECK (squares IN (0, 1)),
  attributes   INTEGER NOT NULL CHECK (attributes BETWEEN 1 AND 15),
  false_claim  TEXT NOT NULL CHECK (false_claim IN ('reject', 'lose')),
  move_ms      INTEGER,
  claim_ms     INTEGER NOT NULL,
  first_seat   INTEGER NOT NULL CHECK (first_seat IN (0, 1)),
  winner       INTEGER CHECK (winner IN (0, 1)),
  reason       TEXT NOT NULL,
  line         INTEGER NOT NULL,
  started_ms   INTEGER NOT NULL,
  ended_ms     INTEGER NOT NULL
);
CREATE INDEX games_by_player0 ON games (player0_name COLLATE NOCASE, seq);
CREATE INDEX games_by_player1 ON games (player1_name COLLATE NOCASE, seq);
CREATE TABLE game_moves (
  game_seq INTEGER NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
  n        INTEGER NOT NULL,
  kind     TEXT NOT NULL,
  seat     INTEGER NOT NULL CHECK (seat IN (0, 1)),
  value    INTEGER NOT NULL,
  line     INTEGER NOT NULL,
  t_ms     INTEGER NOT NULL,
  PRIMARY KEY (game_seq, n)
) WITHOUT ROWID;
CREATE TABLE tournaments (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  status     TEXT NOT NULL,
  state      TEXT NOT NULL,
  updated_ms INTEGER NOT NULL
);
)sql"},
    // SQLite's way to change a table: build the new one, copy, drop the old, rename. games_v2 is
    // games plus `moves`, NOT NULL without a default so that no insert can leave it out.
    {R"sql(
CREATE TABLE games_v2 (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  room         TEXT NOT NULL,
  room_name    TEXT NOT NULL,
  player0_id   TEXT NOT NULL,
  player0_name TEXT NOT NULL,
  player1_id   TEXT NOT NULL,
  player1_name TEXT NOT NULL,
  squares      INTEGER NOT NULL CHECK (squares IN (0, 1)),
  attributes   INTEGER NOT NULL CHECK (attributes BETWEEN 1 AND 15),
  false_claim  TEXT NOT NULL CHECK (false_claim IN ('reject', 'lose')),
  move_ms      INTEGER,
  claim_ms     INTEGER NOT NULL,
  first_seat   INTEGER NOT NULL CHECK (first_seat IN (0, 1)),
  winner       INTEGER CHECK (winner IN (0, 1)),
  reason       TEXT NOT NULL,
  line         INTEGER NOT NULL,
  started_ms   INTEGER NOT NULL,
  ended_ms     INTEGER NOT NULL,
  moves        TEXT NOT NULL
);
INSERT INTO games_v2
  SELECT seq, id, room, room_name, player0_id, player0_name, player1_id, player1_name, squares, attributes,
         false_claim, move_ms, claim_ms, first_seat, winner, reason, line, started_ms, ended_ms, '[]'
  FROM games;
)sql",
     fill_moves_column,
     // game_moves first, so that dropping games (foreign keys are on) has nothing to cascade into.
     R"sql(
DROP TABLE game_moves;
DROP TABLE games;
ALTER TABLE games_v2 RENAME TO games;
CREATE INDEX games_by_player0 ON games (player0_name COLLATE NOCASE, seq);
CREATE INDEX games_by_player1 ON games (player1_name COLLATE NOCASE, seq);
)sql"},
    {"", hash_tournament_tokens},
    // journal (from version 4): the live rooms' changes as a log, one row per commit holding
    // its entries (journal.cpp's format), in `seq` order; journal_cuts: per room, the entries
    // below `below_n` are no longer needed (rows left with none are deleted later). See
    // journal.hpp.
    {R"sql(
CREATE TABLE journal (
  seq     INTEGER PRIMARY KEY,
  entries BLOB NOT NULL
);
CREATE TABLE journal_cuts (
  room    TEXT PRIMARY KEY,
  below_n INTEGER NOT NULL
) WITHOUT ROWID;
)sql"},
    // game_analysis (from version 5): a cache of each game's analysis, computed on demand. No
    // foreign key to games: a cache need not hold a later migration that rebuilds games to its
    // rows (dropping games would cascade into it, or fail).
    {R"sql(
CREATE TABLE game_analysis (
  game_id     TEXT PRIMARY KEY,
  version     INTEGER NOT NULL,
  exact       INTEGER NOT NULL CHECK (exact IN (0, 1)),
  document    TEXT NOT NULL,
  computed_ms INTEGER NOT NULL
) WITHOUT ROWID;
)sql"},
    // node (from version 6): the cluster node a live room's journal rows and a tournament belong
    // to, in a PostgreSQL database that nodes share ('' for none). A file belongs to one server
    // and leaves it ''; the column keeps both engines' schemas alike.
    {R"sql(
ALTER TABLE journal ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE journal_cuts ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN node TEXT NOT NULL DEFAULT '';
CREATE TABLE quarto_fence (
  node  TEXT PRIMARY KEY,
  token INTEGER NOT NULL
) WITHOUT ROWID;
)sql"},
    // Accounts (from version 7): a guest who claims an account keeps its player id, so its
    // games (by player id) are the account's with no row rewritten. name_key (account_name_key)
    // makes names unique in any case of their ASCII letters; a deleted account has none (its
    // name is free again), no password hash and no sessions. sessions: by the hash of the
    // session's id (token_hash). ratings: one row per player and pool. rated_games: the games
    // whose result the ratings hold, so that each is applied once.
    {R"sql(
CREATE TABLE accounts (
  player_id     TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  name_key      TEXT UNIQUE,
  password_hash TEXT,
  created_ms    INTEGER NOT NULL,
  deleted       INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
) WITHOUT ROWID;
CREATE TABLE sessions (
  id_hash      TEXT PRIMARY KEY,
  player_id    TEXT NOT NULL REFERENCES accounts (player_id),
  created_ms   INTEGER NOT NULL,
  last_seen_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_by_player ON sessions (player_id);
CREATE TABLE ratings (
  player_id    TEXT NOT NULL,
  pool         TEXT NOT NULL CHECK (pool IN ('standard', 'advanced')),
  rating       REAL NOT NULL,
  deviation    REAL NOT NULL,
  volatility   REAL NOT NULL,
  games        INTEGER NOT NULL,
  last_game_ms INTEGER NOT NULL,
  PRIMARY KEY (player_id, pool)
) WITHOUT ROWID;
CREATE TABLE rated_games (
  game_id    TEXT PRIMARY KEY,
  applied_ms INTEGER NOT NULL
) WITHOUT ROWID;
)sql"},
    // Version 8: ratings by rating within a pool, for the leaderboard. rating_changes: what a
    // rated game did to each seat's rating, both sides whole so that the game reads back as it
    // was applied, and by player, pool and the game's end (at_ms) for the player's chart. The
    // games by player id: a profile counts its results, and an account's export lists its games.
    {R"sql(
CREATE INDEX ratings_by_pool ON ratings (pool, rating);
CREATE TABLE rating_changes (
  game_id             TEXT NOT NULL,
  seat                INTEGER NOT NULL CHECK (seat IN (0, 1)),
  player_id           TEXT NOT NULL,
  pool                TEXT NOT NULL CHECK (pool IN ('standard', 'advanced')),
  before_rating       REAL NOT NULL,
  before_deviation    REAL NOT NULL,
  before_volatility   REAL NOT NULL,
  before_games        INTEGER NOT NULL,
  before_last_game_ms INTEGER NOT NULL,
  after_rating        REAL NOT NULL,
  after_deviation     REAL NOT NULL,
  after_volatility    REAL NOT NULL,
  after_games         INTEGER NOT NULL,
  after_last_game_ms  INTEGER NOT NULL,
  at_ms               INTEGER NOT NULL,
  PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX rating_changes_by_player ON rating_changes (player_id, pool, at_ms);
CREATE INDEX games_by_player0_id ON games (player0_id, seq);
CREATE INDEX games_by_player1_id ON games (player1_id, seq);
)sql"},
}};

} // namespace

const migration& migration_to_next(int v)
{
    return migrations[static_cast<std::size_t>(v)];
}

} // namespace quarto::archive::sqlite
