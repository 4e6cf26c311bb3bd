// The SQLite store's accounts, sessions and ratings (store.hpp, accounts.hpp). Failures are
// logged with the player or game id, never with a password hash or a session's id hash.
#include <string>

#include "account_rows.hpp"
#include "sqlite_store_impl.hpp"

namespace quarto::archive {
namespace {

using account_step = sqlite::statement::step_result;

} // namespace

bool sqlite_store::impl::prepare_account_statements()
{
    struct query {
        sqlite::statement* target;
        const char* sql;
    };
    const query queries[] = {
        // RETURNING: a row when the insert or update happened, none when it did not.
        {&insert_account, "INSERT INTO accounts (player_id, name, name_key, password_hash, created_ms) "
                          "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING RETURNING 1"},
        {&select_account_player, "SELECT deleted FROM accounts WHERE player_id = ?1"},
        {&select_account_by_name, "SELECT player_id, name, password_hash FROM accounts WHERE name_key = ?1"},
        {&update_password, "UPDATE accounts SET password_hash = ?2 WHERE player_id = ?1 AND deleted = 0 RETURNING 1"},
        {&end_other_sessions, "DELETE FROM sessions WHERE player_id = ?1 AND id_hash <> ?2"},
        {&insert_session, "INSERT INTO sessions (id_hash, player_id, created_ms, last_seen_ms) "
                          "SELECT ?1, player_id, ?3, ?3 FROM accounts WHERE player_id = ?2 AND deleted = 0 "
                          "ON CONFLICT DO NOTHING RETURNING 1"},
        {&touch_session, "UPDATE sessions SET last_seen_ms = max(last_seen_ms, ?2) WHERE id_hash = ?1 RETURNING player_id"},
        {&delete_session, "DELETE FROM sessions WHERE id_hash = ?1"},
        {&delete_sessions, "DELETE FROM sessions WHERE player_id = ?1"},
        {&select_ratings, "SELECT pool, rating, deviation, volatility, games, last_game_ms FROM ratings "
                          "WHERE player_id = ?1 ORDER BY pool"},
        {&insert_rated_game, "INSERT INTO rated_games (game_id, applied_ms) VALUES (?1, ?2) ON CONFLICT DO NOTHING RETURNING 1"},
        {&upsert_rating, "INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, last_game_ms) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (player_id, pool) DO UPDATE SET "
                         "rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, "
                         "games = excluded.games, last_game_ms = excluded.last_game_ms"},
        {&delete_account_row, "UPDATE accounts SET name = ?2, name_key = NULL, password_hash = NULL, deleted = 1 "
                              "WHERE player_id = ?1 AND deleted = 0 RETURNING 1"},
        {&rename_player0, "UPDATE games SET player0_name = ?2 WHERE player0_id = ?1"},
        {&rename_player1, "UPDATE games SET player1_name = ?2 WHERE player1_id = ?1"},
        {&select_account_row, "SELECT player_id, name, created_ms, deleted FROM accounts WHERE player_id = ?1"},
        {&select_sessions, "SELECT created_ms, last_seen_ms FROM sessions WHERE player_id = ?1 ORDER BY created_ms, id_hash"},
        {&select_game_ids, "SELECT id FROM games WHERE player0_id = ?1 OR player1_id = ?1 ORDER BY seq"},
    };
    for (const auto& q : queries) {
        auto s = db.prepare(q.sql);
        if (!s) return false;
        *q.target = std::move(*s);
    }
    return true;
}

namespace {

// Runs a statement that answers one row when it did something: true (did), false (did not),
// nullopt (failed).
std::optional<bool> did(sqlite::statement& s)
{
    sqlite::in_use u{s};
    switch (u->step()) {
    case account_step::row: return true;
    case account_step::done: return false;
    case account_step::error: break;
    }
    return std::nullopt;
}

} // namespace

archive_result<account_creation> sqlite_store::create_account(std::string_view player_id, std::string_view name,
                                                              std::string_view password_hash, std::int64_t now)
{
    impl& m = *impl_;
    m.insert_account.bind(1, player_id).bind(2, name).bind(3, account_name_key(name)).bind(4, password_hash).bind(5, now);
    const auto inserted = did(m.insert_account);
    if (inserted && *inserted) {
        m.commits.fetch_add(1, std::memory_order_relaxed);
        return {account_creation::created, false};
    }
    if (inserted) {
        // Which uniqueness stopped it: the player id's, or else the name's.
        m.select_account_player.bind(1, player_id);
        if (const auto exists = did(m.select_account_player))
            return {*exists ? account_creation::already_account : account_creation::name_taken, false};
    }
    m.log_failure("creating the account of player " + std::string{player_id});
    return {{}, true};
}

archive_result<std::optional<stored_account>> sqlite_store::find_account_by_name(std::string_view name)
{
    sqlite::in_use s{impl_->select_account_by_name};
    s->bind(1, account_name_key(name));
    switch (s->step()) {
    case account_step::row: return {stored_account{s->text_at(0), s->text_at(1), s->text_at(2)}, false};
    case account_step::done: return {};
    case account_step::error: break;
    }
    impl_->log_failure("looking up an account by name");
    return {{}, true};
}

archive_result<bool> sqlite_store::name_is_account(std::string_view name)
{
    const auto found = find_account_by_name(name);
    return {found.value.has_value(), found.failed};
}

archive_result<bool> sqlite_store::set_password(std::string_view player_id, std::string_view password_hash,
                                                std::string_view keep_session_hash)
{
    impl& m = *impl_;
    const std::string what = "changing the password of player " + std::string{player_id};
    sqlite::transaction t{m.db};
    if (!t.began()) {
        m.log_failure(what);
        return {false, true};
    }
    m.update_password.bind(1, player_id).bind(2, password_hash);
    const auto updated = did(m.update_password);
    if (!updated) {
        m.log_failure(what);
        return {false, true};
    }
    if (!*updated) return {false, false};
    m.end_other_sessions.bind(1, player_id).bind(2, keep_session_hash);
    if (!sqlite::run(m.end_other_sessions) || !t.commit()) {
        m.log_failure(what);
        return {false, true};
    }
    m.commits.fetch_add(1, std::memory_order_relaxed);
    return {true, false};
}

archive_result<bool> sqlite_store::add_session(std::string_view id_hash, std::string_view player_id, std::int64_t now)
{
    impl& m = *impl_;
    m.insert_session.bind(1, id_hash).bind(2, player_id).bind(3, now);
    const auto added = did(m.insert_session);
    if (!added) {
        m.log_failure("starting a session of player " + std::string{player_id});
        return {false, true};
    }
    if (*added) m.commits.fetch_add(1, std::memory_order_relaxed);
    return {*added, false};
}

archive_result<std::optional<std::string>> sqlite_store::find_session(std::string_view id_hash, std::int64_t now)
{
    impl& m = *impl_;
    sqlite::in_use s{m.touch_session};
    s->bind(1, id_hash).bind(2, now);
    switch (s->step()) {
    case account_step::row: m.commits.fetch_add(1, std::memory_order_relaxed); return {s->text_at(0), false};
    case account_step::done: return {};
    case account_step::error: break;
    }
    m.log_failure("looking up a session");
    return {{}, true};
}

bool sqlite_store::end_session(std::string_view id_hash)
{
    impl_->delete_session.bind(1, id_hash);
    if (sqlite::run(impl_->delete_session)) {
        impl_->commits.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    impl_->log_failure("ending a session");
    return false;
}

bool sqlite_store::end_sessions(std::string_view player_id)
{
    impl_->delete_sessions.bind(1, player_id);
    if (sqlite::run(impl_->delete_sessions)) {
        impl_->commits.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    impl_->log_failure("ending the sessions of player " + std::string{player_id});
    return false;
}

archive_result<std::vector<stored_rating>> sqlite_store::ratings_of(std::string_view player_id)
{
    sqlite::in_use s{impl_->select_ratings};
    s->bind(1, player_id);
    archive_result<std::vector<stored_rating>> out;
    for (;;) {
        const account_step r = s->step();
        if (r == account_step::done) return out;
        const auto pool = r == account_step::row ? detail::pool_named(s->text_at(0)) : std::nullopt;
        if (!pool) break;
        out.value.push_back({*pool, s->double_at(1), s->double_at(2), s->double_at(3), static_cast<int>(s->int_at(4)),
                             s->int_at(5)});
    }
    impl_->log_failure("reading the ratings of player " + std::string{player_id});
    return {{}, true};
}

archive_result<rated_game_outcome> sqlite_store::apply_rated_game(std::string_view game_id, const rating_update& first,
                                                                  const rating_update& second, std::int64_t now)
{
    impl& m = *impl_;
    const std::string what = "applying the ratings of game " + std::string{game_id};
    sqlite::transaction t{m.db};
    if (!t.began()) {
        m.log_failure(what);
        return {{}, true};
    }
    m.insert_rated_game.bind(1, game_id).bind(2, now);
    const auto recorded = did(m.insert_rated_game);
    if (!recorded) {
        m.log_failure(what);
        return {{}, true};
    }
    if (!*recorded) return {rated_game_outcome::already_applied, false}; // rolled back: nothing was written
    for (const rating_update* u : {&first, &second}) {
        const stored_rating& r = u->rating;
        m.upsert_rating.bind(1, u->player_id).bind(2, rating::name(r.pool));
        m.upsert_rating.bind_double(3, r.rating).bind_double(4, r.deviation).bind_double(5, r.volatility);
        m.upsert_rating.bind(6, std::int64_t{r.games}).bind(7, r.last_game_ms);
        if (!sqlite::run(m.upsert_rating)) {
            m.log_failure(what);
            return {{}, true};
        }
    }
    if (!t.commit()) {
        m.log_failure(what);
        return {{}, true};
    }
    m.commits.fetch_add(1, std::memory_order_relaxed);
    return {rated_game_outcome::applied, false};
}

archive_result<bool> sqlite_store::delete_account(std::string_view player_id)
{
    impl& m = *impl_;
    const std::string what = "deleting the account of player " + std::string{player_id};
    sqlite::transaction t{m.db};
    if (!t.began()) {
        m.log_failure(what);
        return {false, true};
    }
    m.delete_account_row.bind(1, player_id).bind(2, deleted_player_name);
    const auto deleted = did(m.delete_account_row);
    if (!deleted) {
        m.log_failure(what);
        return {false, true};
    }
    if (!*deleted) return {false, false};
    m.delete_sessions.bind(1, player_id);
    m.rename_player0.bind(1, player_id).bind(2, deleted_player_name);
    m.rename_player1.bind(1, player_id).bind(2, deleted_player_name);
    if (!sqlite::run(m.delete_sessions) || !sqlite::run(m.rename_player0) || !sqlite::run(m.rename_player1) || !t.commit()) {
        m.log_failure(what);
        return {false, true};
    }
    m.commits.fetch_add(1, std::memory_order_relaxed);
    return {true, false};
}

archive_result<std::optional<account_export>> sqlite_store::export_account(std::string_view player_id)
{
    impl& m = *impl_;
    const auto failed = [&]() -> archive_result<std::optional<account_export>> {
        m.log_failure("exporting the account of player " + std::string{player_id});
        return {{}, true};
    };
    // One read transaction, so that the parts agree with each other.
    sqlite::transaction t{m.db};
    if (!t.began()) return failed();
    account_export e;
    {
        sqlite::in_use s{m.select_account_row};
        s->bind(1, player_id);
        const account_step r = s->step();
        if (r == account_step::done) return {};
        if (r == account_step::error) return failed();
        e.player_id = s->text_at(0);
        e.name = s->text_at(1);
        e.created_ms = s->int_at(2);
        e.deleted = s->int_at(3) != 0;
    }
    {
        sqlite::in_use s{m.select_sessions};
        s->bind(1, player_id);
        for (account_step r; (r = s->step()) != account_step::done;) {
            if (r == account_step::error) return failed();
            e.sessions.push_back({s->int_at(0), s->int_at(1)});
        }
    }
    auto ratings = ratings_of(player_id);
    if (ratings.failed) return {{}, true};
    e.ratings = std::move(ratings.value);
    {
        sqlite::in_use s{m.select_game_ids};
        s->bind(1, player_id);
        for (account_step r; (r = s->step()) != account_step::done;) {
            if (r == account_step::error) return failed();
            e.games.push_back(s->text_at(0));
        }
    }
    return {std::move(e), false};
}

} // namespace quarto::archive
