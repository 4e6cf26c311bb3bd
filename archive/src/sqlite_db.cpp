#include "sqlite_db.hpp"

#include <cstdint>
#include <thread>
#include <utility>

#include <sqlite3.h>

#include "sqlite_log_vfs.hpp"

namespace quarto::archive::sqlite {

statement::~statement()
{
    sqlite3_finalize(handle_);
}

statement::statement(statement&& other) noexcept
    : handle_{std::exchange(other.handle_, nullptr)}, bind_error_{std::exchange(other.bind_error_, 0)}
{
}

statement& statement::operator=(statement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        bind_error_ = std::exchange(other.bind_error_, 0);
    }
    return *this;
}

statement& statement::bind(int index, std::int64_t value)
{
    if (const int rc = sqlite3_bind_int64(handle_, index, value); rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
    return *this;
}

statement& statement::bind(int index, std::string_view text)
{
    // SQLITE_TRANSIENT: SQLite copies the text, so the caller's buffer may go away at once.
    const int rc = sqlite3_bind_text64(handle_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
    return *this;
}

statement& statement::bind_blob(int index, std::string_view bytes)
{
    const int rc = sqlite3_bind_blob64(handle_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
    return *this;
}

statement& statement::bind_double(int index, double value)
{
    if (const int rc = sqlite3_bind_double(handle_, index, value); rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
    return *this;
}

statement& statement::bind_null(int index)
{
    if (const int rc = sqlite3_bind_null(handle_, index); rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
    return *this;
}

statement::step_result statement::step()
{
    if (bind_error_) return step_result::error;
    switch (sqlite3_step(handle_)) {
    case SQLITE_ROW: return step_result::row;
    case SQLITE_DONE: return step_result::done;
    default: return step_result::error;
    }
}

std::int64_t statement::int_at(int column) const
{
    return sqlite3_column_int64(handle_, column);
}

double statement::double_at(int column) const
{
    return sqlite3_column_double(handle_, column);
}

std::string statement::text_at(int column) const
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(handle_, column));
    const int bytes = sqlite3_column_bytes(handle_, column);
    return text ? std::string{text, static_cast<std::size_t>(bytes)} : std::string{};
}

std::string_view statement::bytes_at(int column) const
{
    const void* data = sqlite3_column_blob(handle_, column);
    const int bytes = sqlite3_column_bytes(handle_, column);
    return data ? std::string_view{static_cast<const char*>(data), static_cast<std::size_t>(bytes)} : std::string_view{};
}

bool statement::null_at(int column) const
{
    return sqlite3_column_type(handle_, column) == SQLITE_NULL;
}

void statement::reset()
{
    sqlite3_reset(handle_);
    sqlite3_clear_bindings(handle_);
    bind_error_ = 0;
}

std::optional<database> database::open(const std::string& path, std::string& error)
{
    sqlite3* handle = nullptr;
    // NOMUTEX: one connection, used by one thread at a time (the archive's). The log's writes
    // are gathered into one a commit (sqlite_log_vfs.hpp).
    const int rc = sqlite3_open_v2(path.c_str(), &handle,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, log_gathering_vfs());
    if (rc != SQLITE_OK) {
        error = handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
        sqlite3_close(handle);
        return std::nullopt;
    }
    // SQLite opens a file it may not write read-only, quietly: every game would then fail to
    // be stored while the server seemed to run.
    if (sqlite3_db_readonly(handle, "main") == 1) {
        error = "the file is read-only (no permission to write it)";
        sqlite3_close(handle);
        return std::nullopt;
    }
    sqlite3_extended_result_codes(handle, 1);
    return database{handle};
}

database::~database()
{
    // Every statement is finalized before its connection closes (the store declares them after
    // the database), so close_v2 releases everything now.
    sqlite3_close_v2(handle_);
}

database::database(database&& other) noexcept
    : handle_{std::exchange(other.handle_, nullptr)}, busy_retry_{std::move(other.busy_retry_)}
{
}

database& database::operator=(database&& other) noexcept
{
    if (this != &other) {
        sqlite3_close_v2(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        busy_retry_ = std::move(other.busy_retry_);
    }
    return *this;
}

bool database::exec(const char* sql)
{
    return sqlite3_exec(handle_, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::optional<std::string> database::query_text(const char* sql)
{
    auto s = prepare(sql);
    if (!s) return std::nullopt;
    if (s->step() != statement::step_result::row) return std::nullopt;
    return s->text_at(0);
}

std::optional<statement> database::prepare(std::string_view sql)
{
    sqlite3_stmt* handle = nullptr;
    const int rc = sqlite3_prepare_v3(handle_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                      &handle, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(handle);
        return std::nullopt;
    }
    return statement{handle};
}

std::int64_t database::last_insert_rowid() const
{
    return sqlite3_last_insert_rowid(handle_);
}

void database::retry_when_busy(std::chrono::milliseconds limit, std::chrono::microseconds step)
{
    busy_retry_ = std::make_unique<busy_retry>(busy_retry{static_cast<int>(std::chrono::microseconds{limit} / step), step});
    sqlite3_busy_handler(
        handle_,
        [](void* retry, int tries_so_far) {
            const auto& r = *static_cast<const busy_retry*>(retry);
            if (tries_so_far >= r.tries) return 0;
            std::this_thread::sleep_for(r.step);
            return 1;
        },
        busy_retry_.get());
}

bool database::in_transaction() const
{
    return handle_ && sqlite3_get_autocommit(handle_) == 0;
}

std::string database::last_error() const
{
    return handle_ ? sqlite3_errmsg(handle_) : "no database";
}

transaction::transaction(database& db) : db_{db}
{
    began_ = db_.exec("BEGIN IMMEDIATE");
}

transaction::~transaction()
{
    if (began_ && !done_) db_.exec("ROLLBACK");
}

bool transaction::commit()
{
    if (!began_ || done_) return false;
    done_ = db_.exec("COMMIT");
    return done_;
}

bool run(statement& s)
{
    in_use use{s};
    return s.step() == statement::step_result::done;
}

std::optional<savepoint_statements> savepoint_statements::prepare(database& db, std::string_view name)
{
    const std::string n{name};
    auto set = db.prepare("SAVEPOINT " + n);
    auto release = db.prepare("RELEASE " + n);
    auto roll_back_to = db.prepare("ROLLBACK TO " + n);
    if (!set || !release || !roll_back_to) return std::nullopt;
    return savepoint_statements{std::move(*set), std::move(*release), std::move(*roll_back_to)};
}

savepoint::savepoint(savepoint_statements& sql) : sql_{sql}
{
    began_ = run(sql_.set);
}

savepoint::~savepoint()
{
    if (began_ && !done_) roll_back();
}

bool savepoint::release()
{
    if (!began_ || done_) return false;
    done_ = run(sql_.release);
    return done_;
}

bool savepoint::roll_back()
{
    if (!began_ || done_) return false;
    done_ = true;
    // ROLLBACK TO keeps the savepoint on the stack; RELEASE takes it off.
    return run(sql_.roll_back_to) && run(sql_.release);
}

} // namespace quarto::archive::sqlite
