#include "quarto/archive/journal.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <thread>
#include <unordered_map>

#include <pthread.h>

#include <spdlog/spdlog.h>

#include "journal_storage.hpp"

namespace quarto::archive {

namespace {
// Batches whose entries a cut has all made dead are deleted a few at a time, in the
// transactions that write new ones.
constexpr std::size_t deletes_per_commit = 64;
// Past this many bytes of batches waiting to be written again, they are dropped (logged),
// unless set_backlog_limit says otherwise.
constexpr std::size_t default_backlog_limit = std::size_t{64} << 20;
// Past this many entries a second (taken over rate_period) a window no longer closes when the
// writers go idle, but lasts its whole length: the server is busy enough that its moves wait
// in queues anyway, and a commit costs the journal's thread about 50 µs however few entries it
// holds. At 1,000 rooms a closed loop journals 23,000 to 36,000 entries a second on the
// 2-core machine of bench/RESULTS.md (where the full windows cut the CPU a move), and
// 100 ms think time 10,000 to 14,500 (where closing early keeps the latency low).
constexpr double heavy_entries_per_s = 18000;
constexpr std::chrono::milliseconds rate_period{250};
} // namespace

// The maps are keyed by room id; looked up by the views a batch's bytes give.
struct journal_room_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// The table is a log of batches: each batch (a shard's turn) is one row holding its entries in
// the bytes its producer wrote (so a commit writes a few pages at the b-tree's right edge,
// however many rooms and moves it holds), and a cut is a row of journal_cuts, written in the
// same transaction. A row
// whose entries are all hidden by cuts is deleted later, a few per transaction; the journal
// thread knows which from its map of every room's entries (read from the file at load()).
// What is SQLite's or PostgreSQL's is in the storage (journal_storage.hpp).
struct journal::impl {
    std::string path; // where the journal is, for the logs (no password)
    std::unique_ptr<detail::journal_storage> storage;

    struct room_state {
        std::int64_t cut = 0;                                       // entries below it are dead
        std::vector<std::pair<std::int64_t, std::int64_t>> live;    // (n, batch)
        std::size_t batches = 0; // rows of the table holding any of its entries, live or dead
        // The row its last entry was noted in: rows are noted in the order they were written,
        // so this says whether the room is listed in the row already, without a search.
        std::int64_t last_batch = std::numeric_limits<std::int64_t>::min();
    };
    using room_map = std::unordered_map<std::string, room_state, journal_room_hash, std::equal_to<>>;
    struct batch_state {
        std::size_t live = 0;
        // The rooms it holds entries of, each once, as the map's elements: they stay where
        // they are until erased, and a room is erased only once no row holds any of its entries.
        std::vector<room_map::value_type*> rooms;
    };
    room_map rooms;
    std::unordered_map<std::int64_t, batch_state> batches;
    std::deque<std::int64_t> dead_batches; // rows to delete, oldest first
    // Closed rooms none of whose entries is left: their cut rows go in the next transaction.
    std::vector<std::string> forget_cuts;

    // A batch to write, or a task to run on the thread (a read, a flush) once what was queued
    // before it has been committed.
    struct request {
        journal_batch batch;
        std::function<void(bool)> committed;
        std::function<void()> task;
        std::int64_t row = 0; // the row its entries went to
    };
    std::string row_bytes; // a transaction's batches, one after the other (reused)
    // Batches whose transaction failed (the database was unreachable, the disk full): written
    // first with the next transaction, up to a bound, so that the journal has no hole once the
    // database is back. Their writers were answered `false` at once: the games went on.
    std::vector<request> unwritten;
    std::size_t unwritten_bytes = 0;
    std::atomic<std::size_t> max_unwritten_bytes{default_backlog_limit};
    // Set once unwritten_bytes reaches half of max_unwritten_bytes; cleared only by a write
    // that succeeds (a backlog dropped past the bound leaves the database as unreachable).
    std::atomic<bool> backlogged{false};
    void count_unwritten(std::size_t bytes)
    {
        unwritten_bytes = bytes;
        if (bytes > 0 && bytes >= max_unwritten_bytes.load() / 2) backlogged.store(true, std::memory_order_relaxed);
    }
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<request> queue;
    std::chrono::steady_clock::time_point first_queued; // when queue last became non-empty
    std::chrono::microseconds window = journal_commit_window;
    // Writers that have written since they were last idle (by number), how many, and whether
    // a batch of no writer is queued: the window waits for them.
    std::vector<bool> busy_writers;
    std::size_t busy_count = 0;
    bool anonymous_queued = false;
    // Only on SQLite: a PostgreSQL commit costs the database far more CPU, and committing as
    // soon as the writers idle made a cluster's CPU per move a quarter higher at 300 rooms and
    // 100 ms think time (bench/RESULTS.md, "The journal of live rooms"). There every window lasts
    // its whole length.
    bool close_early = true; // set before the thread starts, never changed
    // The entries taken since rate_since; `heavy` once they came at heavy_entries_per_s or more
    // over the last rate_period. Set by the journal's thread; all three under the mutex (a
    // writer's writer_idle reads `heavy`).
    std::chrono::steady_clock::time_point rate_since = std::chrono::steady_clock::now();
    std::size_t rate_entries = 0;
    bool heavy = false;
    void count_entries(const std::vector<request>& taken);
    bool window_may_close() const { return close_early && !heavy && busy_count == 0 && !anonymous_queued; }
    bool closing = false;
    std::thread thread;

    std::atomic<std::uint64_t> commits{0};

    void run();
    bool enqueue(request&& r, std::optional<std::size_t> writer = std::nullopt);
    void run_and_wait(std::function<void()> task);
    void carry_out(std::vector<request>& taken);
    void keep_unwritten(std::span<request> failed);
    bool write_all(std::span<request> group);
    room_state& room(std::string_view id) { return room_element(id).second; }
    room_map::value_type& room_element(std::string_view id);
    // The same, `last` (the room of the entry before, if any) when it is that room: a room's
    // consecutive entries (a placement and the give after it) skip the lookup.
    room_map::value_type& room_element(std::string_view id, room_map::value_type* last)
    {
        return last && last->first == id ? *last : room_element(id);
    }
    // Notes an entry of `room` in row `batch` (whose state is `b`).
    void note_entry(room_map::value_type& room, std::int64_t n, std::int64_t batch, batch_state& b, bool is_live);
    void note_cut(std::string_view room, std::int64_t below_n);
    // The committed transaction's effects on the maps.
    void apply(std::span<const request> group, std::size_t deleted);
    void batch_gone(std::int64_t batch);
    archive_result<std::vector<journal_entry>> read_all();
};

std::variant<std::unique_ptr<journal>, open_error> journal::open(const std::string& where, const std::string& node)
{
    auto opened = is_postgres_address(where) ? detail::open_postgres_journal(where, node) : detail::open_sqlite_journal(where);
    if (auto* error = std::get_if<open_error>(&opened)) return std::move(*error);
    auto i = std::make_unique<impl>();
    i->storage = std::move(std::get<std::unique_ptr<detail::journal_storage>>(opened));
    i->path = i->storage->location();
    i->close_early = !is_postgres_address(where);
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
    impl_->run_and_wait([&] { out = impl_->read_all(); });
    return out;
}

void journal::write(journal_batch batch, std::function<void(bool)> committed, std::optional<std::size_t> writer)
{
    const std::size_t count = batch.entry_count();
    if (impl_->enqueue({std::move(batch), std::move(committed), {}, 0}, writer)) return;
    spdlog::error("journal {}: closed; a batch of {} entries NOT written", impl_->path, count);
}

void journal::writer_idle(std::size_t writer)
{
    auto& m = *impl_;
    bool close_window = false;
    {
        std::lock_guard lock{m.mutex};
        if (writer >= m.busy_writers.size() || !m.busy_writers[writer]) return;
        m.busy_writers[writer] = false;
        --m.busy_count;
        close_window = m.window_may_close() && !m.queue.empty();
    }
    if (close_window) m.wake.notify_one();
}

bool journal::closes_windows_early() const { return impl_->close_early; }

void journal::set_commit_window(std::chrono::microseconds window)
{
    {
        std::lock_guard lock{impl_->mutex};
        impl_->window = window;
    }
    impl_->wake.notify_one();
}

void journal::flush()
{
    impl_->run_and_wait([] {});
}

void journal::fence(std::int64_t token, std::int64_t previous, std::function<void(bool)> done)
{
    auto& m = *impl_;
    if (!m.enqueue({{}, {}, [&m, token, previous, done] { done(m.storage->fence(token, previous)); }, 0})) done(false);
}

void journal::set_backlog_limit(std::size_t bytes) { impl_->max_unwritten_bytes.store(bytes); }

bool journal::backlogged() const { return impl_->backlogged.load(std::memory_order_relaxed); }

bool journal::fenced() const { return impl_->storage->fenced(); }

void journal::take_over(std::string dead, std::int64_t token, std::function<void(archive_result<taken_over>)> done)
{
    auto& m = *impl_;
    const bool queued = m.enqueue({{}, {}, [&m, dead = std::move(dead), token, done] {
        auto rows = m.storage->take_over(dead, token);
        if (!rows) {
            spdlog::error("journal {}: cannot take node {}'s rooms over: {}", m.path, dead, m.storage->last_error());
            return done({{}, true});
        }
        taken_over taken{{}, std::move(rows->tournaments)};
        std::set<std::string, std::less<>> rooms;
        for (const auto& bytes : rows->journal) {
            journal_entry_reader reader{bytes};
            journal_entry_reader::view e;
            while (!reader.done() && reader.next(e)) rooms.emplace(e.room);
        }
        if (rooms.empty()) return done({std::move(taken), false});
        // The rows are this node's now: read everything again, so that the maps (which rows
        // hold what) cover them, and answer with the taken rooms' entries.
        auto all = m.read_all();
        if (all.failed) return done({{}, true});
        std::erase_if(all.value, [&](const journal_entry& e) { return !rooms.contains(e.room); });
        taken.entries = std::move(all.value);
        done({std::move(taken), false});
    }, 0});
    if (!queued) spdlog::error("journal {}: closed; node {}'s rooms NOT taken over", impl_->path, dead);
}

void journal::close()
{
    {
        std::lock_guard lock{impl_->mutex};
        impl_->closing = true;
    }
    impl_->wake.notify_one();
    if (impl_->thread.joinable()) impl_->thread.join();
    // A last try for what failed before (the journal's thread has ended: this one is alone).
    if (auto& m = *impl_; !m.unwritten.empty()) {
        if (m.write_all(m.unwritten))
            spdlog::warn("journal {}: {} batches that had failed are written now", m.path, m.unwritten.size());
        else
            spdlog::critical("journal {}: {} batches could not be written before the end", m.path, m.unwritten.size());
        m.unwritten.clear();
    }
    impl_->storage->close();
}

std::uint64_t journal::commits() const { return impl_->commits.load(std::memory_order_relaxed); }
std::uint64_t journal::syncs() const { return impl_->storage->syncs(); }

// ---- the journal thread ----------------------------------------------------------------------

bool journal::impl::enqueue(request&& r, std::optional<std::size_t> writer)
{
    bool queued = false, first = false;
    {
        std::lock_guard lock{mutex};
        if (!closing) {
            if (!writer) {
                anonymous_queued = anonymous_queued || !r.task;
            } else {
                if (*writer >= busy_writers.size()) busy_writers.resize(*writer + 1);
                if (!busy_writers[*writer]) {
                    busy_writers[*writer] = true;
                    ++busy_count;
                }
            }
            queue.push_back(std::move(r));
            queued = true;
            first = queue.size() == 1;
            if (first) first_queued = std::chrono::steady_clock::now();
        }
    }
    if (queued) {
        // With the lock released: a thread woken inside it would at once wait for it again.
        if (first) wake.notify_one();
        return true;
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
             }, 0});
    finished.wait();
}

void journal::impl::run()
{
    pthread_setname_np(pthread_self(), "quarto-journal");
    for (;;) {
        std::vector<request> taken;
        {
            std::unique_lock lock{mutex};
            wake.wait(lock, [this] { return closing || !queue.empty(); });
            if (queue.empty()) return; // closing, and everything has been written
            // What comes within the window shares the transaction: one commit for many turns.
            // A task (a read, a flush) does not keep it open; a batch's writer does, until it
            // says it is idle.
            while (!closing && !window_may_close()) {
                const auto end = first_queued + window; // read again: set_commit_window
                if (std::chrono::steady_clock::now() >= end) break;
                wake.wait_until(lock, end);
            }
            taken.swap(queue);
            anonymous_queued = false;
            count_entries(taken);
        }
        carry_out(taken);
    }
}

void journal::impl::count_entries(const std::vector<request>& taken)
{
    for (const auto& r : taken) rate_entries += r.batch.entry_count();
    const auto now = std::chrono::steady_clock::now();
    const auto elapsed = now - rate_since;
    if (elapsed < rate_period) return;
    const double per_s = static_cast<double>(rate_entries) / std::chrono::duration<double>(elapsed).count();
    heavy = per_s >= heavy_entries_per_s;
    rate_since = now;
    rate_entries = 0;
}

void journal::impl::keep_unwritten(std::span<request> failed)
{
    std::size_t bytes = unwritten_bytes;
    for (auto& r : failed) {
        bytes += r.batch.bytes().size();
        unwritten.push_back({std::move(r.batch), {}, {}, 0});
    }
    count_unwritten(bytes);
    const std::size_t limit = max_unwritten_bytes.load();
    if (unwritten_bytes <= limit) return;
    std::size_t entries = 0;
    for (const auto& r : unwritten) entries += r.batch.entry_count();
    spdlog::critical("journal {}: {} entries of {} batches could not be written and are dropped (more than {} KiB "
                     "waiting): the rooms they belong to will not come back after a restart",
                     path, entries, unwritten.size(), limit >> 10);
    unwritten.clear();
    count_unwritten(0);
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
        bool ok = false;
        if (unwritten.empty()) {
            ok = write_all({taken.data() + begin, end - begin});
            if (!ok) keep_unwritten({taken.data() + begin, end - begin});
        } else {
            // What failed before goes first, in the same transaction: each room's entries stay
            // in order. Its writers were told at the time.
            std::vector<request> work = std::move(unwritten);
            unwritten.clear();
            count_unwritten(0);
            const std::size_t before = work.size();
            for (std::size_t i = begin; i < end; ++i) {
                work.push_back(std::move(taken[i]));
                taken[i].committed = std::move(work.back().committed);
            }
            ok = write_all(work);
            if (ok) spdlog::warn("journal {}: {} batches that had failed are written now", path, before);
            else keep_unwritten(work);
        }
        if (ok) backlogged.store(false, std::memory_order_relaxed);
        for (std::size_t i = begin; i < end; ++i) {
            try {
                if (taken[i].committed) taken[i].committed(ok);
            } catch (const std::exception& e) { // one bad callback must not keep the others from theirs
                spdlog::error("journal {}: {}", path, e.what());
            }
        }
        begin = end;
    }
}

bool journal::impl::write_all(std::span<request> group)
{
    std::size_t entries = 0, cuts = 0;
    for (const auto& r : group) {
        entries += r.batch.entry_count();
        cuts += r.batch.cuts().size();
    }
    if (entries == 0 && cuts == 0) return true;
    detail::journal_storage& db = *storage;
    bool ok = db.begin();
    // One row for the whole transaction: a batch is a shard's turn, and at a few moves a turn
    // a row each would be several rows (inserted, then deleted) a commit.
    const std::string* bytes = nullptr;
    row_bytes.clear();
    for (auto& r : group) {
        for (const auto& c : r.batch.cuts()) {
            if (!ok) break;
            ok = db.raise_cut(c.room, c.below_n);
        }
        if (r.batch.entry_count() == 0) continue;
        if (!bytes) bytes = &r.batch.bytes(); // one batch: its bytes as they are
        else {
            if (row_bytes.empty()) row_bytes = *bytes;
            row_bytes += r.batch.bytes();
            bytes = &row_bytes;
        }
    }
    std::int64_t row = 0;
    if (ok && bytes) {
        const auto appended = db.append_row(*bytes);
        ok = appended.has_value();
        row = appended.value_or(0);
    }
    for (auto& r : group) r.row = row;
    std::size_t deleted = 0;
    for (; ok && deleted < deletes_per_commit && deleted < dead_batches.size(); ++deleted)
        ok = db.delete_row(dead_batches[deleted]);
    for (const auto& room : forget_cuts) {
        if (!ok) break;
        if (rooms.contains(room)) continue; // the id is in use again: its cut is the new room's
        ok = db.delete_cut(room);
    }
    ok = ok && db.commit();
    if (!ok) {
        spdlog::error("journal {}: a transaction of {} entries and {} cuts NOT written: {}", path, entries, cuts,
                      db.last_error());
        db.roll_back();
        return false;
    }
    forget_cuts.clear();
    apply(group, deleted);
    commits.fetch_add(1, std::memory_order_relaxed);
    return true;
}

journal::impl::room_map::value_type& journal::impl::room_element(std::string_view id)
{
    const auto it = rooms.find(id);
    return it != rooms.end() ? *it : *rooms.emplace(std::string{id}, room_state{}).first;
}

void journal::impl::note_entry(room_map::value_type& element, std::int64_t n, std::int64_t batch, batch_state& b,
                               bool is_live)
{
    auto& r = element.second;
    if (r.last_batch != batch) {
        r.last_batch = batch;
        b.rooms.push_back(&element);
        ++r.batches;
    }
    if (!is_live) return;
    r.live.emplace_back(n, batch);
    ++b.live;
}

void journal::impl::apply(std::span<const request> group, std::size_t deleted)
{
    batch_state* row = nullptr; // every request of the group went to one row
    room_map::value_type* last = nullptr;
    for (const auto& r : group) {
        const auto& cuts = r.batch.cuts();
        std::size_t next_cut = 0, entry = 0;
        journal_entry_reader reader{r.batch.bytes()};
        journal_entry_reader::view e;
        while (!reader.done() && reader.next(e)) {
            for (; next_cut < cuts.size() && cuts[next_cut].after_entries <= entry; ++next_cut) {
                note_cut(cuts[next_cut].room, cuts[next_cut].below_n);
                last = nullptr; // a cut may erase a room from the map
            }
            if (!row) row = &batches[r.row];
            last = &room_element(e.room, last);
            note_entry(*last, e.n, r.row, *row, true);
            ++entry;
        }
        for (; next_cut < cuts.size(); ++next_cut) {
            note_cut(cuts[next_cut].room, cuts[next_cut].below_n);
            last = nullptr;
        }
    }
    for (std::size_t i = 0; i < deleted; ++i) {
        batch_gone(dead_batches.front());
        dead_batches.pop_front();
    }
}

void journal::impl::note_cut(std::string_view room_id, std::int64_t below_n)
{
    auto& r = room(room_id);
    r.cut = std::max(r.cut, below_n);
    const auto dying = std::partition(r.live.begin(), r.live.end(), [&](const auto& x) { return x.first >= r.cut; });
    for (auto it = dying; it != r.live.end(); ++it) {
        auto& b = batches[it->second];
        if (b.live > 0 && --b.live == 0) dead_batches.push_back(it->second);
    }
    r.live.erase(dying, r.live.end());
    if (r.cut == journal_batch::all_entries && r.batches == 0) {
        forget_cuts.emplace_back(room_id);
        rooms.erase(rooms.find(room_id));
    }
}

// A row deleted: the rooms it held entries of hold one row fewer; a closed room left with
// none can forget its cut.
void journal::impl::batch_gone(std::int64_t batch)
{
    const auto it = batches.find(batch);
    if (it == batches.end()) return;
    for (auto* element : it->second.rooms) {
        room_state& r = element->second;
        if (r.batches > 0) --r.batches;
        if (r.batches == 0 && r.live.empty() && r.cut == journal_batch::all_entries) {
            forget_cuts.push_back(element->first);
            rooms.erase(rooms.find(element->first));
        }
    }
    batches.erase(it);
}

archive_result<std::vector<journal_entry>> journal::impl::read_all()
{
    rooms.clear();
    batches.clear();
    dead_batches.clear();
    forget_cuts.clear();
    const auto failed = [&] {
        spdlog::error("journal {}: cannot read: {}", path, storage->last_error());
        return archive_result<std::vector<journal_entry>>{{}, true};
    };
    if (!storage->read_cuts([&](std::string_view room_id, std::int64_t below_n) { room(room_id).cut = below_n; }))
        return failed();
    std::unordered_map<std::string, std::vector<journal_entry>> live;
    const bool read = storage->read_rows([&](std::int64_t batch, std::string_view bytes) {
        journal_entry_reader reader{bytes};
        batch_state& row = batches[batch]; // known, even when every entry in it is dead
        room_map::value_type* last = nullptr;
        while (!reader.done()) {
            journal_entry_reader::view e;
            if (!reader.next(e)) {
                spdlog::error("journal {}: row {} is cut short; the rest of it is skipped", path, batch);
                break;
            }
            last = &room_element(e.room, last);
            const bool is_live = e.n >= last->second.cut;
            note_entry(*last, e.n, batch, row, is_live);
            if (is_live)
                live[std::string{e.room}].push_back({std::string{e.room}, e.n, std::string{e.change}, std::string{e.event}});
        }
        if (row.live == 0) dead_batches.push_back(batch);
    });
    if (!read) return failed();
    for (auto it = rooms.begin(); it != rooms.end();) { // closed rooms with nothing left
        if (it->second.batches == 0 && it->second.live.empty() && it->second.cut == journal_batch::all_entries) {
            forget_cuts.push_back(it->first);
            it = rooms.erase(it);
        } else {
            ++it;
        }
    }
    archive_result<std::vector<journal_entry>> out;
    std::vector<std::string> names;
    names.reserve(live.size());
    for (const auto& [room, entries] : live) names.push_back(room);
    std::sort(names.begin(), names.end());
    for (const auto& room : names) {
        auto& entries = live[room];
        std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.n < b.n; });
        for (auto& e : entries) out.value.push_back(std::move(e));
    }
    return out;
}

} // namespace quarto::archive
