// What the journal (journal.hpp) asks of its database, whichever it is: a transaction of
// appended rows, cut upserts and deletions, and the reads of load(). The journal's thread is
// the only user. sqlite_journal_storage keeps the journal in the archive's file (WAL, with a
// syncer of its own that flushes the log within sync_interval); postgres_journal_storage in
// the archive's PostgreSQL database (asynchronous commits: PostgreSQL's WAL writer flushes
// them within its own delay).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "quarto/archive/store.hpp"

namespace quarto::archive::detail {

class journal_storage {
public:
    virtual ~journal_storage() = default;

    virtual const std::string& location() const = 0;
    virtual std::string last_error() = 0;

    virtual bool begin() = 0;
    // The new row's seq (increasing), or nullopt on failure.
    virtual std::optional<std::int64_t> append_row(std::string_view entries) = 0;
    // below_n only grows: the larger of the stored and the new one is kept.
    virtual bool raise_cut(std::string_view room, std::int64_t below_n) = 0;
    virtual bool delete_row(std::int64_t seq) = 0;
    virtual bool delete_cut(std::string_view room) = 0;
    virtual bool commit() = 0;
    // After a failure within the transaction.
    virtual void roll_back() = 0;

    // Each cut, then each row by seq: false (logged by the caller) when they cannot be read.
    virtual bool read_cuts(const std::function<void(std::string_view room, std::int64_t below_n)>& each) = 0;
    virtual bool read_rows(const std::function<void(std::int64_t seq, std::string_view entries)>& each) = 0;

    // Several nodes on one database (PostgreSQL with a node; the others have nothing to fence).
    // This node's fencing token from now on: every transaction checks it first, and fails once
    // another node has taken this node's rows over. `previous` (0 at open): the token this node
    // held before; false when the rows were taken over since (this node is fenced).
    virtual bool fence(std::int64_t token, std::int64_t previous) { return (void)token, (void)previous, true; }
    virtual bool fenced() const { return false; }
    // What a node took over from a dead one: its journal rows' bytes and its tournaments.
    struct taken_rows {
        std::vector<std::string> journal;
        std::vector<stored_tournament> tournaments;
    };
    // Makes the journal rows and the tournaments of the dead node `dead`, whose last token was
    // `token`, this node's, and fences it, in one transaction. Empty when `dead` has a new token
    // (it is back) or had nothing; nullopt when the database failed.
    virtual std::optional<taken_rows> take_over(const std::string& dead, std::int64_t token)
    {
        return (void)dead, (void)token, taken_rows{};
    }

    // Flushes of the log to the disk so far (SQLite's syncer), from any thread.
    virtual std::uint64_t syncs() const = 0;
    // Stops what runs beside the journal's thread (SQLite's syncer, after its last flush).
    virtual void close() = 0;
};

std::variant<std::unique_ptr<journal_storage>, open_error> open_sqlite_journal(const std::string& path);
// `node`: the rows of this node alone (see open_store).
std::variant<std::unique_ptr<journal_storage>, open_error> open_postgres_journal(const std::string& address,
                                                                                 const std::string& node);

} // namespace quarto::archive::detail
