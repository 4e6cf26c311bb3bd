// The PostgreSQL store's accounts, sessions and ratings (store.hpp, accounts.hpp), as the
// SQLite file's (accounts_sqlite.cpp). Failures are logged with the player or game id, never
// with a password hash or a session's id hash.
#include <string>

#include "account_rows.hpp"
#include "postgres_store_impl.hpp"

namespace quarto::archive {
namespace {

using pg_res = detail::pg_result;
using pg_params = detail::pg_parameters;

pg_params params_of(std::string_view a)
{
    return pg_params{}.add(std::string{a});
}

} // namespace

void postgres_store::impl::add_account_statements(std::vector<prepared_statement>& out)
{
    const prepared_statement statements[] = {
        // RETURNING: a row when the insert or update happened, none when it did not.
        {"insert_account", "INSERT INTO accounts (player_id, name, name_key, password_hash, created_ms) "
                           "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1"},
        {"select_account_player", "SELECT deleted FROM accounts WHERE player_id = $1"},
        {"select_account_by_name", "SELECT player_id, name, password_hash FROM accounts WHERE name_key = $1"},
        {"update_password", "UPDATE accounts SET password_hash = $2 WHERE player_id = $1 AND NOT deleted RETURNING 1"},
        {"end_other_sessions", "DELETE FROM sessions WHERE player_id = $1 AND id_hash <> $2"},
        {"insert_session", "INSERT INTO sessions (id_hash, player_id, created_ms, last_seen_ms) "
                           "SELECT $1, player_id, $3, $3 FROM accounts WHERE player_id = $2 AND NOT deleted "
                           "ON CONFLICT DO NOTHING RETURNING 1"},
        {"touch_session",
         "UPDATE sessions SET last_seen_ms = GREATEST(last_seen_ms, $2) WHERE id_hash = $1 RETURNING player_id"},
        {"delete_session", "DELETE FROM sessions WHERE id_hash = $1"},
        {"delete_sessions", "DELETE FROM sessions WHERE player_id = $1"},
        {"select_ratings", "SELECT pool, rating, deviation, volatility, games, last_game_ms FROM ratings "
                           "WHERE player_id = $1 ORDER BY pool"},
        {"insert_rated_game", "INSERT INTO rated_games (game_id, applied_ms) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1"},
        {"upsert_rating", "INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, last_game_ms) "
                          "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player_id, pool) DO UPDATE SET "
                          "rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, "
                          "games = excluded.games, last_game_ms = excluded.last_game_ms"},
        {"delete_account_row", "UPDATE accounts SET name = $2, name_key = NULL, password_hash = NULL, deleted = true "
                               "WHERE player_id = $1 AND NOT deleted RETURNING 1"},
        {"rename_player0", "UPDATE games SET player0_name = $2 WHERE player0_id = $1"},
        {"rename_player1", "UPDATE games SET player1_name = $2 WHERE player1_id = $1"},
        {"select_account_row", "SELECT player_id, name, created_ms, deleted FROM accounts WHERE player_id = $1"},
        {"select_sessions", "SELECT created_ms, last_seen_ms FROM sessions WHERE player_id = $1 ORDER BY created_ms, id_hash"},
        {"select_game_ids", "SELECT id FROM games WHERE player0_id = $1 OR player1_id = $1 ORDER BY seq"},
    };
    out.insert(out.end(), std::begin(statements), std::end(statements));
}

archive_result<account_creation> postgres_store::create_account(std::string_view player_id, std::string_view name,
                                                                std::string_view password_hash, std::int64_t now)
{
    impl& m = *impl_;
    if (m.connected()) {
        const pg_res inserted = m.run("insert_account", params_of(player_id)
                                                            .add(std::string{name})
                                                            .add(account_name_key(name))
                                                            .add(std::string{password_hash})
                                                            .add(now));
        if (inserted.ok() && inserted.rows() > 0) {
            m.commits.fetch_add(1, std::memory_order_relaxed);
            return {account_creation::created, false};
        }
        if (inserted.ok()) {
            // Which uniqueness stopped it: the player id's, or else the name's.
            const pg_res exists = m.run("select_account_player", params_of(player_id));
            if (exists.ok())
                return {exists.rows() > 0 ? account_creation::already_account : account_creation::name_taken, false};
        }
    }
    m.log_account_failure("creating the account of player " + std::string{player_id});
    return {{}, true};
}

archive_result<std::optional<stored_account>> postgres_store::find_account_by_name(std::string_view name)
{
    impl& m = *impl_;
    if (m.connected()) {
        const pg_res r = m.run("select_account_by_name", params_of(account_name_key(name)));
        if (r.ok()) {
            if (r.rows() == 0) return {};
            return {stored_account{r.text_at(0, 0), r.text_at(0, 1), r.text_at(0, 2)}, false};
        }
    }
    m.log_account_failure("looking up an account by name");
    return {{}, true};
}

archive_result<bool> postgres_store::name_is_account(std::string_view name)
{
    const auto found = find_account_by_name(name);
    return {found.value.has_value(), found.failed};
}

archive_result<bool> postgres_store::set_password(std::string_view player_id, std::string_view password_hash,
                                                  std::string_view keep_session_hash)
{
    impl& m = *impl_;
    const std::string what = "changing the password of player " + std::string{player_id};
    if (!m.connected() || !m.begin()) {
        m.log_account_failure(what);
        return {false, true};
    }
    const pg_res updated{params_of(player_id).add(std::string{password_hash}).run(m.connection, "update_password")};
    if (updated.ok() && updated.rows() == 0) {
        m.exec("ROLLBACK");
        return {false, false};
    }
    if (updated.ok() &&
        pg_res{params_of(player_id).add(std::string{keep_session_hash}).run(m.connection, "end_other_sessions")}.ok() &&
        m.exec("COMMIT")) {
        m.commits.fetch_add(1, std::memory_order_relaxed);
        return {true, false};
    }
    m.log_account_failure(what);
    m.exec("ROLLBACK");
    return {false, true};
}

archive_result<bool> postgres_store::add_session(std::string_view id_hash, std::string_view player_id, std::int64_t now)
{
    impl& m = *impl_;
    if (m.connected()) {
        const pg_res r = m.run("insert_session", params_of(id_hash).add(std::string{player_id}).add(now));
        if (r.ok()) {
            if (r.rows() > 0) m.commits.fetch_add(1, std::memory_order_relaxed);
            return {r.rows() > 0, false};
        }
    }
    m.log_account_failure("starting a session of player " + std::string{player_id});
    return {false, true};
}

archive_result<std::optional<std::string>> postgres_store::find_session(std::string_view id_hash, std::int64_t now)
{
    impl& m = *impl_;
    if (m.connected()) {
        const pg_res r = m.run("touch_session", params_of(id_hash).add(now));
        if (r.ok()) {
            if (r.rows() == 0) return {};
            m.commits.fetch_add(1, std::memory_order_relaxed);
            return {r.text_at(0, 0), false};
        }
    }
    m.log_account_failure("looking up a session");
    return {{}, true};
}

bool postgres_store::end_session(std::string_view id_hash)
{
    if (impl_->connected() && impl_->run("delete_session", params_of(id_hash)).ok()) {
        impl_->commits.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    impl_->log_account_failure("ending a session");
    return false;
}

bool postgres_store::end_sessions(std::string_view player_id)
{
    return impl_->write("delete_sessions", params_of(player_id), "ending the sessions of player " + std::string{player_id});
}

archive_result<std::vector<stored_rating>> postgres_store::ratings_of(std::string_view player_id)
{
    impl& m = *impl_;
    if (m.connected()) {
        const pg_res r = m.run("select_ratings", params_of(player_id));
        archive_result<std::vector<stored_rating>> out;
        for (int i = 0; r.ok() && i < r.rows(); ++i) {
            const auto pool = detail::pool_named(r.text_at(i, 0));
            if (!pool) break;
            out.value.push_back({*pool, r.double_at(i, 1), r.double_at(i, 2), r.double_at(i, 3),
                                 static_cast<int>(r.int_at(i, 4)), r.int_at(i, 5)});
        }
        if (r.ok() && out.value.size() == static_cast<std::size_t>(r.rows())) return out;
    }
    m.log_account_failure("reading the ratings of player " + std::string{player_id});
    return {{}, true};
}

archive_result<rated_game_outcome> postgres_store::apply_rated_game(std::string_view game_id, const rating_update& first,
                                                                    const rating_update& second, std::int64_t now)
{
    impl& m = *impl_;
    const std::string what = "applying the ratings of game " + std::string{game_id};
    if (!m.connected() || !m.begin()) {
        m.log_account_failure(what);
        return {{}, true};
    }
    const pg_res recorded{params_of(game_id).add(now).run(m.connection, "insert_rated_game")};
    if (recorded.ok() && recorded.rows() == 0) {
        m.exec("ROLLBACK");
        return {rated_game_outcome::already_applied, false};
    }
    bool ok = recorded.ok();
    for (const rating_update* u : {&first, &second}) {
        if (!ok) break;
        const stored_rating& r = u->rating;
        ok = pg_res{params_of(u->player_id)
                        .add(std::string{rating::name(r.pool)})
                        .add_double(r.rating)
                        .add_double(r.deviation)
                        .add_double(r.volatility)
                        .add(std::int64_t{r.games})
                        .add(r.last_game_ms)
                        .run(m.connection, "upsert_rating")}
                 .ok();
    }
    if (ok && m.exec("COMMIT")) {
        m.commits.fetch_add(1, std::memory_order_relaxed);
        return {rated_game_outcome::applied, false};
    }
    m.log_account_failure(what);
    m.exec("ROLLBACK");
    return {{}, true};
}

archive_result<bool> postgres_store::delete_account(std::string_view player_id)
{
    impl& m = *impl_;
    const std::string what = "deleting the account of player " + std::string{player_id};
    if (!m.connected() || !m.begin()) {
        m.log_account_failure(what);
        return {false, true};
    }
    const std::string marker{deleted_player_name};
    const pg_res deleted{params_of(player_id).add(marker).run(m.connection, "delete_account_row")};
    if (deleted.ok() && deleted.rows() == 0) {
        m.exec("ROLLBACK");
        return {false, false};
    }
    if (deleted.ok() && pg_res{params_of(player_id).run(m.connection, "delete_sessions")}.ok() &&
        pg_res{params_of(player_id).add(marker).run(m.connection, "rename_player0")}.ok() &&
        pg_res{params_of(player_id).add(marker).run(m.connection, "rename_player1")}.ok() && m.exec("COMMIT")) {
        m.commits.fetch_add(1, std::memory_order_relaxed);
        return {true, false};
    }
    m.log_account_failure(what);
    m.exec("ROLLBACK");
    return {false, true};
}

archive_result<std::optional<account_export>> postgres_store::export_account(std::string_view player_id)
{
    impl& m = *impl_;
    const auto failed = [&]() -> archive_result<std::optional<account_export>> {
        m.log_account_failure("exporting the account of player " + std::string{player_id});
        m.exec("ROLLBACK");
        return {{}, true};
    };
    // One snapshot, so that the parts agree with each other.
    if (!m.connected() || !m.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")) return failed();
    const pg_res account{params_of(player_id).run(m.connection, "select_account_row")};
    if (!account.ok()) return failed();
    if (account.rows() == 0) {
        m.exec("ROLLBACK");
        return {};
    }
    account_export e;
    e.player_id = account.text_at(0, 0);
    e.name = account.text_at(0, 1);
    e.created_ms = account.int_at(0, 2);
    e.deleted = account.bool_at(0, 3);
    const pg_res sessions{params_of(player_id).run(m.connection, "select_sessions")};
    if (!sessions.ok()) return failed();
    for (int i = 0; i < sessions.rows(); ++i) e.sessions.push_back({sessions.int_at(i, 0), sessions.int_at(i, 1)});
    const pg_res ratings{params_of(player_id).run(m.connection, "select_ratings")};
    if (!ratings.ok()) return failed();
    for (int i = 0; i < ratings.rows(); ++i) {
        const auto pool = detail::pool_named(ratings.text_at(i, 0));
        if (!pool) return failed();
        e.ratings.push_back({*pool, ratings.double_at(i, 1), ratings.double_at(i, 2), ratings.double_at(i, 3),
                             static_cast<int>(ratings.int_at(i, 4)), ratings.int_at(i, 5)});
    }
    const pg_res games{params_of(player_id).run(m.connection, "select_game_ids")};
    if (!games.ok()) return failed();
    for (int i = 0; i < games.rows(); ++i) e.games.push_back(games.text_at(i, 0));
    if (!m.exec("COMMIT")) return failed();
    return {std::move(e), false};
}

} // namespace quarto::archive
