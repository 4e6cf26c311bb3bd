#include "quarto/archive/journal.hpp"

#include <atomic>
#include <future>
#include <span>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "sqlite_db.hpp"

namespace quarto::archive {

using sqlite::statement;
using step_result = sqlite::statement::step_result;

struct journal::impl {
    std::string path;
    sqlite::database db; // before the statements: they are finalized first
    statement insert, cut, select_all;

    // Steps to write, or a task to run on the thread (a read, a flush) once what was queued
    // before it has been committed.
    struct request {
        std::vector<journal_step> steps;
        std::function<void(bool)> committed;
        std::function<void()> task;
    };
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<request> queue;
    bool closing = false;
    std::thread thread;

    std::atomic<std::uint64_t> commits{0}, syncs{0};
    std::uint64_t synced_commits = 0; // commits when the log was last flushed
    std::chrono::steady_clock::time_point last_sync = std::chrono::steady_clock::now();

    void run();
    bool enqueue(request&& r);
    // Runs `task` on the thread after what is queued, and waits for it.
    void run_and_wait(std::function<void()> task);
    // Consecutive writes share one transaction; each task runs between them, in order.
    void carry_out(std::vector<request>& taken);
    bool write_all(std::span<request> group);
    bool write_step(const journal_step& s);
    void sync_log();
};

std::variant<std::unique_ptr<journal>, open_error> journal::open(const std::string& path)
{
    std::string error;
    auto db = sqlite::database::open(path, error);
    if (!db) return open_error{"journal: cannot open " + path + ": " + error};
    const auto fail = [&](std::string_view what) {
        return open_error{"journal: " + std::string{what} + " " + path + ": " + db->last_error()};
    };
    if (!db->exec("PRAGMA busy_timeout = 5000")) return fail("cannot configure");
    const auto version = db->query_text("PRAGMA user_version");
    if (!version) return fail("cannot read");
    if (*version != std::to_string(schema_version))
        return open_error{"journal: " + path + " has schema version " + *version + ", not " +
                          std::to_string(schema_version) + " (the archive opens the file first)"};
    const auto mode = db->query_text("PRAGMA journal_mode = WAL");
    if (!mode || *mode != "wal") return fail("cannot switch to WAL mode:");
    // NORMAL: a commit does not wait for the disk (the log is flushed by sync_log, and before
    // each checkpoint); it survives the process dying, which is what the journal is for.
    if (!db->exec("PRAGMA synchronous = NORMAL")) return fail("cannot configure");

    auto i = std::make_unique<impl>();
    i->path = path;
    i->db = std::move(*db);
    const std::pair<statement*, const char*> queries[] = {
        {&i->insert, "INSERT INTO journal (room, n, change, event) VALUES (?1, ?2, ?3, ?4)"},
        {&i->cut, "DELETE FROM journal WHERE room = ?1 AND n < ?2"},
        {&i->select_all, "SELECT room, n, change, event FROM journal ORDER BY room, n"},
    };
    for (const auto& [target, sql] : queries) {
        auto s = i->db.prepare(sql);
        if (!s) return open_error{"journal: cannot prepare a query on " + path + ": " + i->db.last_error()};
        *target = std::move(*s);
    }
    return std::unique_ptr<journal>{new journal{std::move(i)}};
}

journal::journal(std::unique_ptr<impl> i) : impl_{std::move(i)}
{
    impl_->thread = std::thread{[m = impl_.get()] { m->run(); }};
}

journal::~journal() { close(); }

archive_result<std::vector<journal_entry>> journal::load()
{
    archive_result<std::vector<journal_entry>> out{{}, true};
    impl_->run_and_wait([&] {
        out.failed = false;
        sqlite::in_use s{impl_->select_all};
        for (;;) {
            const step_result r = s->step();
            if (r == step_result::done) return;
            if (r == step_result::error) {
                spdlog::error("journal {}: cannot read: {}", impl_->path, impl_->db.last_error());
                out = {{}, true};
                return;
            }
            out.value.push_back(
                {s->text_at(0), s->int_at(1), s->text_at(2), s->null_at(3) ? std::string{} : s->text_at(3)});
        }
    });
    return out;
}

void journal::write(std::vector<journal_step> steps, std::function<void(bool)> committed)
{
    const std::size_t count = steps.size();
    if (impl_->enqueue({std::move(steps), std::move(committed), {}})) return;
    spdlog::error("journal {}: closed; {} steps NOT written", impl_->path, count);
}

void journal::flush()
{
    impl_->run_and_wait([] {});
}

bool journal::impl::enqueue(request&& r)
{
    {
        std::lock_guard lock{mutex};
        if (!closing) {
            queue.push_back(std::move(r));
            if (queue.size() == 1) wake.notify_one();
            return true;
        }
    }
    if (r.committed) r.committed(false);
    if (r.task) r.task();
    return false;
}

void journal::impl::run_and_wait(std::function<void()> task)
{
    std::promise<void> done;
    auto finished = done.get_future();
    enqueue({{}, {}, [&] {
                 task();
                 done.set_value();
             }});
    finished.wait();
}

void journal::close()
{
    {
        std::lock_guard lock{impl_->mutex};
        impl_->closing = true;
    }
    impl_->wake.notify_one();
    if (impl_->thread.joinable()) impl_->thread.join();
}

std::uint64_t journal::commits() const { return impl_->commits.load(std::memory_order_relaxed); }
std::uint64_t journal::syncs() const { return impl_->syncs.load(std::memory_order_relaxed); }

void journal::impl::run()
{
    pthread_setname_np(pthread_self(), "quarto-journal");
    for (;;) {
        std::vector<request> taken;
        {
            std::unique_lock lock{mutex};
            const auto due = last_sync + sync_interval;
            wake.wait_until(lock, due, [this] { return closing || !queue.empty(); });
            taken.swap(queue);
            if (taken.empty()) {
                lock.unlock();
                if (commits.load() != synced_commits) sync_log();
                else last_sync = std::chrono::steady_clock::now();
                if (closing) return;
                continue;
            }
        }
        carry_out(taken);
        if (std::chrono::steady_clock::now() - last_sync >= sync_interval) sync_log();
    }
}

void journal::impl::carry_out(std::vector<request>& taken)
{
    std::size_t begin = 0;
    while (begin < taken.size()) {
        if (taken[begin].task) {
            taken[begin++].task();
            continue;
        }
        std::size_t end = begin;
        while (end < taken.size() && !taken[end].task) ++end;
        const std::span<request> group{taken.data() + begin, end - begin};
        const bool ok = write_all(group);
        for (auto& r : group) {
            try {
                if (r.committed) r.committed(ok);
            } catch (const std::exception& e) { // one bad callback must not keep the others from theirs
                spdlog::error("journal {}: {}", path, e.what());
            }
        }
        begin = end;
    }
}

bool journal::impl::write_all(std::span<request> group)
{
    std::size_t steps = 0;
    for (const auto& r : group) steps += r.steps.size();
    if (steps == 0) return true;
    sqlite::transaction t{db};
    bool ok = t.began();
    for (const auto& r : group)
        for (const auto& s : r.steps)
            if (ok) ok = write_step(s);
    ok = ok && t.commit();
    if (!ok) {
        spdlog::error("journal {}: a batch of {} steps NOT written: {}", path, steps, db.last_error());
        return false;
    }
    commits.fetch_add(1, std::memory_order_relaxed);
    return true;
}

bool journal::impl::write_step(const journal_step& s)
{
    const journal_entry& e = s.entry;
    if (s.what == journal_step::kind::cut) {
        sqlite::in_use u{cut};
        u->bind(1, e.room).bind(2, e.n);
        return u->step() == step_result::done;
    }
    sqlite::in_use u{insert};
    u->bind(1, e.room).bind(2, e.n).bind(3, e.change);
    if (e.event.empty()) u->bind_null(4);
    else u->bind(4, e.event);
    return u->step() == step_result::done;
}

// The log's own file, flushed through a descriptor of our own: SQLite with synchronous=NORMAL
// flushes it only before a checkpoint.
void journal::impl::sync_log()
{
    const std::uint64_t done = commits.load();
    const std::string log = path + "-wal";
    const int fd = ::open(log.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (::fdatasync(fd) != 0) spdlog::error("journal {}: cannot flush the log to the disk", path);
        ::close(fd);
    }
    synced_commits = done;
    last_sync = std::chrono::steady_clock::now();
    syncs.fetch_add(1, std::memory_order_relaxed);
}

} // namespace quarto::archive
