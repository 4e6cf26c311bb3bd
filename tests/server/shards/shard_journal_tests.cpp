// The journal gate, on a running shard (running_shards.hpp) with its journal in a temporary
// SQLite file: a room's event is held until the journal batch of its turn has committed, batches
// are released in the order of their turns (those with nothing to write too), and a batch the
// journal could not write lets its events go out anyway. The test holds the file's write lock,
// or makes its inserts fail, through SQLite itself, as another process could.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "quarto/archive/journal_batch.hpp"
#include "running_shards.hpp"

namespace {

using namespace quarto::server;
using testing::give;
using testing::hello;
using testing::json;
using testing::place;
using testing::running_shards;
using testing::start_game;

// A fresh directory under the system's temporary directory, removed with its contents.
class scratch_dir {
public:
    scratch_dir()
    {
        std::string name = (std::filesystem::temp_directory_path() / "quarto-shard-journal-XXXXXX").string();
        REQUIRE(::mkdtemp(name.data()) != nullptr);
        path_ = name;
    }
    ~scratch_dir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    scratch_dir(const scratch_dir&) = delete;
    scratch_dir& operator=(const scratch_dir&) = delete;
    std::string file() const { return (path_ / "quarto.db").string(); }

private:
    std::filesystem::path path_;
};

// A connection of the test's own to the journal's file.
class sqlite_shell {
public:
    explicit sqlite_shell(const std::string& path)
    {
        REQUIRE(::sqlite3_open(path.c_str(), &db_) == SQLITE_OK);
        ::sqlite3_busy_timeout(db_, 5000); // the journal may be committing
    }
    ~sqlite_shell() { ::sqlite3_close(db_); }
    sqlite_shell(const sqlite_shell&) = delete;
    sqlite_shell& operator=(const sqlite_shell&) = delete;

    void exec(const std::string& sql)
    {
        char* error = nullptr;
        const int rc = ::sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
        const std::string message = error ? error : "";
        ::sqlite3_free(error);
        REQUIRE_MESSAGE(rc == SQLITE_OK, sql << ": " << message);
    }

    // Every event the journal holds on disk, in the order written.
    std::vector<json> events()
    {
        std::vector<json> out;
        sqlite3_stmt* rows = nullptr;
        REQUIRE(::sqlite3_prepare_v2(db_, "SELECT entries FROM journal ORDER BY seq", -1, &rows, nullptr) == SQLITE_OK);
        while (::sqlite3_step(rows) == SQLITE_ROW) {
            const auto* bytes = static_cast<const char*>(::sqlite3_column_blob(rows, 0));
            quarto::archive::journal_entry_reader reader{{bytes, static_cast<std::size_t>(::sqlite3_column_bytes(rows, 0))}};
            quarto::archive::journal_entry_reader::view e;
            while (!reader.done() && reader.next(e))
                if (!e.event.empty()) out.push_back(json::parse(e.event));
        }
        ::sqlite3_finalize(rows);
        return out;
    }
    bool holds(const json& event) { return std::ranges::count(events(), event) == 1; }

private:
    sqlite3* db_ = nullptr;
};

// Ann and Bo in a game on a shard whose journal is in `file`, every frame so far read.
struct journaled_game {
    running_shards server;
    std::unique_ptr<testing::ws_peer> ann, bo;
    testing::game g;

    explicit journaled_game(const std::string& file) : server{1, /*migration=*/true, file}
    {
        ann = server.connect(0, "ann");
        bo = server.connect(0, "bo");
        hello(*ann, "Ann");
        hello(*bo, "Bo");
        g = start_game(*ann, *bo);
    }
    testing::ws_peer& giver() { return g.first == 0 ? *ann : *bo; }
    testing::ws_peer& receiver() { return g.first == 0 ? *bo : *ann; }
};

} // namespace

TEST_CASE("shard journal gate: a room's event waits for its batch to commit, and is on disk when it arrives")
{
    scratch_dir dir;
    journaled_game t{dir.file()};
    sqlite_shell db{dir.file()};

    db.exec("BEGIN IMMEDIATE"); // the file's write lock: the journal's commit waits for it
    t.giver().send({give(t.g.room, 0)});
    t.server.settle(0); // the give's turn is over: its batch went to the journal
    CHECK(t.ann->quiet());
    CHECK(t.bo->quiet());

    db.exec("ROLLBACK");
    const json given = t.receiver().next("given");
    CHECK(t.giver().next("given") == given);
    CHECK(db.holds(given));
}

TEST_CASE("shard journal gate: held batches go out in the order of their turns, one with nothing to write behind those before it")
{
    scratch_dir dir;
    journaled_game t{dir.file()};
    sqlite_shell db{dir.file()};

    db.exec("BEGIN IMMEDIATE");
    t.giver().send({give(t.g.room, 0)}); // journaled
    t.server.settle(0);
    t.giver().send({give(t.g.room, 1, "again")}); // not theirs to give: an error, nothing to journal
    t.server.settle(0);
    t.receiver().send({place(t.g.room, 5)}); // journaled
    t.server.settle(0);
    CHECK(t.ann->quiet());
    CHECK(t.bo->quiet());

    db.exec("ROLLBACK");
    CHECK(t.giver().next("given")["piece"] == 0);
    CHECK(t.giver().next("error")["req"] == "again");
    CHECK(t.giver().next("placed")["square"] == 5);
    CHECK(t.receiver().next("given")["piece"] == 0);
    CHECK(t.receiver().next("placed")["square"] == 5);
}

TEST_CASE("shard journal gate: a batch the journal could not write lets its events go out, counted, and the next commit writes it too")
{
    scratch_dir dir;
    journaled_game t{dir.file()};
    sqlite_shell db{dir.file()};
    t.server.settle(0);
    const auto& counters = t.server.shard(0).counters_view();
    REQUIRE(counters.journal_failures.load() == 0);

    // Logged as an error by the journal and the shard: that is what this test is about.
    db.exec("CREATE TRIGGER refuse_rows BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    t.giver().send({give(t.g.room, 0)});
    const json given = t.receiver().next("given");
    CHECK(t.giver().next("given") == given);
    CHECK(counters.journal_failures.load() == 1);
    CHECK_FALSE(db.holds(given));

    db.exec("DROP TRIGGER refuse_rows");
    t.receiver().send({place(t.g.room, 5)});
    const json placed = t.giver().next("placed");
    CHECK(t.receiver().next("placed") == placed);
    CHECK(counters.journal_failures.load() == 1);
    // What failed went first in the next transaction: a restart brings both moves back.
    CHECK(db.holds(given));
    CHECK(db.holds(placed));
}
