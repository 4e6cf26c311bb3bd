// A thin RAII layer over SQLite's C API: one connection, prepared statements, transactions
// and savepoints.
// Failures are values (false / nullopt, and the connection's last error message), never
// exceptions. Not thread-safe: the archive uses one connection from one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace quarto::archive::sqlite {

class statement {
public:
    enum class step_result { row, done, error };

    statement() = default;
    explicit statement(sqlite3_stmt* handle) : handle_{handle} {}
    ~statement();
    statement(statement&& other) noexcept;
    statement& operator=(statement&& other) noexcept;
    statement(const statement&) = delete;
    statement& operator=(const statement&) = delete;

    // Parameters are 1-based. A failed bind is remembered and reported by the next step().
    statement& bind(int index, std::int64_t value);
    statement& bind(int index, std::string_view text);
    statement& bind_null(int index);
    // A REAL (named apart: an int argument would fit bind(int64) and bind(double) alike).
    statement& bind_double(int index, double value);
    // Bytes, stored as a BLOB (copied, as text is).
    statement& bind_blob(int index, std::string_view bytes);

    step_result step();
    // Columns are 0-based; valid after step() returned row.
    std::int64_t int_at(int column) const;
    std::string text_at(int column) const;
    double double_at(int column) const;
    // A BLOB (or text) column's bytes, valid until the next step() or reset().
    std::string_view bytes_at(int column) const;
    bool null_at(int column) const;

    // Ready for the next use: the statement's read or write is finished and bindings cleared.
    // Every use ends with this (see `in_use`), so no statement holds a read snapshot open.
    void reset();

private:
    sqlite3_stmt* handle_ = nullptr;
    int bind_error_ = 0;
};

// Resets a prepared statement when the scope that uses it ends.
class in_use {
public:
    explicit in_use(statement& s) : statement_{s} {}
    ~in_use() { statement_.reset(); }
    in_use(const in_use&) = delete;
    in_use& operator=(const in_use&) = delete;
    statement* operator->() { return &statement_; }
    statement& operator*() { return statement_; }

private:
    statement& statement_;
};

// Runs a statement that returns no rows, and makes it ready for the next use.
bool run(statement& s);

class database {
public:
    // Opens (creating if needed) the file at `path`. nullopt with `error` filled on failure.
    static std::optional<database> open(const std::string& path, std::string& error);

    database() = default;
    ~database();
    database(database&& other) noexcept;
    database& operator=(database&& other) noexcept;
    database(const database&) = delete;
    database& operator=(const database&) = delete;

    // When another connection holds the lock (the archive and the journal write the same
    // file): try again every `step`, up to `limit`. SQLite's own busy_timeout sleeps 1, 2, 5,
    // 10 … 100 ms between tries, which stalled journal commits for up to half a second behind
    // a finished game's write of a few milliseconds.
    void retry_when_busy(std::chrono::milliseconds limit, std::chrono::microseconds step);
    // Runs SQL without results (DDL, pragmas, BEGIN/COMMIT). False on failure; see last_error().
    bool exec(const char* sql);
    // The first column of the first row of a query, as text (e.g. "PRAGMA journal_mode=WAL").
    std::optional<std::string> query_text(const char* sql);
    std::optional<statement> prepare(std::string_view sql);
    // The rowid of the last row this connection inserted.
    std::int64_t last_insert_rowid() const;
    // False in autocommit mode: also after SQLite rolled a whole transaction back on its own
    // (e.g. on a full disk or an I/O error), which a failed statement may have caused.
    bool in_transaction() const;
    std::string last_error() const;

private:
    explicit database(sqlite3* handle) : handle_{handle} {}
    sqlite3* handle_ = nullptr;
    struct busy_retry {
        int tries;
        std::chrono::microseconds step;
    };
    std::unique_ptr<busy_retry> busy_retry_; // the busy handler's: on the heap, so that moves keep its place
};

// BEGIN IMMEDIATE ... COMMIT; rolled back when the scope ends without commit().
class transaction {
public:
    explicit transaction(database& db);
    ~transaction();
    transaction(const transaction&) = delete;
    transaction& operator=(const transaction&) = delete;

    bool began() const { return began_; }
    bool commit();

private:
    database& db_;
    bool began_ = false;
    bool done_ = false;
};

// SAVEPOINT ... RELEASE inside a transaction, so that one part can be undone alone. When the
// scope ends without release(), the changes since the savepoint are rolled back and the
// savepoint released, and the enclosing transaction goes on.
// Its statements are prepared once (the archive sets a savepoint for every game it stores, and
// parsing them each time cost a fifth of storing a game).
struct savepoint_statements {
    statement set, release, roll_back_to;
    static std::optional<savepoint_statements> prepare(database& db, std::string_view name);
};

class savepoint {
public:
    explicit savepoint(savepoint_statements& sql);
    ~savepoint();
    savepoint(const savepoint&) = delete;
    savepoint& operator=(const savepoint&) = delete;

    bool began() const { return began_; }
    // Keeps the changes in the enclosing transaction.
    bool release();
    // Undoes the changes since the savepoint. False if that failed: then the enclosing
    // transaction cannot be trusted and must be rolled back as a whole.
    bool roll_back();

private:
    savepoint_statements& sql_;
    bool began_ = false;
    bool done_ = false;
};

} // namespace quarto::archive::sqlite
