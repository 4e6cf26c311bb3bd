// The PostgreSQL store's connection and prepared statements, shared by the files that
// implement it: postgres_store.cpp (games, tournaments, analyses), accounts_postgres.cpp and
// ratings_postgres.cpp (rated games, profiles, rating charts, the leaderboard).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <libpq-fe.h>
#include <spdlog/spdlog.h>

#include "quarto/archive/postgres_store.hpp"
#include "game_row.hpp"
#include "pg_result.hpp"

namespace quarto::archive {
namespace detail {

// Player names compared as SQLite's NOCASE compares them, ASCII letters only: the games'
// indexes by name are on the first two, and a query uses them by repeating them.
inline constexpr const char* ascii_lower_player0 =
    "translate(player0_name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')";
inline constexpr const char* ascii_lower_player1 =
    "translate(player1_name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')";
inline constexpr const char* ascii_lower_param = "translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')";

} // namespace detail

// A statement prepared on the connection under its name.
struct prepared_statement {
    const char* name;
    std::string sql;
};

struct postgres_store::impl {
    using result = detail::pg_result;
    using parameters = detail::pg_parameters;

    std::string location; // the address without its password
    std::string node;     // see open_store
    PGconn* connection = nullptr;
    std::vector<prepared_statement> statements;
    std::atomic<std::uint64_t> commits{0};

    // The statements of the accounts (accounts_postgres.cpp), to prepare with the others.
    static void add_account_statements(std::vector<prepared_statement>& out);
    // The statements of the ratings and profiles (ratings_postgres.cpp).
    static void add_rating_statements(std::vector<prepared_statement>& out);
    // Applies a rated game's ratings (store.hpp, save_games) in the transaction under way, the
    // game's row written; a casual game changes nothing. False (logged) when it fails; the
    // caller undoes what was written.
    bool apply_game_ratings(const game_record& r);

    ~impl()
    {
        if (connection) PQfinish(connection);
    }

    std::string last_error() const
    {
        std::string e = connection ? PQerrorMessage(connection) : "no connection";
        while (!e.empty() && (e.back() == '\n' || e.back() == ' ')) e.pop_back();
        return e;
    }
    void log_failure(std::string_view what) const { spdlog::error("archive {}: {}: {}", location, what, last_error()); }
    // For the accounts' rows: PostgreSQL's first line only, since its DETAIL and "Failing row
    // contains" lines quote the row's values (a password hash, a session's hash).
    void log_account_failure(std::string_view what) const
    {
        const std::string e = last_error();
        spdlog::error("archive {}: {}: {}", location, what, e.substr(0, e.find('\n')));
    }

    bool exec(const std::string& sql)
    {
        const result r{PQexec(connection, sql.c_str())};
        return r.ok();
    }

    bool prepare_all()
    {
        for (const auto& s : statements) {
            const result r{PQprepare(connection, s.name, s.sql.c_str(), 0, nullptr)};
            if (!r.ok()) return false;
        }
        return true;
    }

    // A connection that broke is opened again (and its statements prepared again): the
    // server may have restarted since the last request.
    bool connected()
    {
        if (PQstatus(connection) == CONNECTION_OK) return true;
        PQreset(connection);
        if (PQstatus(connection) != CONNECTION_OK || !prepare_all()) {
            log_failure("connecting again");
            return false;
        }
        spdlog::warn("archive {}: connected again", location);
        return true;
    }

    // Every statement run alone here is a read, an upsert or a delete: run again once after a
    // reconnection it is the same request, so a database that restarted between two
    // requests costs none of them.
    result run(const char* statement, const parameters& p)
    {
        result r{p.run(connection, statement)};
        if (r.ok() || PQstatus(connection) == CONNECTION_OK || !connected()) return r;
        return result{p.run(connection, statement)};
    }

    // BEGIN, again on a new connection if the old one broke: nothing was sent in it yet.
    bool begin()
    {
        if (exec("BEGIN")) return true;
        return PQstatus(connection) != CONNECTION_OK && connected() && exec("BEGIN");
    }

    bool insert_game_row(const game_record& r)
    {
        const detail::game_row row = detail::row_of(r);
        parameters p;
        p.add(row.id).add(row.room).add(row.room_name);
        p.add(row.player0_id).add(row.player0_name).add(row.player1_id).add(row.player1_name);
        p.add(row.squares).add(row.attributes).add(row.false_claim);
        p.add(row.move_ms).add(row.claim_ms).add(row.first_seat).add(row.winner).add(row.reason).add(row.line);
        p.add(row.started_ms).add(row.ended_ms).add(row.moves);
        if (result{p.run(connection, "insert_game")}.ok()) return true; // in a transaction: never run again alone
        log_failure("storing game " + r.id);
        return false;
    }

    std::optional<game_record> game_at(const result& r, int row) const
    {
        detail::game_row g;
        g.id = r.text_at(row, 0);
        g.room = r.text_at(row, 1);
        g.room_name = r.text_at(row, 2);
        g.player0_id = r.text_at(row, 3);
        g.player0_name = r.text_at(row, 4);
        g.player1_id = r.text_at(row, 5);
        g.player1_name = r.text_at(row, 6);
        g.squares = r.bool_at(row, 7);
        g.attributes = r.int_at(row, 8);
        g.false_claim = r.text_at(row, 9);
        if (!r.null_at(row, 10)) g.move_ms = r.int_at(row, 10);
        g.claim_ms = r.int_at(row, 11);
        g.first_seat = r.int_at(row, 12);
        if (!r.null_at(row, 13)) g.winner = r.int_at(row, 13);
        g.reason = r.text_at(row, 14);
        g.line = r.int_at(row, 15);
        g.started_ms = r.int_at(row, 16);
        g.ended_ms = r.int_at(row, 17);
        g.moves = r.text_at(row, 18);
        struct columns {
            const result& r;
            int row;
            bool is_null(int c) const { return r.null_at(row, c); }
            std::string text(int c) const { return r.text_at(row, c); }
            double real(int c) const { return r.double_at(row, c); }
            std::int64_t integer(int c) const { return r.int_at(row, c); }
        };
        detail::read_rating_columns(g, columns{r, row});
        return detail::record_of(std::move(g), location);
    }

    archive_result<std::vector<game_record>> read_games(const char* statement, const parameters& p)
    {
        if (!connected()) return {{}, true};
        const result r = run(statement, p);
        if (!r.ok()) {
            log_failure("reading games");
            return {{}, true};
        }
        archive_result<std::vector<game_record>> out;
        for (int i = 0; i < r.rows(); ++i) {
            auto game = game_at(r, i);
            if (!game) return {{}, true};
            out.value.push_back(std::move(*game));
        }
        return out;
    }

    // Runs a read alone and reads every row with `read`; failed (logged as `what`) if it fails.
    template <class T, class Read>
    archive_result<std::vector<T>> read_rows(const char* statement, const parameters& p, Read read, std::string_view what)
    {
        if (connected()) {
            const result r = run(statement, p);
            if (r.ok()) {
                archive_result<std::vector<T>> out;
                for (int i = 0; i < r.rows(); ++i) out.value.push_back(read(r, i));
                return out;
            }
        }
        log_failure(what);
        return {{}, true};
    }

    // A write of its own (autocommit).
    bool write(const char* statement, const parameters& p, const std::string& what)
    {
        if (connected() && run(statement, p).ok()) {
            commits.fetch_add(1, std::memory_order_relaxed);
            return true;
        }
        log_failure(what);
        return false;
    }

    static stored_tournament tournament_at(const result& r, int row)
    {
        return {r.text_at(row, 0), r.text_at(row, 1), r.text_at(row, 2), r.text_at(row, 3)};
    }
};

} // namespace quarto::archive
