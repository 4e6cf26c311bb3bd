// The SQLite store's connection and prepared statements, shared by the files that implement
// it: sqlite_store.cpp (games, tournaments, analyses), accounts_sqlite.cpp and ratings_sqlite.cpp
// (rated games, profiles, rating charts, the leaderboard).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "quarto/archive/sqlite_store.hpp"
#include "game_row.hpp"
#include "sqlite_db.hpp"

namespace quarto::archive {

struct sqlite_store::impl {
    std::string path;
    sqlite::database db; // declared before the statements: they are finalized first
    sqlite::statement insert_game, select_game, select_by_player;
    sqlite::statement upsert_tournament, select_tournaments, select_tournament, delete_tournament;
    sqlite::statement upsert_analysis, select_analysis;
    sqlite::statement insert_account, select_account_by_name, select_account_player, update_password, end_other_sessions;
    sqlite::statement insert_session, touch_session, delete_session, delete_sessions, select_ratings, insert_rated_game;
    sqlite::statement upsert_rating, delete_account_row, rename_player0, rename_player1, select_account_row, select_sessions;
    sqlite::statement select_game_ids;
    sqlite::statement select_pool_rating, insert_rating_change, select_live_account, select_account_state;
    sqlite::statement select_last_game_named, select_results, select_history, select_leaderboard;
    sqlite::statement select_tournaments_of;
    sqlite::savepoint_statements game_savepoint; // around each game of a batch
    std::atomic<std::uint64_t> commits{0}; // read by other threads (game_archive::commits)

    // Prepares the statements of the accounts (accounts_sqlite.cpp); false on failure.
    bool prepare_account_statements();
    // Prepares the statements of the ratings and profiles (ratings_sqlite.cpp); false on failure.
    bool prepare_rating_statements();
    // Applies a rated game's ratings (store.hpp, save_games) in the transaction under way, the
    // game's row written; a casual game changes nothing. False (logged) when it fails; the
    // caller undoes what was written.
    bool apply_game_ratings(const game_record& r);

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
        if (s->step() != sqlite::statement::step_result::done) {
            log_failure("storing game " + r.id);
            return false;
        }
        return true;
    }

    // The games row the statement stands on (columns as in game_columns), or nullopt (logged)
    // when it holds something this server cannot read.
    std::optional<game_record> game_from_row(const sqlite::statement& s) const
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
        struct columns {
            const sqlite::statement& s;
            bool is_null(int c) const { return s.null_at(c); }
            std::string text(int c) const { return s.text_at(c); }
            double real(int c) const { return s.double_at(c); }
            std::int64_t integer(int c) const { return s.int_at(c); }
        };
        detail::read_rating_columns(row, columns{s});
        return detail::record_of(std::move(row), path);
    }

    // Reads every row of a games query, each with its moves; failed if any row cannot be read.
    archive_result<std::vector<game_record>> read_games(sqlite::statement& s)
    {
        archive_result<std::vector<game_record>> out;
        for (;;) {
            const sqlite::statement::step_result r = s.step();
            if (r == sqlite::statement::step_result::done) return out;
            if (r == sqlite::statement::step_result::error) {
                log_failure("reading games");
                return {{}, true};
            }
            auto game = game_from_row(s);
            if (!game) return {{}, true};
            out.value.push_back(std::move(*game));
        }
    }

    // Reads every row of a query, bound and ready, with `read`; failed (logged as `what`) if a
    // step fails.
    template <class T, class Read>
    archive_result<std::vector<T>> read_rows(sqlite::statement& s, Read read, std::string_view what)
    {
        sqlite::in_use u{s};
        archive_result<std::vector<T>> out;
        for (sqlite::statement::step_result r; (r = u->step()) != sqlite::statement::step_result::done;) {
            if (r == sqlite::statement::step_result::error) {
                log_failure(what);
                return {{}, true};
            }
            out.value.push_back(read(*u));
        }
        return out;
    }

    static stored_tournament tournament_from_row(const sqlite::statement& s)
    {
        return {s.text_at(0), s.text_at(1), s.text_at(2), s.text_at(3)};
    }
};

} // namespace quarto::archive
