// The journal in the archive's PostgreSQL database (journal_storage.hpp), on a connection of
// its own. Commits are asynchronous (synchronous_commit = off): a commit returns once
// PostgreSQL has it in memory and its WAL writer flushes it within wal_writer_delay (200 ms by
// default). So, as with the SQLite file, a committed batch survives quarto-server dying at any
// instant, and a crash of the database's own machine loses at most that last moment.
#include <array>
#include <atomic>
#include <string_view>

#include <libpq-fe.h>
#include <spdlog/spdlog.h>

#include "journal_storage.hpp"
#include "pg_result.hpp"
#include "quarto/archive/postgres_store.hpp"

namespace quarto::archive::detail {
namespace {

class postgres_journal_storage final : public journal_storage {
public:
    postgres_journal_storage(std::string_view address, std::string node, PGconn* c)
        : location_{without_password(address)}, node_{std::move(node)}, c_{c}
    {
    }
    ~postgres_journal_storage() override { PQfinish(c_); }

    bool prepare()
    {
        const std::pair<const char*, const char*> statements[] = {
            // A node's rows and cuts are its own (node: see open_store): rooms are a node's.
            {"append_row", "INSERT INTO journal (entries, node) VALUES ($1, $2) RETURNING seq"},
            {"raise_cut", "INSERT INTO journal_cuts (room, below_n, node) VALUES ($1, $2, $3) "
                          "ON CONFLICT (room) DO UPDATE SET below_n = greatest(journal_cuts.below_n, excluded.below_n), "
                          "node = excluded.node"},
            {"delete_cut", "DELETE FROM journal_cuts WHERE room = $1"},
            {"delete_row", "DELETE FROM journal WHERE seq = $1"},
            {"select_cuts", "SELECT room, below_n FROM journal_cuts WHERE node = $1"},
            {"select_rows", "SELECT seq, entries FROM journal WHERE node = $1 ORDER BY seq"},
            {"check_fence", "SELECT 1 FROM quarto_fence WHERE node = $1 AND token = $2 FOR SHARE"},
        };
        for (const auto& [name, sql] : statements) {
            const pg_result r{PQprepare(c_, name, sql, 0, nullptr)};
            if (!r.ok()) return false;
        }
        return exec("SET synchronous_commit = off");
    }

    const std::string& location() const override { return location_; }
    std::string last_error() override
    {
        std::string e = PQerrorMessage(c_);
        while (!e.empty() && (e.back() == '\n' || e.back() == ' ')) e.pop_back();
        return e;
    }

    bool begin() override
    {
        // A connection that broke (the database restarted) is opened again, and the
        // transaction begun on the new one: nothing of it had been sent. A break in the middle
        // of a transaction fails it (the journal reports the batch not written).
        const bool begun = (PQstatus(c_) == CONNECTION_OK && exec("BEGIN")) ||
                           (PQstatus(c_) != CONNECTION_OK && reconnect() && exec("BEGIN"));
        if (!begun || token_ == 0) return begun;
        // Fenced: another node took this node's rooms over. The lock (FOR SHARE) makes a take
        // over wait for this transaction, or this one see it.
        if (fenced_) return roll_back(), false;
        const pg_result r{pg_parameters{}.add(node_).add(token_).run(c_, "check_fence")};
        if (r.ok() && r.rows() == 1) return true;
        if (r.ok()) {
            fenced_ = true;
            spdlog::critical("journal {}: node {} is fenced: another node has taken its rooms over", location_, node_);
        }
        roll_back();
        return false;
    }

    bool fence(std::int64_t token, std::int64_t previous) override
    {
        if (node_.empty()) return true;
        const pg_result r{previous == 0 ? pg_parameters{}.add(node_).add(token).run_sql(
                                              c_, "INSERT INTO quarto_fence (node, token) VALUES ($1, $2) "
                                                  "ON CONFLICT (node) DO UPDATE SET token = excluded.token")
                                        : pg_parameters{}.add(node_).add(token).add(previous).run_sql(
                                              c_, "UPDATE quarto_fence SET token = $2 WHERE node = $1 AND token = $3")};
        if (!r.ok()) return false;
        if (previous != 0 && r.affected() != 1) {
            fenced_ = true;
            spdlog::critical("journal {}: node {} is fenced: another node has taken its rooms over", location_, node_);
            return false;
        }
        token_ = token;
        return true;
    }
    bool fenced() const override { return fenced_; }

    std::optional<taken_rows> take_over(const std::string& dead, std::int64_t token) override
    {
        if (!begin()) return std::nullopt;
        const auto fail = [&] {
            roll_back();
            return std::optional<taken_rows>{};
        };
        // The dead node's token, fenced; another one (it is back) leaves everything as it is.
        const pg_result fence_row{pg_parameters{}.add(dead).add(token).run_sql(
            c_, "UPDATE quarto_fence SET token = -1 WHERE node = $1 AND token = $2")};
        if (!fence_row.ok()) return fail();
        if (fence_row.affected() != 1) {
            const pg_result any{pg_parameters{}.add(dead).run_sql(c_, "SELECT 1 FROM quarto_fence WHERE node = $1")};
            if (!any.ok()) return fail();
            if (any.rows() > 0) {
                roll_back();
                return taken_rows{};
            }
        }
        const pg_result moved{PQexecParams(c_, "UPDATE journal SET node = $1 WHERE node = $2 RETURNING entries", 2, nullptr,
                                           std::array<const char*, 2>{node_.c_str(), dead.c_str()}.data(), nullptr,
                                           nullptr, 1)};
        const pg_result cuts{pg_parameters{}.add(node_).add(dead).run_sql(
            c_, "UPDATE journal_cuts SET node = $1 WHERE node = $2")};
        const pg_result tournaments{pg_parameters{}.add(node_).add(dead).run_sql(
            c_, "UPDATE tournaments SET node = $1 WHERE node = $2 RETURNING id, name, status, state")};
        if (!moved.ok() || !cuts.ok() || !tournaments.ok() || !commit()) return fail();
        taken_rows taken;
        for (int i = 0; i < moved.rows(); ++i) taken.journal.emplace_back(moved.bytes_at(i, 0));
        for (int i = 0; i < tournaments.rows(); ++i)
            taken.tournaments.push_back({tournaments.text_at(i, 0), tournaments.text_at(i, 1), tournaments.text_at(i, 2),
                                         tournaments.text_at(i, 3)});
        return taken;
    }
    std::optional<std::int64_t> append_row(std::string_view entries) override
    {
        const pg_result r{pg_parameters{}.add_binary(entries).add(node_).run(c_, "append_row")};
        if (!r.ok() || r.rows() != 1) return std::nullopt;
        return r.int_at(0, 0);
    }
    bool raise_cut(std::string_view room, std::int64_t below_n) override
    {
        return pg_result{pg_parameters{}.add(std::string{room}).add(below_n).add(node_).run(c_, "raise_cut")}.ok();
    }
    bool delete_row(std::int64_t seq) override { return pg_result{pg_parameters{}.add(seq).run(c_, "delete_row")}.ok(); }
    bool delete_cut(std::string_view room) override
    {
        return pg_result{pg_parameters{}.add(std::string{room}).run(c_, "delete_cut")}.ok();
    }
    bool commit() override { return exec("COMMIT"); }
    void roll_back() override
    {
        if (PQtransactionStatus(c_) != PQTRANS_IDLE) exec("ROLLBACK");
    }

    bool read_cuts(const std::function<void(std::string_view, std::int64_t)>& each) override
    {
        const pg_result r = read("select_cuts", false);
        if (!r.ok()) return false;
        for (int i = 0; i < r.rows(); ++i) each(r.bytes_at(i, 0), r.int_at(i, 1));
        return true;
    }
    bool read_rows(const std::function<void(std::int64_t, std::string_view)>& each) override
    {
        // Binary: the entries as stored, not bytea's hex text.
        const pg_result r = read("select_rows", true);
        if (!r.ok()) return false;
        for (int i = 0; i < r.rows(); ++i) each(r.binary_int_at(i, 0), r.bytes_at(i, 1));
        return true;
    }

    std::uint64_t syncs() const override { return 0; } // PostgreSQL flushes its own log
    void close() override {}

private:
    bool exec(const char* sql) { return pg_result{PQexec(c_, sql)}.ok(); }

    bool reconnect()
    {
        PQreset(c_);
        if (PQstatus(c_) != CONNECTION_OK || !prepare()) return false;
        spdlog::warn("journal {}: connected again", location_);
        return true;
    }

    // A read, again on a new connection if the old one broke.
    pg_result read(const char* statement, bool binary_result)
    {
        pg_result r{pg_parameters{}.add(node_).run(c_, statement, binary_result)};
        if (r.ok() || PQstatus(c_) == CONNECTION_OK || !reconnect()) return r;
        return pg_result{pg_parameters{}.add(node_).run(c_, statement, binary_result)};
    }

    std::string location_; // the address without its password
    std::string node_;
    std::int64_t token_ = 0; // this node's fencing token; 0: none (a single server)
    bool fenced_ = false;
    PGconn* c_;
};

} // namespace

std::variant<std::unique_ptr<journal_storage>, open_error> open_postgres_journal(const std::string& address,
                                                                                 const std::string& node)
{
    PGconn* c = PQconnectdb(address.c_str());
    auto storage = std::make_unique<postgres_journal_storage>(address, node, c);
    if (PQstatus(c) != CONNECTION_OK)
        return open_error{"journal: cannot connect to " + storage->location() + ": " + storage->last_error()};
    PQsetNoticeProcessor(c, [](void*, const char*) {}, nullptr);
    // The archive opens the database first and brings it to the current schema.
    {
        const pg_result r{PQexec(c, "SELECT version FROM quarto_schema")};
        if (!r.ok() || r.rows() != 1 || r.int_at(0, 0) != schema_version)
            return open_error{"journal: " + storage->location() + " is not at schema version " +
                              std::to_string(schema_version) + " (the archive opens the database first)"};
    }
    // Live rooms journaled before this server was a node are its own from now on.
    if (!node.empty()) {
        const pg_result rows{pg_parameters{}.add(node).run_sql(c, "UPDATE journal SET node = $1 WHERE node = ''")};
        const pg_result cuts{pg_parameters{}.add(node).run_sql(c, "UPDATE journal_cuts SET node = $1 WHERE node = ''")};
        if (!rows.ok() || !cuts.ok())
            return open_error{"journal: cannot take the rows of no node in " + storage->location() + ": " + storage->last_error()};
    }
    if (!storage->prepare())
        return open_error{"journal: cannot prepare a query on " + storage->location() + ": " + storage->last_error()};
    return std::unique_ptr<journal_storage>{std::move(storage)};
}

} // namespace quarto::archive::detail
