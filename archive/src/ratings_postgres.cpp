// The PostgreSQL store's rated games, profiles, rating charts and leaderboard (store.hpp), as
// the SQLite file's (ratings_sqlite.cpp). Failures are logged with the player or game id.
#include <algorithm>
#include <string>

#include "account_rows.hpp"
#include "postgres_store_impl.hpp"
#include "rated_game.hpp"

#include "quarto/core/rating/glicko2.hpp"

namespace quarto::archive {
namespace {

using rating_res = detail::pg_result;
using rating_params = detail::pg_parameters;

rating_params params_with(std::string_view a)
{
    return rating_params{}.add(std::string{a});
}

rating_params& add_side(rating_params& p, const stored_rating& r)
{
    return p.add_double(r.rating).add_double(r.deviation).add_double(r.volatility).add(std::int64_t{r.games}).add(r.last_game_ms);
}

} // namespace

void postgres_store::impl::add_rating_statements(std::vector<prepared_statement>& out)
{
    using namespace std::string_literals;
    const prepared_statement statements[] = {
        {"select_pool_rating", "SELECT rating, deviation, volatility, games, last_game_ms FROM ratings "
                               "WHERE player_id = $1 AND pool = $2"},
        {"insert_rating_change",
         "INSERT INTO rating_changes (game_id, seat, player_id, pool, before_rating, before_deviation, "
         "before_volatility, before_games, before_last_game_ms, after_rating, after_deviation, after_volatility, "
         "after_games, after_last_game_ms, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"},
        {"select_live_account", "SELECT player_id, name, password_hash FROM accounts WHERE player_id = $1 AND NOT deleted"},
        {"select_last_game_named", "SELECT player0_id, player0_name, player1_id, player1_name FROM games WHERE "s +
                                       detail::ascii_lower_player0 + " = " + detail::ascii_lower_param + " OR " +
                                       detail::ascii_lower_player1 + " = " + detail::ascii_lower_param +
                                       " ORDER BY seq DESC LIMIT 1"},
        // A NULL winner is a draw.
        {"select_results", "SELECT count(*), count(*) FILTER (WHERE winner IS NULL), count(*) FILTER (WHERE "
                           "(winner = 0 AND player0_id = $1) OR (winner = 1 AND player1_id = $1)) "
                           "FROM games WHERE player0_id = $1 OR player1_id = $1"},
        // The most recent, then turned oldest first; a player's games count orders the games
        // that ended in the same millisecond.
        {"select_history", "SELECT game_id, at_ms, after_rating, after_deviation FROM (SELECT game_id, at_ms, "
                           "after_rating, after_deviation, after_games FROM rating_changes WHERE player_id = $1 AND "
                           "pool = $2 ORDER BY at_ms DESC, after_games DESC LIMIT $3) AS recent ORDER BY at_ms, after_games"},
        {"select_leaderboard", "SELECT r.player_id, a.name, r.rating, r.deviation, r.games FROM ratings r "
                               "JOIN accounts a ON a.player_id = r.player_id WHERE r.pool = $1 AND r.deviation < $2 "
                               "AND NOT a.deleted ORDER BY r.rating DESC, r.player_id LIMIT $3"},
        // strpos, as the SQLite file's instr: the quoted id as it is, no pattern to escape.
        {"select_tournaments_of", "SELECT id, name, status FROM tournaments WHERE strpos(state, $1) > 0 "
                                  "ORDER BY updated_ms DESC, id LIMIT $2"},
    };
    out.insert(out.end(), std::begin(statements), std::end(statements));
}

bool postgres_store::impl::apply_game_ratings(const game_record& r)
{
    if (!r.ratings) return true;
    const auto failed = [&] {
        log_failure("applying the ratings of game " + r.id);
        return false;
    };
    // In the transaction of save_games: each statement is sent once, never again alone.
    const rating_res recorded{params_with(r.id).add(detail::wall_clock_ms()).run(connection, "insert_rated_game")};
    if (!recorded.ok()) return failed();
    if (recorded.rows() == 0) {
        // Applied before under this id (apply_rated_game): once per game, whatever came first.
        spdlog::warn("archive {}: the ratings of game {} had been applied; the game is stored without them", location,
                     r.id);
        return true;
    }
    const std::string pool{rating::name(r.ratings->pool)};
    std::array<std::optional<stored_rating>, 2> stored;
    for (seat p = 0; p < 2; ++p) {
        const rating_res found{params_with(r.players[p].id).add(pool).run(connection, "select_pool_rating")};
        if (!found.ok()) return failed();
        if (found.rows() > 0)
            stored[p] = stored_rating{r.ratings->pool, found.double_at(0, 0), found.double_at(0, 1), found.double_at(0, 2),
                                      static_cast<int>(found.int_at(0, 3)), found.int_at(0, 4)};
    }
    const game_ratings applied = detail::ratings_to_apply(r, stored);
    for (seat p = 0; p < 2; ++p) {
        const seat_rating_change& change = applied.seats[p];
        rating_params upsert = params_with(r.players[p].id).add(pool);
        add_side(upsert, change.after);
        if (!rating_res{upsert.run(connection, "upsert_rating")}.ok()) return failed();
        rating_params insert = params_with(r.id).add(std::int64_t{p}).add(r.players[p].id).add(pool);
        add_side(add_side(insert, change.before), change.after).add(r.ended_ms);
        if (!rating_res{insert.run(connection, "insert_rating_change")}.ok()) return failed();
    }
    return true;
}

archive_result<std::optional<stored_account>> postgres_store::find_account(std::string_view player_id)
{
    impl& m = *impl_;
    if (m.connected()) {
        const rating_res r = m.run("select_live_account", params_with(player_id));
        if (r.ok()) {
            if (r.rows() == 0) return {};
            return {stored_account{r.text_at(0, 0), r.text_at(0, 1), r.text_at(0, 2)}, false};
        }
    }
    m.log_account_failure("looking up the account of player " + std::string{player_id});
    return {{}, true};
}

archive_result<std::optional<player_profile>> postgres_store::find_player(std::string_view name)
{
    impl& m = *impl_;
    const auto failed = [&](std::string_view what) -> archive_result<std::optional<player_profile>> {
        m.log_account_failure(what);
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
        if (!m.connected()) return failed("looking up a player by name");
        const rating_res game = m.run("select_last_game_named", params_with(name));
        if (!game.ok()) return failed("looking up a player by name");
        if (game.rows() == 0) return {};
        const int at = account_name_key(game.text_at(0, 1)) == account_name_key(name) ? 0 : 2;
        p.player_id = game.text_at(0, at);
        p.name = game.text_at(0, at + 1);
        // The guest may have claimed an account since, under another name; a deleted account's
        // player is not shown.
        const rating_res claimed = m.run("select_account_row", params_with(p.player_id));
        if (!claimed.ok()) return failed("looking up the account of player " + p.player_id);
        if (claimed.rows() > 0) {
            if (claimed.bool_at(0, 3)) return {};
            p.account = true;
            p.name = claimed.text_at(0, 1);
        }
    }
    const rating_res results = m.run("select_results", params_with(p.player_id));
    if (!results.ok() || results.rows() != 1) return failed("counting the results of player " + p.player_id);
    p.draws = static_cast<int>(results.int_at(0, 1));
    p.wins = static_cast<int>(results.int_at(0, 2));
    p.losses = static_cast<int>(results.int_at(0, 0)) - p.wins - p.draws;
    auto ratings = ratings_of(p.player_id);
    if (ratings.failed) return {{}, true};
    p.ratings = std::move(ratings.value);
    return {std::move(p), false};
}

archive_result<std::vector<rating_point>> postgres_store::rating_history(std::string_view player_id, rating::pool pool,
                                                                         int limit)
{
    return impl_->read_rows<rating_point>(
        "select_history",
        params_with(player_id)
            .add(std::string{rating::name(pool)})
            .add(std::int64_t{std::clamp(limit, 1, max_rows_per_query)}),
        [](const rating_res& r, int i) {
            return rating_point{r.text_at(i, 0), r.int_at(i, 1), r.double_at(i, 2), r.double_at(i, 3)};
        },
        "reading the rating history of player " + std::string{player_id});
}

archive_result<std::vector<leaderboard_entry>> postgres_store::leaderboard(rating::pool pool, int limit)
{
    return impl_->read_rows<leaderboard_entry>(
        "select_leaderboard",
        params_with(rating::name(pool))
            .add_double(rating::lichess.provisional_deviation)
            .add(std::int64_t{std::clamp(limit, 1, max_rows_per_query)}),
        [](const rating_res& r, int i) {
            return leaderboard_entry{r.text_at(i, 0), r.text_at(i, 1), r.double_at(i, 2), r.double_at(i, 3),
                                     static_cast<int>(r.int_at(i, 4))};
        },
        "reading the leaderboard");
}

archive_result<std::vector<stored_tournament>> postgres_store::tournaments_of_player(std::string_view player_id,
                                                                                     int limit)
{
    return impl_->read_rows<stored_tournament>(
        "select_tournaments_of",
        params_with(detail::quoted_player_id(player_id)).add(std::int64_t{std::clamp(limit, 1, max_rows_per_query)}),
        [](const rating_res& r, int i) { return stored_tournament{r.text_at(i, 0), r.text_at(i, 1), r.text_at(i, 2), {}}; },
        "reading the tournaments of player " + std::string{player_id});
}

} // namespace quarto::archive
