#include "quarto/archive/sqlite_store.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <system_error>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "quarto/archive/token_hash.hpp"
#include "game_row.hpp"
#include "sqlite_db.hpp"

namespace quarto::archive {
namespace {

using sqlite::statement;
using step = sqlite::statement::step_result;

// One step of the schema, run in the transaction that sets user_version: `sql`, then (when
// present) `convert` for what SQL alone cannot do, then `sql_after`.
struct migration {
    const char* sql;
    bool (*convert)(sqlite::database&) = nullptr;
    const char* sql_after = nullptr;
};

// Version 1 -> 2: each game's moves, read in order from game_moves, become the text of
// games_v2.moves (see move_text.hpp). json_array writes that format for every well-formed v1
// row, and carries a row the v1 reader would have refused (an unknown kind, say) over as it
// was, so that its game still fails to read rather than failing the whole migration. The
// CASTs read the values as v1 did (sqlite3_column_int64 / _text).
bool fill_moves_column(sqlite::database& db)
{
    auto moves = db.prepare("SELECT game_seq, json_array(CAST(kind AS TEXT), CAST(seat AS INTEGER), "
                            "CAST(value AS INTEGER), CAST(line AS INTEGER), CAST(t_ms AS INTEGER)) "
                            "FROM game_moves ORDER BY game_seq, n");
    auto update = db.prepare("UPDATE games_v2 SET moves = ?2 WHERE seq = ?1");
    if (!moves || !update) return false;
    const auto store = [&](std::int64_t seq, std::string& text) {
        text += ']';
        sqlite::in_use u{*update};
        u->bind(1, seq).bind(2, text);
        return u->step() == step::done;
    };
    sqlite::in_use s{*moves};
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
bool replace_tokens_by_hashes(sqlite::database& db)
{
    auto states = db.prepare("SELECT id, state FROM tournaments");
    auto update = db.prepare("UPDATE tournaments SET state = ?2 WHERE id = ?1");
    if (!states || !update) return false;
    sqlite::in_use s{*states};
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
        sqlite::in_use u{*update};
        u->bind(1, s->text_at(0)).bind(2, state.dump());
        if (u->step() != step::done) return false;
    }
}

// secure_delete zeroes the space the old states free, so no token outlives them in the file.
bool hash_tournament_tokens(sqlite::database& db)
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
}};

std::int64_t now_ms()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace

struct sqlite_store::impl {
    std::string path;
    sqlite::database db; // declared before the statements: they are finalized first
    statement insert_game, select_game, select_by_player;
    statement upsert_tournament, select_tournaments, select_tournament, delete_tournament;
    statement upsert_analysis, select_analysis;
    sqlite::savepoint_statements game_savepoint; // around each game of a batch
    std::atomic<std::uint64_t> commits{0}; // read by other threads (game_archive::commits)

    void log_failure(std::string_view what) { spdlog::error("archive {}: {}: {}", path, what, db.last_error()); }

    // The game's row, moves and all, in the transaction under way. False (logged) when it
    // fails; the caller undoes what was written.
    bool insert_game_row(const game_record& r)
    {
        const detail::game_row row = detail::row_of(r);
        sqlite::in_use s{insert_game};
        s->bind(1, row.id).bind(2, row.room).bind(3, row.room_name);
        s->bind(4, row.player0_id).bind(5, row.player0_name).bind(6, row.player1_id).bind(7, row.player1_name);
        s->bind(8, row.squares ? 1 : 0).bind(9, row.attributes).bind(10, row.false_claim);
        if (row.move_ms) s->bind(11, *row.move_ms);
        else s->bind_null(11);
        s->bind(12, row.claim_ms).bind(13, row.first_seat);
        if (row.winner) s->bind(14, *row.winner);
        else s->bind_null(14);
        s->bind(15, row.reason).bind(16, row.line).bind(17, row.started_ms).bind(18, row.ended_ms);
        s->bind(19, row.moves);
        if (s->step() != step::done) {
            log_failure("storing game " + r.id);
            return false;
        }
        return true;
    }

    // The games row the statement stands on (columns as in game_columns), or nullopt (logged)
    // when it holds something this server cannot read.
    std::optional<game_record> game_from_row(const statement& s) const
    {
        detail::game_row row;
        row.id = s.text_at(0);
        row.room = s.text_at(1);
        row.room_name = s.text_at(2);
        row.player0_id = s.text_at(3);
        row.player0_name = s.text_at(4);
        row.player1_id = s.text_at(5);
        row.player1_name = s.text_at(6);
        row.squares = s.int_at(7) != 0;
        row.attributes = s.int_at(8);
        row.false_claim = s.text_at(9);
        if (!s.null_at(10)) row.move_ms = s.int_at(10);
        row.claim_ms = s.int_at(11);
        row.first_seat = s.int_at(12);
        if (!s.null_at(13)) row.winner = s.int_at(13);
        row.reason = s.text_at(14);
        row.line = s.int_at(15);
        row.started_ms = s.int_at(16);
        row.ended_ms = s.int_at(17);
        row.moves = s.text_at(18);
        return detail::record_of(std::move(row), path);
    }

    // Reads every row of a games query, each with its moves; failed if any row cannot be read.
    archive_result<std::vector<game_record>> read_games(statement& s)
    {
        archive_result<std::vector<game_record>> out;
        for (;;) {
            const step r = s.step();
            if (r == step::done) return out;
            if (r == step::error) {
                log_failure("reading games");
                return {{}, true};
            }
            auto game = game_from_row(s);
            if (!game) return {{}, true};
            out.value.push_back(std::move(*game));
        }
    }

    static stored_tournament tournament_from_row(const statement& s)
    {
        return {s.text_at(0), s.text_at(1), s.text_at(2), s.text_at(3)};
    }
};

sqlite_store::sqlite_store(std::unique_ptr<impl> i) : impl_{std::move(i)} {}
sqlite_store::~sqlite_store() = default;
sqlite_store::sqlite_store(sqlite_store&&) noexcept = default;
sqlite_store& sqlite_store::operator=(sqlite_store&&) noexcept = default;

std::variant<sqlite_store, open_error> sqlite_store::open(const std::string& path, file_sync sync)
{
    if (path.empty()) return open_error{"no database path given"};
    const std::filesystem::path file{path};
    if (file.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(file.parent_path(), ec);
        if (ec) return open_error{"cannot create directory " + file.parent_path().string() + ": " + ec.message()};
    }
    std::string error;
    auto db = sqlite::database::open(path, error);
    if (!db) return open_error{"cannot open " + path + ": " + error};
    const auto fail = [&](std::string_view what) { return open_error{std::string{what} + " " + path + ": " + db->last_error()}; };

    // Wait for a lock another connection holds (the journal's, or the sqlite3 shell's) instead
    // of failing at once.
    db->retry_when_busy(std::chrono::milliseconds{5000}, std::chrono::milliseconds{1});
    // user_version reads the file header: the first thing that fails on a file that is not a
    // database.
    const auto version_text = db->query_text("PRAGMA user_version");
    if (!version_text) return fail("cannot read");
    const int version = std::stoi(*version_text);
    if (version > schema_version)
        return open_error{path + " has schema version " + std::to_string(version) + ", newer than this server's " +
                          std::to_string(schema_version) + "; use a newer quarto-server"};

    // WAL: readers never wait for the writer; FULL: a committed game survives a power cut too
    // (one fsync per commit; game_archive commits the games that queued up together), unless
    // the journal's syncer flushes the file (file_sync).
    const auto mode = db->query_text("PRAGMA journal_mode = WAL");
    if (!mode || *mode != "wal") return fail("cannot switch to WAL mode:");
    const char* synchronous = sync == file_sync::by_journal ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL";
    // With the journal on, this connection's checkpoints copy the journal's pages too. The journal
    // reuses the pages of the rows it deletes, so one page comes into the log many times between
    // two checkpoints, and a checkpoint copies it once: every 8,000 frames (about 32 MiB, half
    // the journal's max_log_bytes) instead of SQLite's 1,000 took this thread's CPU at 1000 rooms
    // down by a fifth at a closed loop and by a third at 100 ms think time
    // (bench/RESULTS.md, "The journal of live rooms").
    if (!db->exec(synchronous) || !db->exec("PRAGMA foreign_keys = ON") ||
        (sync == file_sync::by_journal && !db->exec("PRAGMA wal_autocheckpoint = 8000")))
        return fail("cannot configure");

    for (int v = version; v < schema_version; ++v) {
        sqlite::transaction t{*db};
        const std::string set_version = "PRAGMA user_version = " + std::to_string(v + 1);
        const migration& m = migrations[static_cast<std::size_t>(v)];
        if (!t.began() || !db->exec(m.sql) || (m.convert && !m.convert(*db)) || (m.sql_after && !db->exec(m.sql_after)) ||
            !db->exec(set_version.c_str()) || !t.commit())
            return fail("cannot migrate the schema to version " + std::to_string(v + 1) + " in");
        spdlog::info("archive {}: schema version {}", path, v + 1);
    }

    auto i = std::make_unique<impl>();
    i->path = path;
    i->db = std::move(*db);
    const std::string columns = detail::game_columns;
    struct query {
        statement* target;
        std::string sql;
    };
    const query queries[] = {
        {&i->insert_game,
         "INSERT INTO games (" + columns + ") "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"},
        {&i->select_game, "SELECT " + columns + " FROM games WHERE id = ?1"},
        {&i->select_by_player, "SELECT " + columns +
                                   " FROM games WHERE player0_name = ?1 COLLATE NOCASE OR player1_name = ?1 COLLATE "
                                   "NOCASE ORDER BY seq DESC LIMIT ?2"},
        {&i->upsert_tournament,
         "INSERT INTO tournaments (id, name, status, state, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5) "
         "ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, state = excluded.state, "
         "updated_ms = excluded.updated_ms"},
        {&i->select_tournaments, "SELECT id, name, status, state FROM tournaments ORDER BY id"},
        {&i->select_tournament, "SELECT id, name, status, state FROM tournaments WHERE id = ?1"},
        {&i->delete_tournament, "DELETE FROM tournaments WHERE id = ?1"},
        {&i->upsert_analysis,
         "INSERT INTO game_analysis (game_id, version, exact, document, computed_ms) VALUES (?1, ?2, ?3, ?4, ?5) "
         "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, exact = excluded.exact, "
         "document = excluded.document, computed_ms = excluded.computed_ms"},
        {&i->select_analysis, "SELECT game_id, version, exact, document FROM game_analysis WHERE game_id = ?1"},
    };
    for (const auto& q : queries) {
        auto s = i->db.prepare(q.sql);
        if (!s) return open_error{"cannot prepare a query on " + path + ": " + i->db.last_error()};
        *q.target = std::move(*s);
    }
    auto savepoint = sqlite::savepoint_statements::prepare(i->db, "game");
    if (!savepoint) return open_error{"cannot prepare a savepoint on " + path + ": " + i->db.last_error()};
    i->game_savepoint = std::move(*savepoint);
    return sqlite_store{std::move(i)};
}

const std::string& sqlite_store::path() const
{
    return impl_->path;
}

std::uint64_t sqlite_store::commits() const
{
    return impl_->commits.load(std::memory_order_relaxed);
}

int sqlite_store::version()
{
    const auto text = impl_->db.query_text("PRAGMA user_version");
    return text ? std::stoi(*text) : -1;
}

std::vector<bool> sqlite_store::save_games(std::span<const game_record> records)
{
    impl& m = *impl_;
    const auto none_stored = [&] { return std::vector<bool>(records.size(), false); };
    if (records.empty()) return {};
    const std::string what = records.size() == 1 ? "game " + records.front().id
                                                 : std::to_string(records.size()) + " games";
    sqlite::transaction t{m.db};
    if (!t.began()) {
        m.log_failure("beginning the transaction of " + what);
        return none_stored();
    }
    std::vector<bool> stored(records.size(), false);
    for (std::size_t i = 0; i < records.size(); ++i) {
        sqlite::savepoint one_game{m.game_savepoint};
        if (!one_game.began()) {
            m.log_failure("setting a savepoint for game " + records[i].id);
            return none_stored();
        }
        if (m.insert_game_row(records[i])) {
            if (one_game.release()) {
                stored[i] = true;
                continue;
            }
            m.log_failure("releasing the savepoint of game " + records[i].id);
        }
        // A failed statement may have made SQLite roll the whole transaction back (a full disk,
        // an I/O error): the games before this one are gone then, and the ones after it must
        // not be written outside a transaction.
        if (!one_game.roll_back() || !m.db.in_transaction()) {
            m.log_failure("undoing game " + records[i].id + " alone (the transaction of " + what + " is lost)");
            return none_stored();
        }
    }
    if (!t.commit()) {
        m.log_failure("committing " + what);
        return none_stored();
    }
    m.commits.fetch_add(1, std::memory_order_relaxed);
    return stored;
}

archive_result<std::optional<game_record>> sqlite_store::find_game(std::string_view id)
{
    sqlite::in_use s{impl_->select_game};
    s->bind(1, id);
    auto found = impl_->read_games(*s);
    if (found.failed) return {{}, true};
    if (found.value.empty()) return {};
    return {std::move(found.value.front()), false};
}

archive_result<std::vector<game_record>> sqlite_store::games_of_player(std::string_view name, int limit)
{
    sqlite::in_use s{impl_->select_by_player};
    s->bind(1, name).bind(2, std::clamp(limit, 1, max_games_per_query));
    return impl_->read_games(*s);
}

bool sqlite_store::save_tournament(const stored_tournament& t)
{
    sqlite::in_use s{impl_->upsert_tournament};
    s->bind(1, t.id).bind(2, t.name).bind(3, t.status).bind(4, t.state).bind(5, now_ms());
    if (s->step() == step::done) {
        impl_->commits.fetch_add(1, std::memory_order_relaxed); // a statement of its own: autocommit
        return true;
    }
    impl_->log_failure("storing tournament " + t.id);
    return false;
}

bool sqlite_store::delete_tournament(std::string_view id)
{
    sqlite::in_use s{impl_->delete_tournament};
    s->bind(1, id);
    if (s->step() == step::done) {
        impl_->commits.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    impl_->log_failure("deleting tournament " + std::string{id});
    return false;
}

archive_result<std::vector<stored_tournament>> sqlite_store::load_tournaments()
{
    sqlite::in_use s{impl_->select_tournaments};
    archive_result<std::vector<stored_tournament>> out;
    for (;;) {
        const step r = s->step();
        if (r == step::done) return out;
        if (r == step::error) {
            impl_->log_failure("reading tournaments");
            return {{}, true};
        }
        out.value.push_back(impl::tournament_from_row(*s));
    }
}

archive_result<std::optional<stored_tournament>> sqlite_store::find_tournament(std::string_view id)
{
    sqlite::in_use s{impl_->select_tournament};
    s->bind(1, id);
    switch (s->step()) {
    case step::row: return {impl::tournament_from_row(*s), false};
    case step::done: return {};
    case step::error: break;
    }
    impl_->log_failure("reading tournament " + std::string{id});
    return {{}, true};
}

bool sqlite_store::save_analysis(const stored_analysis& a)
{
    sqlite::in_use s{impl_->upsert_analysis};
    s->bind(1, a.game).bind(2, std::int64_t{a.version}).bind(3, std::int64_t{a.exact ? 1 : 0}).bind(4, a.document);
    s->bind(5, now_ms());
    if (s->step() == step::done) {
        impl_->commits.fetch_add(1, std::memory_order_relaxed); // autocommit, as for tournaments
        return true;
    }
    impl_->log_failure("storing the analysis of game " + a.game);
    return false;
}

archive_result<std::optional<stored_analysis>> sqlite_store::find_analysis(std::string_view game)
{
    sqlite::in_use s{impl_->select_analysis};
    s->bind(1, game);
    switch (s->step()) {
    case step::row:
        return {stored_analysis{s->text_at(0), static_cast<int>(s->int_at(1)), s->int_at(2) != 0, s->text_at(3)}, false};
    case step::done: return {};
    case step::error: break;
    }
    impl_->log_failure("reading the analysis of game " + std::string{game});
    return {{}, true};
}

} // namespace quarto::archive
