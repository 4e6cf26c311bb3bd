// The journal in the archive's SQLite file (journal_storage.hpp).
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include <spdlog/spdlog.h>

#include "journal_storage.hpp"
#include "quarto/archive/journal.hpp"
#include "sqlite_db.hpp"

namespace quarto::archive::detail {
namespace {

using sqlite::statement;
using step_result = sqlite::statement::step_result;

// Each page in the log comes after a header of its own (SQLite's file format, "WAL format").
constexpr std::size_t wal_frame_header_bytes = 24;

bool configure(sqlite::database& db)
{
    // A commit waits for the archive's write in short steps: the events of its batch wait.
    db.retry_when_busy(std::chrono::milliseconds{5000}, std::chrono::microseconds{100});
    return true;
}

// The rows are appended at the b-tree's right edge; commits do not wait for the disk
// (synchronous=NORMAL: a commit survives the process dying, which is what the journal is
// for). The log is flushed, and checkpointed, on a second connection by a thread of its own,
// within sync_interval of a commit to the file (the journal's, or the game archive's when it
// leaves its flushes to this thread: file_sync::by_journal), so a commit never waits for the
// disk, unless the log has grown past max_log_bytes (then this connection checkpoints too).
class sqlite_journal_storage final : public journal_storage {
public:
    sqlite_journal_storage(std::string path, sqlite::database db, sqlite::database sync_db)
        : path_{std::move(path)}, db_{std::move(db)}, sync_db_{std::move(sync_db)}
    {
    }
    ~sqlite_journal_storage() override { close(); }

    bool prepare()
    {
        const std::pair<statement*, const char*> queries[] = {
            // Prepared once, as the statements are: a commit would otherwise parse both again.
            {&begin_, "BEGIN IMMEDIATE"}, // the write lock at once, as the archive takes it
            {&commit_, "COMMIT"},
            {&insert_, "INSERT INTO journal (entries) VALUES (?1)"},
            {&upsert_cut_, "INSERT INTO journal_cuts (room, below_n) VALUES (?1, ?2) "
                           "ON CONFLICT (room) DO UPDATE SET below_n = max(below_n, excluded.below_n)"},
            {&delete_cut_, "DELETE FROM journal_cuts WHERE room = ?1"},
            {&delete_row_, "DELETE FROM journal WHERE seq = ?1"},
            {&select_cuts_, "SELECT room, below_n FROM journal_cuts"},
            {&select_rows_, "SELECT seq, entries FROM journal ORDER BY seq"},
        };
        for (const auto& [target, sql] : queries) {
            auto s = db_.prepare(sql);
            if (!s) return false;
            *target = std::move(*s);
        }
        // What was committed before (the archive's migrations) is flushed now.
        synced_version_ = sync_db_.query_text("PRAGMA data_version");
        sync_log();
        syncer_ = std::thread{[this] { run_syncer(); }};
        return true;
    }

    const std::string& location() const override { return path_; }
    std::string last_error() override { return db_.last_error(); }

    bool begin() override { return sqlite::run(begin_); }
    std::optional<std::int64_t> append_row(std::string_view entries) override
    {
        sqlite::in_use u{insert_};
        u->bind_blob(1, entries);
        if (u->step() != step_result::done) return std::nullopt;
        return db_.last_insert_rowid();
    }
    bool raise_cut(std::string_view room, std::int64_t below_n) override
    {
        sqlite::in_use u{upsert_cut_};
        u->bind(1, room).bind(2, below_n);
        return u->step() == step_result::done;
    }
    bool delete_row(std::int64_t seq) override
    {
        sqlite::in_use u{delete_row_};
        u->bind(1, seq);
        return u->step() == step_result::done;
    }
    bool delete_cut(std::string_view room) override
    {
        sqlite::in_use u{delete_cut_};
        u->bind(1, room);
        return u->step() == step_result::done;
    }
    bool commit() override { return sqlite::run(commit_); }
    void roll_back() override
    {
        if (db_.in_transaction()) db_.exec("ROLLBACK");
    }

    bool read_cuts(const std::function<void(std::string_view, std::int64_t)>& each) override
    {
        sqlite::in_use s{select_cuts_};
        for (;;) {
            const step_result r = s->step();
            if (r == step_result::done) return true;
            if (r == step_result::error) return false;
            each(s->text_at(0), s->int_at(1));
        }
    }
    bool read_rows(const std::function<void(std::int64_t, std::string_view)>& each) override
    {
        sqlite::in_use s{select_rows_};
        for (;;) {
            const step_result r = s->step();
            if (r == step_result::done) return true;
            if (r == step_result::error) return false;
            each(s->int_at(0), s->bytes_at(1));
        }
    }

    std::uint64_t syncs() const override { return syncs_.load(std::memory_order_relaxed); }
    void close() override
    {
        {
            std::lock_guard lock{sync_mutex_};
            sync_closing_ = true;
        }
        sync_wake_.notify_one();
        if (syncer_.joinable()) syncer_.join();
    }

private:
    void run_syncer()
    {
        pthread_setname_np(pthread_self(), "quarto-jsync");
        for (;;) {
            bool last = false;
            {
                std::unique_lock lock{sync_mutex_};
                sync_wake_.wait_for(lock, sync_interval, [this] { return sync_closing_; });
                last = sync_closing_;
            }
            sync_if_changed();
            if (last) return;
        }
    }

    void sync_if_changed()
    {
        // It changes whenever another connection has committed to the file since this one last
        // read it (its own checkpoints do not change it).
        const auto version = sync_db_.query_text("PRAGMA data_version");
        if (version && version == synced_version_) return;
        sync_log();
        synced_version_ = version;
    }

    // The log's own file, flushed through a descriptor of our own (with synchronous=NORMAL
    // SQLite flushes it only when checkpointing), then a checkpoint that does not wait for the
    // writer.
    void sync_log()
    {
        const std::string log = path_ + "-wal";
        const int fd = ::open(log.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (::fdatasync(fd) != 0) spdlog::error("journal {}: cannot flush the log to the disk", path_);
            ::close(fd);
        }
        syncs_.fetch_add(1, std::memory_order_relaxed);
        if (!sync_db_.exec("PRAGMA wal_checkpoint(PASSIVE)"))
            spdlog::warn("journal {}: checkpoint: {}", path_, sync_db_.last_error());
    }

    std::string path_;
    sqlite::database db_; // before the statements: they are finalized first
    statement begin_, commit_, insert_, upsert_cut_, delete_cut_, delete_row_, select_cuts_, select_rows_;
    std::atomic<std::uint64_t> syncs_{0};
    std::optional<std::string> synced_version_; // PRAGMA data_version when last flushed

    sqlite::database sync_db_;
    std::mutex sync_mutex_;
    std::condition_variable sync_wake_;
    bool sync_closing_ = false;
    std::thread syncer_;
};

} // namespace

std::variant<std::unique_ptr<journal_storage>, open_error> open_sqlite_journal(const std::string& path)
{
    std::string error;
    auto db = sqlite::database::open(path, error);
    if (!db) return open_error{"journal: cannot open " + path + ": " + error};
    const auto fail = [&](std::string_view what) {
        return open_error{"journal: " + std::string{what} + " " + path + ": " + db->last_error()};
    };
    if (!configure(*db)) return fail("cannot configure");
    const auto version = db->query_text("PRAGMA user_version");
    if (!version) return fail("cannot read");
    if (*version != std::to_string(schema_version))
        return open_error{"journal: " + path + " has schema version " + *version + ", not " +
                          std::to_string(schema_version) + " (the archive opens the file first)"};
    const auto mode = db->query_text("PRAGMA journal_mode = WAL");
    if (!mode || *mode != "wal") return fail("cannot switch to WAL mode:");
    // No checkpoint on commit either (the syncer and the game archive run them: a checkpoint
    // flushes the file twice, and the next commit would wait), unless the log has reached
    // max_log_bytes (journal.hpp). Debian's SQLite zeroes what a delete frees (secure_delete):
    // for rows of public events that doubled the pages a commit writes, since each commit
    // frees an old row's pages.
    const auto page_bytes = db->query_text("PRAGMA page_size");
    if (!page_bytes) return fail("cannot read");
    const std::size_t frame_bytes = std::stoul(*page_bytes) + wal_frame_header_bytes;
    const std::string log_limits = "PRAGMA wal_autocheckpoint = " + std::to_string(max_log_bytes / frame_bytes) +
                                   "; PRAGMA journal_size_limit = " + std::to_string(max_log_bytes);
    if (!db->exec("PRAGMA synchronous = NORMAL") || !db->exec(log_limits.c_str()) || !db->exec("PRAGMA secure_delete = OFF"))
        return fail("cannot configure");

    auto sync_db = sqlite::database::open(path, error);
    if (!sync_db || !configure(*sync_db) || !sync_db->exec("PRAGMA synchronous = NORMAL") ||
        !sync_db->exec(("PRAGMA journal_size_limit = " + std::to_string(max_log_bytes)).c_str()))
        return open_error{"journal: cannot open a second connection to " + path};

    auto storage = std::make_unique<sqlite_journal_storage>(path, std::move(*db), std::move(*sync_db));
    if (!storage->prepare()) return open_error{"journal: cannot prepare a query on " + path + ": " + storage->last_error()};
    return std::unique_ptr<journal_storage>{std::move(storage)};
}

} // namespace quarto::archive::detail
