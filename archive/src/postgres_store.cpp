#include "quarto/archive/postgres_store.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>

#include <libpq-fe.h>
#include <spdlog/spdlog.h>

#include "postgres_store_impl.hpp"

namespace quarto::archive {
namespace {

// The tables of schema version 5, the first this engine has: the SQLite file's, in
// PostgreSQL's types. Later versions add steps to `migrations`, as the SQLite file does.
//
// games.seq orders the games as they were stored; player names are compared as SQLite's
// NOCASE does, ASCII letters only (detail::ascii_lower_*), through an index each. journal and
// journal_cuts are the live rooms' log (journal.hpp), as in the file.
using detail::ascii_lower_param;
using detail::ascii_lower_player0;
using detail::ascii_lower_player1;

constexpr int first_version = 5;

std::string version_5_schema()
{
    return std::string{R"sql(
CREATE TABLE games (
  seq          BIGSERIAL PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  room         TEXT NOT NULL,
  room_name    TEXT NOT NULL,
  player0_id   TEXT NOT NULL,
  player0_name TEXT NOT NULL,
  player1_id   TEXT NOT NULL,
  player1_name TEXT NOT NULL,
  squares      BOOLEAN NOT NULL,
  attributes   SMALLINT NOT NULL CHECK (attributes BETWEEN 1 AND 15),
  false_claim  TEXT NOT NULL CHECK (false_claim IN ('reject', 'lose')),
  move_ms      BIGINT,
  claim_ms     BIGINT NOT NULL,
  first_seat   SMALLINT NOT NULL CHECK (first_seat IN (0, 1)),
  winner       SMALLINT CHECK (winner IN (0, 1)),
  reason       TEXT NOT NULL,
  line         INTEGER NOT NULL,
  started_ms   BIGINT NOT NULL,
  ended_ms     BIGINT NOT NULL,
  moves        TEXT NOT NULL
);
CREATE INDEX games_by_player0 ON games ()sql"} +
           ascii_lower_player0 + ", seq);\nCREATE INDEX games_by_player1 ON games (" + ascii_lower_player1 + R"sql(, seq);
CREATE TABLE tournaments (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  status     TEXT NOT NULL,
  state      TEXT NOT NULL,
  updated_ms BIGINT NOT NULL
);
CREATE TABLE journal (
  seq     BIGSERIAL PRIMARY KEY,
  entries BYTEA NOT NULL
);
CREATE TABLE journal_cuts (
  room    TEXT PRIMARY KEY,
  below_n BIGINT NOT NULL
);
CREATE TABLE game_analysis (
  game_id     TEXT PRIMARY KEY,
  version     INTEGER NOT NULL,
  exact       BOOLEAN NOT NULL,
  document    TEXT NOT NULL,
  computed_ms BIGINT NOT NULL
);
)sql";
}

// migrations[v - first_version] brings a database from version v to v + 1.
//
// Version 6: `node`, the cluster node a live room's journal rows and a tournament belong to
// ('' for none): nodes sharing the database each load their own. quarto_fence: each node's
// fencing token; a node whose rows another has taken over is fenced (token -1), and its
// journal's transactions fail from then on.
// Version 7: accounts, their sessions and ratings, and the rated games. Version 8: the ratings
// by pool, what each rated game did to its players' ratings, and the games by player id. As in
// the SQLite file (sqlite_schema.cpp says what each holds).
constexpr std::array<const char*, schema_version - first_version> migrations{
    R"sql(
ALTER TABLE journal ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE journal_cuts ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN node TEXT NOT NULL DEFAULT '';
CREATE INDEX journal_by_node ON journal (node, seq);
CREATE TABLE quarto_fence (
  node  TEXT PRIMARY KEY,
  token BIGINT NOT NULL
);
)sql",
    R"sql(
CREATE TABLE accounts (
  player_id     TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  name_key      TEXT UNIQUE,
  password_hash TEXT,
  created_ms    BIGINT NOT NULL,
  deleted       BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE sessions (
  id_hash      TEXT PRIMARY KEY,
  player_id    TEXT NOT NULL REFERENCES accounts (player_id),
  created_ms   BIGINT NOT NULL,
  last_seen_ms BIGINT NOT NULL
);
CREATE INDEX sessions_by_player ON sessions (player_id);
CREATE TABLE ratings (
  player_id    TEXT NOT NULL,
  pool         TEXT NOT NULL CHECK (pool IN ('standard', 'advanced')),
  rating       DOUBLE PRECISION NOT NULL,
  deviation    DOUBLE PRECISION NOT NULL,
  volatility   DOUBLE PRECISION NOT NULL,
  games        INTEGER NOT NULL,
  last_game_ms BIGINT NOT NULL,
  PRIMARY KEY (player_id, pool)
);
CREATE TABLE rated_games (
  game_id    TEXT PRIMARY KEY,
  applied_ms BIGINT NOT NULL
);
)sql",
    R"sql(
CREATE INDEX ratings_by_pool ON ratings (pool, rating);
CREATE TABLE rating_changes (
  game_id             TEXT NOT NULL,
  seat                SMALLINT NOT NULL CHECK (seat IN (0, 1)),
  player_id           TEXT NOT NULL,
  pool                TEXT NOT NULL CHECK (pool IN ('standard', 'advanced')),
  before_rating       DOUBLE PRECISION NOT NULL,
  before_deviation    DOUBLE PRECISION NOT NULL,
  before_volatility   DOUBLE PRECISION NOT NULL,
  before_games        INTEGER NOT NULL,
  before_last_game_ms BIGINT NOT NULL,
  after_rating        DOUBLE PRECISION NOT NULL,
  after_deviation     DOUBLE PRECISION NOT NULL,
  after_volatility    DOUBLE PRECISION NOT NULL,
  after_games         INTEGER NOT NULL,
  after_last_game_ms  BIGINT NOT NULL,
  at_ms               BIGINT NOT NULL,
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player_id, pool, at_ms);
CREATE INDEX games_by_player0_id ON games (player0_id, seq);
CREATE INDEX games_by_player1_id ON games (player1_id, seq);
)sql",
};

std::int64_t now_ms()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

using result = detail::pg_result;
using parameters = detail::pg_parameters;

} // namespace


std::string without_password(std::string_view address)
{
    std::string out{address};
    // user:password@ before the host.
    if (const auto scheme = out.find("://"); scheme != std::string::npos) {
        const auto at = out.find('@', scheme + 3);
        const auto path = out.find_first_of("/?", scheme + 3);
        const auto colon = out.find(':', scheme + 3);
        if (at != std::string::npos && (path == std::string::npos || at < path) && colon < at)
            out.replace(colon + 1, at - colon - 1, "***");
    }
    // password=… among the parameters.
    for (auto p = out.find("password="); p != std::string::npos; p = out.find("password=", p + 1)) {
        if (p > 0 && out[p - 1] != '?' && out[p - 1] != '&') continue;
        const auto value = p + 9;
        const auto end = out.find('&', value);
        out.replace(value, (end == std::string::npos ? out.size() : end) - value, "***");
    }
    return out;
}


postgres_store::postgres_store(std::unique_ptr<impl> i) : impl_{std::move(i)} {}
postgres_store::~postgres_store() = default;

std::variant<std::unique_ptr<postgres_store>, open_error> postgres_store::open(const std::string& address,
                                                                              const std::string& node)
{
    auto i = std::make_unique<impl>();
    i->location = without_password(address);
    i->connection = PQconnectdb(address.c_str());
    if (PQstatus(i->connection) != CONNECTION_OK) return open_error{"cannot connect to " + i->location + ": " + i->last_error()};
    const auto fail = [&](std::string_view what) { return open_error{std::string{what} + " " + i->location + ": " + i->last_error()}; };
    // Notices (e.g. "relation already exists, skipping") are not the operator's business.
    PQsetNoticeProcessor(i->connection, [](void*, const char*) {}, nullptr);

    // The version and the migration in one transaction, under a lock that makes a second
    // server opening the same database at the same moment wait for this one's instead of
    // racing it (the key is arbitrary, and the same for every quarto-server).
    if (!i->exec("BEGIN") || !i->exec("SELECT pg_advisory_xact_lock(1953653359)"))
        return fail("cannot lock the schema of");
    if (!i->exec("CREATE TABLE IF NOT EXISTS quarto_schema (version INTEGER NOT NULL)"))
        return fail("cannot create the schema table in");
    int version = 0;
    {
        const result r{PQexec(i->connection, "SELECT version FROM quarto_schema")};
        if (!r.ok()) return fail("cannot read the schema version of");
        if (r.rows() > 0) version = static_cast<int>(r.int_at(0, 0));
    }
    if (version > schema_version) {
        i->exec("ROLLBACK");
        return open_error{i->location + " has schema version " + std::to_string(version) + ", newer than this server's " +
                          std::to_string(schema_version) + "; use a newer quarto-server"};
    }
    if (version > 0 && version < first_version) {
        i->exec("ROLLBACK");
        return open_error{i->location + " has schema version " + std::to_string(version) +
                          ", older than any this engine wrote: not a quarto-server database"};
    }
    if (version == 0) {
        if (!i->exec(version_5_schema()) || !i->exec("INSERT INTO quarto_schema (version) VALUES (" + std::to_string(first_version) + ")"))
            return fail("cannot create the tables in");
        version = first_version;
        spdlog::info("archive {}: schema version {}", i->location, version);
    }
    for (int v = version; v < schema_version; ++v) {
        if (!i->exec(migrations[static_cast<std::size_t>(v - first_version)]) ||
            !i->exec("UPDATE quarto_schema SET version = " + std::to_string(v + 1)))
            return fail("cannot migrate the schema to version " + std::to_string(v + 1) + " in");
        spdlog::info("archive {}: schema version {}", i->location, v + 1);
    }
    // Tournaments stored before this server was a node are its own from now on.
    if (!node.empty()) {
        const result r{parameters{}.add(node).run_sql(i->connection, "UPDATE tournaments SET node = $1 WHERE node = ''")};
        if (!r.ok()) return fail("cannot take the tournaments of no node in");
    }
    if (!i->exec("COMMIT")) return fail("cannot commit the schema of");
    i->node = node;

    const std::string columns = detail::game_columns;
    const std::string read_columns = columns + ", " + detail::rating_columns;
    i->statements = {
        {"insert_game", "INSERT INTO games (" + columns +
                            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"},
        {"select_game", "SELECT " + read_columns + " FROM games" + detail::rating_joins + " WHERE games.id = $1"},
        {"select_by_player", "SELECT " + read_columns + " FROM games" + detail::rating_joins + " WHERE " +
                                 ascii_lower_player0 + " = " + ascii_lower_param + " OR " + ascii_lower_player1 + " = " +
                                 ascii_lower_param + " ORDER BY seq DESC LIMIT $2 OFFSET $3"},
        {"upsert_tournament",
         "INSERT INTO tournaments (id, name, status, state, updated_ms, node) VALUES ($1, $2, $3, $4, $5, $6) "
         "ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, state = excluded.state, "
         "updated_ms = excluded.updated_ms, node = excluded.node "
         // A node that has been taken over (its tournaments are another's now) changes nothing.
         "WHERE tournaments.node = excluded.node OR tournaments.node = ''"},
        {"select_tournaments", "SELECT id, name, status, state FROM tournaments WHERE node = $1 ORDER BY id"},
        {"select_tournament", "SELECT id, name, status, state FROM tournaments WHERE id = $1"},
        {"delete_tournament", "DELETE FROM tournaments WHERE id = $1"},
        {"upsert_analysis",
         "INSERT INTO game_analysis (game_id, version, exact, document, computed_ms) VALUES ($1, $2, $3, $4, $5) "
         "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, exact = excluded.exact, "
         "document = excluded.document, computed_ms = excluded.computed_ms"},
        {"select_analysis", "SELECT game_id, version, exact, document FROM game_analysis WHERE game_id = $1"},
    };
    impl::add_account_statements(i->statements);
    impl::add_rating_statements(i->statements);
    if (!i->prepare_all()) return fail("cannot prepare the queries on");
    return std::unique_ptr<postgres_store>{new postgres_store{std::move(i)}};
}

const std::string& postgres_store::location() const
{
    return impl_->location;
}

int postgres_store::version()
{
    if (!impl_->connected()) return -1;
    const result r{PQexec(impl_->connection, "SELECT version FROM quarto_schema")};
    return r.ok() && r.rows() > 0 ? static_cast<int>(r.int_at(0, 0)) : -1;
}

std::uint64_t postgres_store::commits() const
{
    return impl_->commits.load(std::memory_order_relaxed);
}

std::vector<bool> postgres_store::save_games(std::span<const game_record> records)
{
    impl& m = *impl_;
    if (records.empty()) return {};
    const std::vector<bool> none_stored(records.size(), false);
    const std::string what = records.size() == 1 ? "game " + records.front().id
                                                 : std::to_string(records.size()) + " games";
    if (!m.connected() || !m.begin()) {
        m.log_failure("beginning the transaction of " + what);
        return none_stored;
    }
    std::vector<bool> stored(records.size(), false);
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (!m.exec("SAVEPOINT game")) {
            m.log_failure("setting a savepoint for game " + records[i].id);
            m.exec("ROLLBACK");
            return none_stored;
        }
        // The game's ratings under its savepoint: a game that cannot be stored (its id taken,
        // stored before) changes no rating, and ratings that cannot be written undo the game.
        if (m.insert_game_row(records[i]) && m.apply_game_ratings(records[i])) {
            if (m.exec("RELEASE SAVEPOINT game")) {
                stored[i] = true;
                continue;
            }
            m.log_failure("releasing the savepoint of game " + records[i].id);
        }
        // A failed statement aborts the transaction up to the savepoint; a broken connection
        // loses all of it.
        if (!m.exec("ROLLBACK TO SAVEPOINT game")) {
            m.log_failure("undoing game " + records[i].id + " alone (the transaction of " + what + " is lost)");
            m.exec("ROLLBACK");
            return none_stored;
        }
    }
    if (!m.exec("COMMIT")) {
        m.log_failure("committing " + what);
        return none_stored;
    }
    m.commits.fetch_add(1, std::memory_order_relaxed);
    return stored;
}

archive_result<std::optional<game_record>> postgres_store::find_game(std::string_view id)
{
    auto found = impl_->read_games("select_game", parameters{}.add(std::string{id}));
    if (found.failed) return {{}, true};
    if (found.value.empty()) return {};
    return {std::move(found.value.front()), false};
}

archive_result<std::vector<game_record>> postgres_store::games_of_player(std::string_view name, int limit, int offset)
{
    return impl_->read_games("select_by_player", parameters{}
                                                     .add(std::string{name})
                                                     .add(std::int64_t{std::clamp(limit, 1, max_games_per_query)})
                                                     .add(std::int64_t{std::max(offset, 0)}));
}

bool postgres_store::save_tournament(const stored_tournament& t)
{
    return impl_->write("upsert_tournament",
                        parameters{}.add(t.id).add(t.name).add(t.status).add(t.state).add(now_ms()).add(impl_->node),
                        "storing tournament " + t.id);
}

bool postgres_store::delete_tournament(std::string_view id)
{
    return impl_->write("delete_tournament", parameters{}.add(std::string{id}), "deleting tournament " + std::string{id});
}

archive_result<std::vector<stored_tournament>> postgres_store::load_tournaments()
{
    if (!impl_->connected()) return {{}, true};
    const result r = impl_->run("select_tournaments", parameters{}.add(impl_->node));
    if (!r.ok()) {
        impl_->log_failure("reading tournaments");
        return {{}, true};
    }
    archive_result<std::vector<stored_tournament>> out;
    for (int i = 0; i < r.rows(); ++i) out.value.push_back(impl::tournament_at(r, i));
    return out;
}

archive_result<std::optional<stored_tournament>> postgres_store::find_tournament(std::string_view id)
{
    if (!impl_->connected()) return {{}, true};
    const result r = impl_->run("select_tournament", parameters{}.add(std::string{id}));
    if (!r.ok()) {
        impl_->log_failure("reading tournament " + std::string{id});
        return {{}, true};
    }
    if (r.rows() == 0) return {};
    return {impl::tournament_at(r, 0), false};
}

bool postgres_store::save_analysis(const stored_analysis& a)
{
    return impl_->write("upsert_analysis",
                        parameters{}
                            .add(a.game)
                            .add(std::int64_t{a.version})
                            .add(a.exact)
                            .add(a.document)
                            .add(now_ms()),
                        "storing the analysis of game " + a.game);
}

archive_result<std::optional<stored_analysis>> postgres_store::find_analysis(std::string_view game)
{
    if (!impl_->connected()) return {{}, true};
    const result r = impl_->run("select_analysis", parameters{}.add(std::string{game}));
    if (!r.ok()) {
        impl_->log_failure("reading the analysis of game " + std::string{game});
        return {{}, true};
    }
    if (r.rows() == 0) return {};
    return {stored_analysis{r.text_at(0, 0), static_cast<int>(r.int_at(0, 1)), r.bool_at(0, 2), r.text_at(0, 3)}, false};
}

} // namespace quarto::archive
