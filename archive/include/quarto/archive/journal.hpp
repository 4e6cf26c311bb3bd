// The journal of the live rooms: every accepted change of a room, in order, in the archive's
// SQLite file (or its PostgreSQL database: src/journal_storage.hpp), so that the games in
// progress survive the process (kill -9, a crash, a restart). The archive stores the entries
// and knows nothing of what they mean: `change` is the server's encoding of the change,
// `event` the event text that announced it (if any).
//
// Writes come in batches (a shard's turn) from any thread and are committed on the journal's
// own thread: everything that arrives within `journal_commit_window` of the first waiting
// batch shares its transaction (group commit), and the window closes earlier once every writer
// that has written since it was last idle says it is idle (`writer_idle`). Each batch's
// callback runs once its transaction has committed; only then may the events it holds reach a
// client. The SQLite connection runs in WAL mode with synchronous=NORMAL: a committed batch
// survives the process dying at any instant; the write-ahead log is also flushed to the disk
// within a second (`sync_interval`) of any connection's commit to the file (the game archive's
// too: file_sync::by_journal), so a power cut loses at most the last second.
// PostgreSQL's commits are asynchronous, to the same effect (its WAL writer flushes within
// wal_writer_delay).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "quarto/archive/journal_batch.hpp"
#include "quarto/archive/sqlite_store.hpp"

namespace quarto::archive {

inline constexpr std::chrono::milliseconds sync_interval{1000};
// The SQLite log file's size at most, a soft bound (archive/README.md). Under a load that
// never pauses the other connections' checkpoints never catch up with the journal's commits,
// and the log would grow by tens of MiB a second; past this size the journal's own connection
// checkpoints after its commit, starts the log over and truncates the file back to it.
inline constexpr std::size_t max_log_bytes = std::size_t{64} << 20;
// How long the first batch waiting for a transaction lets others join it at most: each commit
// costs about as much as the moves it holds, so under load (a shard never idle) commits every
// turn nearly doubled the server's CPU per move. When the writers go idle sooner, nothing more
// is coming: the window closes then (bench/RESULTS.md, "The journal of live rooms").
inline constexpr std::chrono::microseconds journal_commit_window{1000};

class journal {
public:
    // Opens the store that open_store has brought to the current schema: an SQLite file, or a
    // PostgreSQL database (a postgresql:// address), on a connection of its own.
    // `node`: as for open_store (a node's live rooms are its own).
    static std::variant<std::unique_ptr<journal>, open_error> open(const std::string& where, const std::string& node = {});
    ~journal(); // close()s
    journal(const journal&) = delete;
    journal& operator=(const journal&) = delete;

    // Every entry, by room and then n: what restore reads at startup. Synchronous.
    archive_result<std::vector<journal_entry>> load();

    // Queues the batch, carried out in order after those queued before. `committed` runs on the
    // journal thread when its transaction has ended: true once committed, false if it failed
    // (then nothing of the transaction was written; logged). After close(): false at once.
    // `writer`: the writer's number (small numbers, 0 up: a shard's index), if it calls
    // writer_idle when it has nothing more to write for now (its event loop is about to wait).
    // In an SQLite file, a window closes as soon as every writer that has written since its
    // last writer_idle has called it again, and no batch without a writer is waiting; else
    // (and always in PostgreSQL, whose commits cost more, and while entries come at a heavy
    // rate: journal.cpp's heavy_entries_per_s) at its end.
    void write(journal_batch batch, std::function<void(bool committed)> committed,
               std::optional<std::size_t> writer = std::nullopt);
    void writer_idle(std::size_t writer);
    // Whether writer_idle can close a window (SQLite): if not, writers need not call it.
    bool closes_windows_early() const;
    // The longest a window stays open (default journal_commit_window): tests lengthen it.
    void set_commit_window(std::chrono::microseconds window);

    // Blocks until everything written before has been committed.
    void flush();

    // Nodes sharing one PostgreSQL database (opened with a node). This node's fencing token:
    // its lease's, from `open` on (previous 0) or after its lease had to be taken again
    // (previous: the one before). `done` (on the journal thread): false when another node has
    // taken this node's rows over meanwhile (it is fenced: every write fails from then on).
    void fence(std::int64_t token, std::int64_t previous, std::function<void(bool)> done);
    bool fenced() const;
    // What take_over took: the entries of the dead node's rooms (by room, then n) and its
    // tournaments.
    struct taken_over {
        std::vector<journal_entry> entries;
        std::vector<stored_tournament> tournaments;
    };
    // Takes the rows and tournaments of the dead node `dead` (its last token `token`) as this
    // node's own, fencing it, and answers on the journal thread: empty when `dead` is back or
    // had none; failed when the database failed.
    void take_over(std::string dead, std::int64_t token, std::function<void(archive_result<taken_over>)> done);
    // Commits what is queued, flushes the log to the disk, stops the thread. Idempotent.
    void close();

    // How many bytes of batches that could not be written (the database out of reach) are kept
    // to be written first once it answers; past that the oldest are dropped (default 64 MiB).
    void set_backlog_limit(std::size_t bytes);
    // Any thread: the batches waiting to be written have reached half of that, and no write
    // has succeeded since (dropping them past the limit does not end it). New games should
    // wait: the games in progress keep the rest.
    bool backlogged() const;

    // Transactions committed and disk flushes of the log so far (from any thread). SQLite
    // flushes once on open, then within sync_interval of a commit to the file by anyone.
    std::uint64_t commits() const;
    std::uint64_t syncs() const;

private:
    struct impl;
    explicit journal(std::unique_ptr<impl> i);
    std::unique_ptr<impl> impl_;
};

} // namespace quarto::archive
