// The SQLite store's rated games, profiles, rating charts and leaderboard (store.hpp). Failures
// are logged with the player or game id.
#include <algorithm>
#include <string>

#include "account_rows.hpp"
#include "rated_game.hpp"
#include "sqlite_store_impl.hpp"

#include "quarto/core/rating/glicko2.hpp"

namespace quarto::archive {
namespace {

using rating_step = sqlite::statement::step_result;

void bind_side(sqlite::statement& s, int first, const stored_rating& r)
{
    s.bind_double(first, r.rating).bind_double(first + 1, r.deviation).bind_double(first + 2, r.volatility);
    s.bind(first + 3, std::int64_t{r.games}).bind(first + 4, r.last_game_ms);
}

} // namespace

bool sqlite_store::impl::prepare_rating_statements()
{
    struct query {
        sqlite::statement* target;
        const char* sql;
    };
    const query queries[] = {
        {&select_pool_rating, "SELECT rating, deviation, volatility, games, last_game_ms FROM ratings "
                              "WHERE player_id = ?1 AND pool = ?2"},
        {&insert_rating_change,
         "INSERT INTO rating_changes (game_id, seat, player_id, pool, before_rating, before_deviation, "
         "before_volatility, before_games, before_last_game_ms, after_rating, after_deviation, after_volatility, "
         "after_games, after_last_game_ms, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"},
        {&select_live_account, "SELECT player_id, name, password_hash FROM accounts WHERE player_id = ?1 AND deleted = 0"},
        {&select_last_game_named, "SELECT player0_id, player0_name, player1_id, player1_name FROM games "
                                  "WHERE player0_name = ?1 COLLATE NOCASE OR player1_name = ?1 COLLATE NOCASE "
                                  "ORDER BY seq DESC LIMIT 1"},
        // A NULL winner is a draw.
        {&select_results, "SELECT count(*), coalesce(sum(winner IS NULL), 0), "
                          "coalesce(sum((winner = 0 AND player0_id = ?1) OR (winner = 1 AND player1_id = ?1)), 0) "
                          "FROM games WHERE player0_id = ?1 OR player1_id = ?1"},
        // The most recent, then turned oldest first; a player's games count orders the games
        // that ended in the same millisecond.
        {&select_history, "SELECT game_id, at_ms, after_rating, after_deviation FROM (SELECT game_id, at_ms, "
                          "after_rating, after_deviation, after_games FROM rating_changes WHERE player_id = ?1 AND "
                          "pool = ?2 ORDER BY at_ms DESC, after_games DESC LIMIT ?3) AS recent ORDER BY at_ms, after_games"},
        {&select_leaderboard, "SELECT r.player_id, a.name, r.rating, r.deviation, r.games FROM ratings r "
                              "JOIN accounts a ON a.player_id = r.player_id WHERE r.pool = ?1 AND r.deviation < ?2 "
                              "AND a.deleted = 0 ORDER BY r.rating DESC, r.player_id LIMIT ?3"},
        // instr, not LIKE: SQLite's LIKE ignores the case of ASCII letters, which player ids keep.
        {&select_tournaments_of, "SELECT id, name, status FROM tournaments WHERE instr(state, ?1) > 0 "
                                 "ORDER BY updated_ms DESC, id LIMIT ?2"},
    };
    for (const auto& q : queries) {
        auto s = db.prepare(q.sql);
        if (!s) return false;
        *q.target = std::move(*s);
    }
    return true;
}

bool sqlite_store::impl::apply_game_ratings(const game_record& r)
{
    if (!r.ratings) return true;
    const auto failed = [&] {
        log_failure("applying the ratings of game " + r.id);
        return false;
    };
    {
        sqlite::in_use s{insert_rated_game};
        s->bind(1, r.id).bind(2, detail::wall_clock_ms());
        const rating_step recorded = s->step();
        if (recorded == rating_step::error) return failed();
        if (recorded == rating_step::done) {
            // Applied before under this id (apply_rated_game): once per game, whatever came first.
            spdlog::warn("archive {}: the ratings of game {} had been applied; the game is stored without them", path,
                         r.id);
            return true;
        }
    }
    const std::string pool{rating::name(r.ratings->pool)};
    std::array<std::optional<stored_rating>, 2> stored;
    for (seat p = 0; p < 2; ++p) {
        sqlite::in_use s{select_pool_rating};
        s->bind(1, r.players[p].id).bind(2, pool);
        const rating_step found = s->step();
        if (found == rating_step::error) return failed();
        if (found == rating_step::row)
            stored[p] = stored_rating{r.ratings->pool, s->double_at(0), s->double_at(1), s->double_at(2),
                                      static_cast<int>(s->int_at(3)), s->int_at(4)};
    }
    const game_ratings applied = detail::ratings_to_apply(r, stored);
    for (seat p = 0; p < 2; ++p) {
        const seat_rating_change& change = applied.seats[p];
        upsert_rating.bind(1, r.players[p].id).bind(2, pool);
        bind_side(upsert_rating, 3, change.after);
        if (!sqlite::run(upsert_rating)) return failed();
        insert_rating_change.bind(1, r.id).bind(2, std::int64_t{p}).bind(3, r.players[p].id).bind(4, pool);
        bind_side(insert_rating_change, 5, change.before);
        bind_side(insert_rating_change, 10, change.after);
        insert_rating_change.bind(15, r.ended_ms);
        if (!sqlite::run(insert_rating_change)) return failed();
    }
    return true;
}

archive_result<std::optional<stored_account>> sqlite_store::find_account(std::string_view player_id)
{
    sqlite::in_use s{impl_->select_live_account};
    s->bind(1, player_id);
    switch (s->step()) {
    case rating_step::row: return {stored_account{s->text_at(0), s->text_at(1), s->text_at(2)}, false};
    case rating_step::done: return {};
    case rating_step::error: break;
    }
    impl_->log_failure("looking up the account of player " + std::string{player_id});
    return {{}, true};
}

archive_result<std::optional<player_profile>> sqlite_store::find_player(std::string_view name)
{
    impl& m = *impl_;
    const auto failed = [&](std::string_view what) -> archive_result<std::optional<player_profile>> {
        m.log_failure(what);
        return {{}, true};
    };
    player_profile p;
    const auto account = find_account_by_name(name);
    if (account.failed) return {{}, true};
    if (account.value) {
        p.player_id = account.value->player_id;
        p.name = account.value->name;
        p.account = true;
    } else {
        {
            sqlite::in_use s{m.select_last_game_named};
            s->bind(1, name);
            const rating_step r = s->step();
            if (r == rating_step::done) return {};
            if (r == rating_step::error) return failed("looking up a player by name");
            const int at = account_name_key(s->text_at(1)) == account_name_key(name) ? 0 : 2;
            p.player_id = s->text_at(at);
            p.name = s->text_at(at + 1);
        }
        // The guest may have claimed an account since, under another name; a deleted account's
        // player is not shown.
        sqlite::in_use s{m.select_account_row};
        s->bind(1, p.player_id);
        const rating_step r = s->step();
        if (r == rating_step::error) return failed("looking up the account of player " + p.player_id);
        if (r == rating_step::row) {
            if (s->int_at(3) != 0) return {};
            p.account = true;
            p.name = s->text_at(1);
        }
    }
    {
        sqlite::in_use s{m.select_results};
        s->bind(1, p.player_id);
        if (s->step() != rating_step::row) return failed("counting the results of player " + p.player_id);
        p.draws = static_cast<int>(s->int_at(1));
        p.wins = static_cast<int>(s->int_at(2));
        p.losses = static_cast<int>(s->int_at(0)) - p.wins - p.draws;
    }
    auto ratings = ratings_of(p.player_id);
    if (ratings.failed) return {{}, true};
    p.ratings = std::move(ratings.value);
    return {std::move(p), false};
}

archive_result<std::vector<rating_point>> sqlite_store::rating_history(std::string_view player_id, rating::pool pool,
                                                                       int limit)
{
    impl& m = *impl_;
    m.select_history.bind(1, player_id).bind(2, rating::name(pool)).bind(3, std::clamp(limit, 1, max_rows_per_query));
    return m.read_rows<rating_point>(
        m.select_history,
        [](const sqlite::statement& s) { return rating_point{s.text_at(0), s.int_at(1), s.double_at(2), s.double_at(3)}; },
        "reading the rating history of player " + std::string{player_id});
}

archive_result<std::vector<leaderboard_entry>> sqlite_store::leaderboard(rating::pool pool, int limit)
{
    impl& m = *impl_;
    m.select_leaderboard.bind(1, rating::name(pool)).bind_double(2, rating::lichess.provisional_deviation);
    m.select_leaderboard.bind(3, std::clamp(limit, 1, max_rows_per_query));
    return m.read_rows<leaderboard_entry>(
        m.select_leaderboard,
        [](const sqlite::statement& s) {
            return leaderboard_entry{s.text_at(0), s.text_at(1), s.double_at(2), s.double_at(3),
                                     static_cast<int>(s.int_at(4))};
        },
        "reading the leaderboard");
}

archive_result<std::vector<stored_tournament>> sqlite_store::tournaments_of_player(std::string_view player_id, int limit)
{
    impl& m = *impl_;
    m.select_tournaments_of.bind(1, detail::quoted_player_id(player_id)).bind(2, std::clamp(limit, 1, max_rows_per_query));
    return m.read_rows<stored_tournament>(
        m.select_tournaments_of,
        [](const sqlite::statement& s) { return stored_tournament{s.text_at(0), s.text_at(1), s.text_at(2), {}}; },
        "reading the tournaments of player " + std::string{player_id});
}

} // namespace quarto::archive
