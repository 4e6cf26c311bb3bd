// The journal of live rooms: batches written in order on the journal's own thread, each
// acknowledged once committed, cuts that compact a room, everything read back in order at
// startup; what was acknowledged survives kill -9. Each test that is not about SQLite's file
// runs on both engines (each_engine: an SQLite file and a PostgreSQL database).
#include <atomic>
#include <csignal>
#include <fstream>
#include <future>
#include <map>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "postgres_server.hpp"
#include "quarto/archive/journal.hpp"
#include "quarto/archive/store.hpp"
#include "support.hpp"

using namespace quarto::archive;
using namespace archive_tests;

namespace {

// The store first: it brings the schema to the current version, as the server opens them.
void open_any(const std::string& where)
{
    const auto opened = open_store(where);
    if (const auto* error = std::get_if<open_error>(&opened)) FAIL(error->message);
}

std::unique_ptr<journal> open_journal(const std::string& path)
{
    auto opened = journal::open(path);
    if (auto* error = std::get_if<open_error>(&opened)) FAIL(error->message);
    return std::move(std::get<std::unique_ptr<journal>>(opened));
}

// A step of a batch, as the tests write them: an entry, or a cut (room and below_n).
struct step {
    bool is_cut = false;
    journal_entry e;
};

step entry(const std::string& room, std::int64_t n, const std::string& event = {})
{
    return {false, {room, n, "change " + room + " " + std::to_string(n), event}};
}

step cut(const std::string& room, std::int64_t below_n) { return {true, {room, below_n, {}, {}}}; }

journal_batch batch_of(const std::vector<step>& steps)
{
    journal_batch b;
    for (const auto& s : steps) {
        if (s.is_cut) b.cut(s.e.room, s.e.n);
        else b.append(s.e);
    }
    return b;
}

// Writes and waits for the acknowledgement.
bool write_now(journal& j, const std::vector<step>& steps)
{
    std::promise<bool> acked;
    auto result = acked.get_future();
    j.write(batch_of(steps), [&](bool committed) { acked.set_value(committed); });
    return result.get();
}

std::vector<std::pair<std::string, std::int64_t>> keys(const std::vector<journal_entry>& entries)
{
    std::vector<std::pair<std::string, std::int64_t>> k;
    for (const auto& e : entries) k.emplace_back(e.room, e.n);
    return k;
}

using key_list = std::vector<std::pair<std::string, std::int64_t>>;

// A fresh store of the engine, brought to the schema, its journal, and the rows of its tables.
struct compaction_store {
    explicit compaction_store(const engine& e) : db{e}, path{e.fresh()}
    {
        open_any(path);
        j = open_journal(path);
    }
    std::string rows() const { return db.query(path, "SELECT count(*) FROM journal"); }
    std::string cuts() const { return db.query(path, "SELECT count(*) FROM journal_cuts"); }
    const engine& db;
    const std::string path;
    std::unique_ptr<journal> j;
};

} // namespace

TEST_CASE("journal batch: entries written in place read back as written, cuts keep their place among them")
{
    journal_batch b;
    CHECK(b.empty());
    b.append("m7p2xq4d", 1, [](std::string& out) { out += "room {}"; }, "");
    b.cut("m7p2xq4d", 1);
    const std::string event = R"({"type":"given","seq":7,"name":"Zoë"})";
    b.append(journal_entry{"r2", 4'000'000'000'000, "act give 0 15 0 1234", event});
    b.cut("r2", journal_batch::all_entries);
    CHECK_FALSE(b.empty());
    CHECK(b.entry_count() == 2);
    REQUIRE(b.cuts().size() == 2);
    CHECK(b.cuts()[0].after_entries == 1);
    CHECK(b.cuts()[1].after_entries == 2);
    CHECK(b.cuts()[1].below_n == journal_batch::all_entries);

    journal_entry_reader reader{b.bytes()};
    journal_entry_reader::view e;
    REQUIRE(reader.next(e));
    CHECK(e.room == "m7p2xq4d");
    CHECK(e.n == 1);
    CHECK(e.change == "room {}");
    CHECK(e.event.empty());
    REQUIRE(reader.next(e));
    CHECK(e.room == "r2");
    CHECK(e.n == 4'000'000'000'000);
    CHECK(e.change == "act give 0 15 0 1234");
    CHECK(e.event == event);
    CHECK(reader.done());

    // Bytes that end early are refused, not read past.
    const std::string cut_short = b.bytes().substr(0, b.bytes().size() - 3);
    journal_entry_reader partial{cut_short};
    CHECK(partial.next(e));
    CHECK_FALSE(partial.next(e));
}

TEST_CASE("journal: entries read back by room and order, cuts drop a room's older ones")
{
    each_engine([](const engine& engine_under_test) {
        const std::string path = engine_under_test.fresh();
        open_any(path);
        auto j = open_journal(path);
        CHECK(j->load().value.empty());

        REQUIRE(write_now(*j, {entry("r2", 1, R"({"type":"joined","seq":1})"), entry("r1", 1), entry("r1", 2)}));
        REQUIRE(write_now(*j, {entry("r1", 3, R"({"type":"given","seq":7})"), cut("r1", 3), entry("r1", 4)}));
        const auto loaded = j->load();
        REQUIRE_FALSE(loaded.failed);
        CHECK(keys(loaded.value) == key_list{{"r1", 3}, {"r1", 4}, {"r2", 1}});
        CHECK(loaded.value[0] == journal_entry{"r1", 3, "change r1 3", R"({"type":"given","seq":7})"});
        CHECK(loaded.value[1].event.empty()); // no event

        // A room that closes is cut whole; the others stay.
        REQUIRE(write_now(*j, {cut("r1", journal_batch::all_entries)}));
        CHECK(keys(j->load().value) == key_list{{"r2", 1}});

        // Another open of the file finds the same.
        j.reset();
        CHECK(keys(open_journal(path)->load().value) == key_list{{"r2", 1}});
    });
}

TEST_CASE("journal: a batch is acknowledged once committed, a failed one at once and written with the next that succeeds")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    open_sqlite(path);
    auto j = open_journal(path);
    std::promise<std::string> seen;
    // Another connection, from inside the acknowledgement: the batch is there already.
    j->write(batch_of({entry("r", 1), entry("r", 2)}),
             [&](bool committed) { seen.set_value(committed ? sql_text(path, "SELECT count(*) FROM journal") : "no"); });
    CHECK(seen.get_future().get() == "1"); // one row holds the batch

    // A write the database refuses (here a trigger an operator might have left; in life a
    // database out of reach or a full disk): the whole transaction fails, (r, 3) before the
    // refused cut is not written either, and the writer learns it at once.
    sql_exec(path, "CREATE TRIGGER refuse BEFORE INSERT ON journal_cuts WHEN NEW.room = 'refused' "
                   "BEGIN SELECT RAISE(ABORT, 'refused'); END");
    CHECK_FALSE(write_now(*j, {entry("r", 3), cut("refused", 1)}));
    CHECK(keys(j->load().value) == key_list{{"r", 1}, {"r", 2}});
    CHECK_FALSE(write_now(*j, {entry("r", 4)})); // it comes first, so this fails with it
    // Once the database takes it again, the next transaction writes what failed, first: the
    // journal has no hole.
    sql_exec(path, "DROP TRIGGER refuse");
    CHECK(write_now(*j, {entry("r", 5)}));
    CHECK(keys(j->load().value) == key_list{{"r", 1}, {"r", 2}, {"r", 3}, {"r", 4}, {"r", 5}});
    CHECK(sql_text(path, "SELECT below_n FROM journal_cuts WHERE room = 'refused'") == "1");
}

TEST_CASE("journal: while batches cannot be written, half the backlog limit says new games should wait, and past it they are dropped")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    open_sqlite(path);
    auto j = open_journal(path);
    const std::string event(1000, 'e');
    const std::size_t batch = batch_of({entry("r", 10, event)}).bytes().size(); // each batch below, within a byte
    j->set_backlog_limit(8 * batch + batch / 2); // half of it: 4.25 batches
    CHECK(write_now(*j, {entry("r", 1, event)}));
    CHECK_FALSE(j->backlogged());
    // The database refuses every write (as one out of reach would).
    sql_exec(path, "CREATE TRIGGER refuse BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'refused'); END");
    std::int64_t n = 2;
    for (; n <= 5; ++n) CHECK_FALSE(write_now(*j, {entry("r", n, event)}));
    CHECK_FALSE(j->backlogged()); // 4 batches waiting
    CHECK_FALSE(write_now(*j, {entry("r", n++, event)}));
    CHECK(j->backlogged()); // 5
    // Back: what waited is written first, and nothing waits any more.
    sql_exec(path, "DROP TRIGGER refuse");
    CHECK(write_now(*j, {entry("r", n++, event)}));
    CHECK_FALSE(j->backlogged());
    CHECK(j->load().value.size() == 7);
    // Refused again, past the whole limit (9 batches): what waited is dropped (logged), and new
    // games still wait, the database being out of reach still, until a write succeeds.
    sql_exec(path, "CREATE TRIGGER refuse BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'refused'); END");
    for (int i = 0; i < 9; ++i, ++n) CHECK_FALSE(write_now(*j, {entry("r", n, event)}));
    CHECK(j->backlogged());
    sql_exec(path, "DROP TRIGGER refuse");
    CHECK(write_now(*j, {entry("r", n, event)}));
    CHECK_FALSE(j->backlogged());
    CHECK(j->load().value.size() == 8); // the 7 written before, and the last one
}

TEST_CASE("journal: batches from several threads: each acknowledged once, each room's entries in order")
{
    each_engine([](const engine& engine_under_test) {
        const std::string path = engine_under_test.fresh();
        open_any(path);
        auto j = open_journal(path);
        constexpr int writers = 4, batches = 300;
        std::atomic<int> acks{0}, failures{0};
        std::vector<std::thread> threads;
        for (int w = 0; w < writers; ++w)
            threads.emplace_back([&, w] {
                const std::string room = "room" + std::to_string(w);
                for (int b = 0; b < batches; ++b)
                    j->write(batch_of({entry(room, 2 * b + 1), entry(room, 2 * b + 2)}), [&](bool committed) {
                        ++acks;
                        if (!committed) ++failures;
                    });
            });
        for (auto& t : threads) t.join();
        j->flush();
        CHECK(acks == writers * batches);
        CHECK(failures == 0);
        const auto loaded = j->load().value;
        REQUIRE(loaded.size() == std::size_t{writers * batches * 2});
        std::map<std::string, std::int64_t> last;
        for (const auto& e : loaded) {
            CHECK(e.n == last[e.room] + 1);
            last[e.room] = e.n;
        }
        // Batches that waited for a transaction shared the next one (the writers queue far faster
        // than one commit each).
        INFO("commits " << j->commits());
        CHECK(j->commits() < std::uint64_t{writers * batches});
    });
}

TEST_CASE("journal: a window closes as soon as every writer that wrote into it is idle, not before")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    open_sqlite(path);
    auto j = open_journal(path);
    REQUIRE(j->closes_windows_early()); // SQLite's: PostgreSQL's do not (engine_tests)
    j->set_commit_window(std::chrono::hours{1}); // only the writers can close it
    const auto committed_soon = [](std::future<bool>& f) {
        return f.wait_for(std::chrono::milliseconds{200}) == std::future_status::ready;
    };
    std::promise<bool> first, second;
    auto first_done = first.get_future(), second_done = second.get_future();
    j->write(batch_of({entry("a", 1)}), [&](bool ok) { first.set_value(ok); }, 0);
    j->write(batch_of({entry("b", 1)}), [&](bool ok) { second.set_value(ok); }, 1);
    CHECK_FALSE(committed_soon(first_done));
    j->writer_idle(1);
    CHECK_FALSE(committed_soon(first_done)); // writer 0 may still add to it
    j->writer_idle(1);                       // said twice: still one writer busy
    CHECK_FALSE(committed_soon(first_done));
    j->writer_idle(0);
    REQUIRE(first_done.wait_for(std::chrono::seconds{10}) == std::future_status::ready);
    REQUIRE(first_done.get());
    REQUIRE(second_done.get());
    CHECK(j->commits() == 1); // both batches in one transaction

    // A batch of no writer keeps the window open to its end (shortened here: it has passed).
    std::promise<bool> anonymous;
    auto anonymous_done = anonymous.get_future();
    j->write(batch_of({entry("c", 1)}), [&](bool ok) { anonymous.set_value(ok); });
    CHECK_FALSE(committed_soon(anonymous_done));
    j->set_commit_window(std::chrono::microseconds{1000});
    REQUIRE(anonymous_done.wait_for(std::chrono::seconds{10}) == std::future_status::ready);
    CHECK(anonymous_done.get());
    CHECK(keys(j->load().value) == key_list{{"a", 1}, {"b", 1}, {"c", 1}});
}

TEST_CASE("journal: under a heavy stream of entries a window lasts its whole length, and closes early again once it eases")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    open_sqlite(path);
    auto j = open_journal(path);
    using std::chrono::milliseconds;
    j->set_commit_window(milliseconds{300});
    // From a batch written (its writer then idle) until it is acknowledged.
    const auto commit_time = [&](const std::vector<step>& steps) {
        std::promise<bool> done;
        auto acknowledged = done.get_future();
        const auto start = std::chrono::steady_clock::now();
        j->write(batch_of(steps), [&](bool ok) { done.set_value(ok); }, 0);
        j->writer_idle(0);
        REQUIRE(acknowledged.wait_for(std::chrono::seconds{10}) == std::future_status::ready);
        CHECK(acknowledged.get());
        return std::chrono::steady_clock::now() - start;
    };
    const auto entries = [](const std::string& room, std::int64_t from, int count) {
        std::vector<step> steps;
        for (int i = 0; i < count; ++i) steps.push_back(entry(room, from + i));
        return steps;
    };
    CHECK(commit_time(entries("light", 1, 1)) < milliseconds{150}); // the writer is idle: at once

    // Thousands of entries a batch, back to back, far past heavy_entries_per_s: once the rate
    // is taken, a window waits out its 300 ms although the writer is idle.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{10};
    std::int64_t n = 1;
    bool whole_window = false;
    while (!whole_window && std::chrono::steady_clock::now() < deadline) {
        whole_window = commit_time(entries("heavy", n, 2000)) >= milliseconds{250};
        n += 2000;
    }
    CHECK(whole_window);

    // One entry at a time: the rate falls, and the windows close early again.
    bool early_again = false;
    const auto eased_deadline = std::chrono::steady_clock::now() + std::chrono::seconds{10};
    for (std::int64_t i = 1; !early_again && std::chrono::steady_clock::now() < eased_deadline; ++i)
        early_again = commit_time(entries("eased", i, 1)) < milliseconds{150};
    CHECK(early_again);
}

TEST_CASE("journal: the log reaches the disk within sync_interval of a commit, and at close")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    open_sqlite(path);
    auto j = open_journal(path);
    const auto before = j->syncs();
    REQUIRE(write_now(*j, {entry("r", 1)}));
    const auto deadline = std::chrono::steady_clock::now() + 3 * sync_interval;
    while (j->syncs() == before && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds{20}); // waiting on a background flush
    CHECK(j->syncs() > before);

    const auto synced = j->syncs();
    REQUIRE(write_now(*j, {entry("r", 2)}));
    j->close();
    CHECK(j->syncs() == synced + 1);
}

TEST_CASE("journal: the game archive's commits on the same file are flushed by the journal's syncer, and nothing twice")
{
    // The archive with file_sync::by_journal does not flush its own commits.
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    auto opened = open_store(path, {}, file_sync::by_journal);
    if (const auto* error = std::get_if<open_error>(&opened)) FAIL(error->message);
    auto& archive = *std::get<std::unique_ptr<store>>(opened);
    auto j = open_journal(path);
    const auto flushed_when_open = j->syncs();
    CHECK(flushed_when_open == 1); // what the archive committed before (its schema)

    REQUIRE(archive.save_tournament({"cup", "Cup", "running", "{}"}));
    const auto deadline = std::chrono::steady_clock::now() + 3 * sync_interval;
    while (j->syncs() == flushed_when_open && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds{20}); // waiting on a background flush
    CHECK(j->syncs() == flushed_when_open + 1);

    // Nothing committed since: no flush at the next intervals, nor at close.
    std::this_thread::sleep_for(sync_interval * 3 / 2);
    j->close();
    CHECK(j->syncs() == flushed_when_open + 1);
}

TEST_CASE("journal: under writes that never pause, the log file stays within max_log_bytes")
{
    // Without a bound the syncer's checkpoints, which run beside the commits, never catch up,
    // and SQLite starts the log over only once they have: the file grew by the whole stream.
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    open_sqlite(path);
    auto j = open_journal(path);
    const std::string log = path + "-wal";
    constexpr int rooms = 8, entries_per_batch = 64;
    const std::string change(1000, 'c');
    std::atomic<int> in_flight{0}, failed{0};
    std::uintmax_t largest = 0;
    std::size_t written = 0;
    std::int64_t batch = 0;
    while (written < 3 * max_log_bytes) {
        // Eight batches queued at any time: the journal's thread never waits for this one.
        while (in_flight.load() >= 8) std::this_thread::sleep_for(std::chrono::microseconds{100});
        const std::string room = "r" + std::to_string(batch % rooms);
        const std::int64_t first = batch / rooms * entries_per_batch;
        journal_batch b;
        b.cut(room, first); // the room's earlier batch is dead: its row is deleted later
        for (int i = 0; i < entries_per_batch; ++i) b.append({room, first + i, change, {}});
        ++in_flight;
        j->write(std::move(b), [&](bool committed) {
            if (!committed) ++failed;
            --in_flight;
        });
        written += entries_per_batch * change.size();
        ++batch;
        std::error_code missing; // no log before the first commit
        const auto size = std::filesystem::file_size(log, missing);
        if (!missing) largest = std::max(largest, size);
    }
    j->flush();
    CHECK(failed.load() == 0);
    // The bound is a soft one: while the syncer checkpoints, the journal's checkpoint cannot
    // run, and a few commits more pass it (up to 71 MiB seen here; unbounded: 220 MiB).
    CHECK(largest <= max_log_bytes * 3 / 2);
    CHECK(largest > max_log_bytes / 2); // it was reached: the stream is long enough to show it
    const auto loaded = j->load();
    REQUIRE_FALSE(loaded.failed);
    CHECK(loaded.value.size() == std::size_t{rooms} * entries_per_batch); // each room's last batch
}

TEST_CASE("journal: every acknowledged batch survives kill -9")
{
    each_engine([](const engine& engine_under_test) {
        const std::string path = engine_under_test.fresh();
        open_any(path);
        int acks[2];
        REQUIRE(::pipe(acks) == 0);
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) { // writes as fast as it can; tells the parent each batch acknowledged
            ::close(acks[0]);
            auto opened = journal::open(path);
            if (!std::holds_alternative<std::unique_ptr<journal>>(opened)) ::_exit(3);
            auto& j = *std::get<std::unique_ptr<journal>>(opened);
            for (std::int64_t b = 1;; ++b)
                j.write(batch_of({{false, {"r", 2 * b - 1, "c", "e"}}, {false, {"r", 2 * b, "c", {}}}}),
                        [fd = acks[1], b](bool committed) {
                            if (committed) (void)::write(fd, &b, sizeof b);
                        });
        }
        ::close(acks[1]);
        std::int64_t acknowledged = 0;
        while (acknowledged < 200) REQUIRE(::read(acks[0], &acknowledged, sizeof acknowledged) == sizeof acknowledged);
        ::kill(child, SIGKILL); // mid-batch, as likely as not
        int status = 0;
        ::waitpid(child, &status, 0);
        std::int64_t later = 0; // acknowledgements that reached the pipe before the kill
        while (::read(acks[0], &later, sizeof later) == sizeof later) acknowledged = std::max(acknowledged, later);
        ::close(acks[0]);
        CHECK(WIFSIGNALED(status));

        auto j = open_journal(path);
        const auto loaded = j->load().value;
        // Every acknowledged batch, whole, and nothing but whole batches in order after it.
        REQUIRE(loaded.size() >= std::size_t(2 * acknowledged));
        CHECK(loaded.size() % 2 == 0);
        for (std::size_t i = 0; i < loaded.size(); ++i) CHECK(loaded[i].n == std::int64_t(i) + 1);
    });
}

TEST_CASE("journal: an acknowledged commit is in the log file itself, a large one too")
{
    // The archive's connections gather the log's writes until a commit's last page
    // (archive/src/sqlite_log_vfs.cpp). A connection of SQLite's own reads the file.
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    open_sqlite(path);
    auto j = open_journal(path);
    const auto last_frame_commits = [&] {
        // The log's last frame (a 24-byte header, then a page) ends a commit: bytes 4 to 7 of its
        // header hold the file's size in pages then, and are 0 in other frames.
        std::ifstream log{path + "-wal", std::ios::binary};
        const auto page_bytes = std::stoul(sql_text(path, "PRAGMA page_size"));
        log.seekg(0, std::ios::end);
        const auto size = static_cast<std::size_t>(log.tellg());
        REQUIRE(size >= 32 + 24 + page_bytes);
        REQUIRE((size - 32) % (24 + page_bytes) == 0);
        char header[24];
        log.seekg(static_cast<std::streamoff>(size - 24 - page_bytes));
        REQUIRE(log.read(header, sizeof header));
        return (header[4] | header[5] | header[6] | header[7]) != 0;
    };

    REQUIRE(write_now(*j, {entry("r", 1, R"({"type":"joined","seq":1})")}));
    CHECK(last_frame_commits());
    CHECK(sql_text(path, "SELECT count(*) FROM journal") == "1");

    // More than is gathered at most (1 MiB), and than SQLite writes in one call (128 KiB).
    const std::string event(3 << 20, 'x');
    REQUIRE(write_now(*j, {entry("r", 2, event), entry("r", 3)}));
    CHECK(last_frame_commits());
    CHECK(sql_text(path, "SELECT count(*) FROM journal") == "2");
    CHECK(std::stoul(sql_text(path, "SELECT max(length(entries)) FROM journal")) > event.size());
    j.reset();
    const auto loaded = open_journal(path)->load().value;
    REQUIRE(loaded.size() == 3);
    CHECK(loaded[1].event == event);
}

TEST_CASE("journal: a row whose entries cuts have all hidden is deleted by a later commit, then the closed rooms' cuts")
{
    each_engine([](const engine& engine_under_test) {
        compaction_store store{engine_under_test};
        std::vector<step> game;
        for (int n = 1; n <= 40; ++n) game.push_back(entry("r", n));
        REQUIRE(write_now(*store.j, game));                                          // row 1
        REQUIRE(write_now(*store.j, {entry("r", 41), cut("r", 41), entry("o", 1)})); // row 2
        CHECK(keys(store.j->load().value) == key_list{{"o", 1}, {"r", 41}});
        CHECK(store.rows() == "2"); // row 1 is all hidden, not yet deleted
        REQUIRE(write_now(*store.j, {entry("o", 2)}));                               // row 3
        CHECK(store.rows() == "2"); // row 1 went with it

        // Both rooms close: their rows go, then their cut rows.
        REQUIRE(write_now(*store.j, {cut("r", journal_batch::all_entries),
                                     cut("o", journal_batch::all_entries)}));
        CHECK(store.cuts() == "2");
        REQUIRE(write_now(*store.j, {entry("x", 1)})); // deletes rows 2 and 3
        REQUIRE(write_now(*store.j, {entry("x", 2)})); // and the two cuts
        CHECK(store.rows() == "2");
        CHECK(store.cuts() == "0");
        CHECK(keys(store.j->load().value) == key_list{{"x", 1}, {"x", 2}});

        // A new room of a closed room's id starts from 1.
        REQUIRE(write_now(*store.j, {entry("r", 1)}));
        CHECK(keys(store.j->load().value) == key_list{{"r", 1}, {"x", 1}, {"x", 2}});

        // After a restart hidden entries stay hidden, and the new process deletes their rows.
        REQUIRE(write_now(*store.j, {entry("r", 2), cut("r", 2)}));
        store.j.reset();
        auto again = open_journal(store.path);
        CHECK(keys(again->load().value) == key_list{{"r", 2}, {"x", 1}, {"x", 2}});
        const auto before = std::stoi(store.rows());
        REQUIRE(write_now(*again, {entry("x", 3)}));
        CHECK(std::stoi(store.rows()) == before); // one row more, the one of {r 1} less
    });
}

TEST_CASE("journal: a room whose entries are apart in one row (batches of several shards) is compacted all the same")
{
    each_engine([](const engine& engine_under_test) {
        compaction_store store{engine_under_test};
        REQUIRE(write_now(*store.j, {entry("a", 1), entry("b", 1), entry("a", 2), entry("b", 2), entry("a", 3)}));
        REQUIRE(write_now(*store.j, {cut("a", journal_batch::all_entries)}));
        REQUIRE(write_now(*store.j, {entry("b", 3)})); // the first row still holds b's entries
        CHECK(store.rows() == "2");
        REQUIRE(write_now(*store.j, {cut("b", journal_batch::all_entries), entry("x", 1)}));
        REQUIRE(write_now(*store.j, {entry("x", 2)})); // deletes the first two rows
        REQUIRE(write_now(*store.j, {entry("x", 3)})); // and the closed rooms' cuts
        CHECK(store.rows() == "3");
        CHECK(store.cuts() == "0");
        CHECK(keys(store.j->load().value) == key_list{{"x", 1}, {"x", 2}, {"x", 3}});
    });
}

TEST_CASE("journal: a file the archive has not brought to the current schema is refused")
{
    scratch_dir dir;
    const std::string path = dir.file("old.db");
    sql_exec(path, "PRAGMA user_version = 2");
    auto opened = journal::open(path);
    REQUIRE(std::holds_alternative<open_error>(opened));
    CHECK(std::get<open_error>(opened).message.find("schema version 2") != std::string::npos);
}

TEST_CASE("journal: a store the archive has not opened (no schema yet) is refused, naming the version")
{
    each_engine([](const engine& engine_under_test) {
        auto opened = journal::open(engine_under_test.fresh());
        REQUIRE(std::holds_alternative<open_error>(opened));
        CHECK(std::get<open_error>(opened).message.find("schema version") != std::string::npos);
    });
}

TEST_CASE("journal and tournaments in a database that nodes share: each node has its own, and takes those of no node")
{
    const std::string where = test_postgres::shared_postgres().fresh_database();
    // Before any node: a server of its own wrote a live room and a tournament.
    {
        auto opened = open_store(where);
        REQUIRE(std::holds_alternative<std::unique_ptr<store>>(opened));
        REQUIRE(std::get<std::unique_ptr<store>>(opened)->save_tournament({"t0", "Before", "running", "{}"}));
        auto j = open_journal(where);
        REQUIRE(write_now(*j, {entry("r0", 1)}));
    }
    const auto open_node = [&](const std::string& node) {
        auto opened = open_store(where, node);
        if (const auto* error = std::get_if<open_error>(&opened)) FAIL(error->message);
        return std::move(std::get<std::unique_ptr<store>>(opened));
    };
    const auto open_node_journal = [&](const std::string& node) {
        auto opened = journal::open(where, node);
        if (const auto* error = std::get_if<open_error>(&opened)) FAIL(error->message);
        return std::move(std::get<std::unique_ptr<journal>>(opened));
    };
    const auto ids = [](const std::vector<stored_tournament>& ts) {
        std::vector<std::string> out;
        for (const auto& t : ts) out.push_back(t.id);
        return out;
    };

    // Node a comes first: what no node had is a's.
    auto a = open_node("a");
    auto a_journal = open_node_journal("a");
    REQUIRE(a->save_tournament({"ta", "A's", "open", "{}"}));
    REQUIRE(write_now(*a_journal, {entry("ra", 1), entry("ra", 2)}));
    auto b = open_node("b");
    auto b_journal = open_node_journal("b");
    REQUIRE(b->save_tournament({"tb", "B's", "open", "{}"}));
    REQUIRE(write_now(*b_journal, {entry("rb", 1), cut("rb", 1)}));

    CHECK(ids(a->load_tournaments().value) == std::vector<std::string>{"t0", "ta"});
    CHECK(ids(b->load_tournaments().value) == std::vector<std::string>{"tb"});
    CHECK(keys(a_journal->load().value) == key_list{{"r0", 1}, {"ra", 1}, {"ra", 2}});
    CHECK(keys(b_journal->load().value) == key_list{{"rb", 1}});
    // b's cut is b's: a room of a is not cut by it, nor the other way round.
    REQUIRE(write_now(*a_journal, {cut("ra", 2)}));
    CHECK(keys(b_journal->load().value) == key_list{{"rb", 1}});
    CHECK(keys(a_journal->load().value) == key_list{{"r0", 1}, {"ra", 2}});

    // A server that is no node sees none of them any more.
    auto single = open_journal(where);
    CHECK(single->load().value.empty());
}
