#include "quarto/archive/sqlite_store.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <system_error>

#include <spdlog/spdlog.h>

#include "game_row.hpp"
#include "sqlite_schema.hpp"
#include "sqlite_store_impl.hpp"

namespace quarto::archive {
namespace {

using sqlite::statement;
using step = sqlite::statement::step_result;


std::int64_t now_ms()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace


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
        const sqlite::migration& m = sqlite::migration_to_next(v);
        if (!t.began() || !db->exec(m.sql) || (m.convert && !m.convert(*db)) || (m.sql_after && !db->exec(m.sql_after)) ||
            !db->exec(set_version.c_str()) || !t.commit())
            return fail("cannot migrate the schema to version " + std::to_string(v + 1) + " in");
        spdlog::info("archive {}: schema version {}", path, v + 1);
    }

    auto i = std::make_unique<impl>();
    i->path = path;
    i->db = std::move(*db);
    const std::string columns = detail::game_columns;
    const std::string read_columns = columns + ", " + detail::rating_columns;
    struct query {
        statement* target;
        std::string sql;
    };
    const query queries[] = {
        {&i->insert_game,
         "INSERT INTO games (" + columns + ") "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"},
        {&i->select_game, "SELECT " + read_columns + " FROM games" + detail::rating_joins + " WHERE games.id = ?1"},
        {&i->select_by_player, "SELECT " + read_columns + " FROM games" + detail::rating_joins +
                                   " WHERE player0_name = ?1 COLLATE NOCASE OR player1_name = ?1 COLLATE "
                                   "NOCASE ORDER BY seq DESC LIMIT ?2 OFFSET ?3"},
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
    if (!i->prepare_account_statements() || !i->prepare_rating_statements())
        return open_error{"cannot prepare a query on " + path + ": " + i->db.last_error()};
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
        // The game's ratings under its savepoint: a game that cannot be stored (its id taken,
        // stored before) changes no rating, and ratings that cannot be written undo the game.
        if (m.insert_game_row(records[i]) && m.apply_game_ratings(records[i])) {
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

archive_result<std::vector<game_record>> sqlite_store::games_of_player(std::string_view name, int limit, int offset)
{
    sqlite::in_use s{impl_->select_by_player};
    s->bind(1, name).bind(2, std::clamp(limit, 1, max_games_per_query)).bind(3, std::max(offset, 0));
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
