#include "quarto/archive/game_archive.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <future>

#include <spdlog/spdlog.h>

#include "quarto/archive/game_json.hpp"

namespace quarto::archive {

std::variant<std::unique_ptr<game_archive>, open_error> game_archive::open(const std::string& where, const std::string& node,
                                                                        file_sync sync)
{
    auto opened = open_store(where, node, sync);
    if (auto* error = std::get_if<open_error>(&opened)) return std::move(*error);
    return std::unique_ptr<game_archive>{new game_archive{std::move(std::get<std::unique_ptr<store>>(opened))}};
}

game_archive::game_archive(std::unique_ptr<store> opened) : store_{std::move(opened)}, path_{store_->location()}
{
    thread_ = std::thread{[this] { run(); }};
}

game_archive::~game_archive()
{
    close();
}

void game_archive::run()
{
    // Background work: named for ps and top, and below the event loops' priority, so that a
    // commit or a WAL checkpoint never holds a core the loops need (it only waits longer).
    pthread_setname_np(pthread_self(), "quarto-archive");
    setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), background_nice);
    for (;;) {
        std::deque<request> taken;
        {
            std::unique_lock lock{mutex_};
            wake_.wait(lock, [this] { return closing_ || !queue_.empty(); });
            if (queue_.empty()) return; // closing, and everything has been carried out
            // Finished games alone: let others join them for commit_window, so that they share
            // one transaction. Anything else is carried out at once.
            wake_.wait_for(lock, commit_window, [this] {
                return closing_ || jobs_queued_ > 0 || queue_.size() >= max_games_per_commit;
            });
            taken.swap(queue_); // all at once: the saves among them can share a transaction
            jobs_queued_ = 0;
        }
        carry_out(taken);
    }
}

void game_archive::carry_out(std::deque<request>& taken)
{
    while (!taken.empty()) {
        if (auto* next = std::get_if<job>(&taken.front())) {
            try {
                (*next)(*store_);
            } catch (const std::exception& e) { // a bug in a job or its callback: keep the archive alive
                spdlog::error("archive {}: {}", path_, e.what());
            }
            taken.pop_front();
            continue;
        }
        std::vector<game_record> records;
        std::vector<std::function<void(bool)>> dones;
        while (!taken.empty() && records.size() < max_games_per_commit) {
            auto* save = std::get_if<game_save>(&taken.front());
            if (!save) break; // a job: it must see this batch committed
            records.push_back(std::move(save->record));
            dones.push_back(std::move(save->done));
            taken.pop_front();
        }
        save_batch(records, dones);
    }
}

void game_archive::save_batch(std::span<const game_record> records, std::span<const std::function<void(bool)>> dones)
{
    std::vector<bool> stored;
    try {
        stored = store_->save_games(records);
    } catch (const std::exception& e) { // thrown before COMMIT, so the transaction was rolled back
        spdlog::error("archive {}: {}", path_, e.what());
        stored.assign(records.size(), false);
    }
    // Only now, with the transaction over, is each answer final.
    for (std::size_t i = 0; i < records.size(); ++i) {
        try {
            // The record is still on hand: put it in the log so an operator can restore it.
            if (!stored[i]) spdlog::error("archive: game {} NOT stored: {}", records[i].id, game_json(records[i]).dump());
            if (dones[i]) dones[i](stored[i]);
        } catch (const std::exception& e) { // one bad callback must not keep the others from their answer
            spdlog::error("archive {}: {}", path_, e.what());
        }
    }
}

bool game_archive::enqueue(request&& r)
{
    bool wake = false;
    {
        std::lock_guard lock{mutex_};
        if (closing_) return false;
        const bool is_job = std::holds_alternative<job>(r);
        if (is_job) ++jobs_queued_;
        // The thread waits for the first request, then for a job or a full batch: no other
        // push needs to wake it.
        wake = queue_.empty() || is_job || queue_.size() + 1 >= max_games_per_commit;
        queue_.push_back(std::move(r));
    }
    if (wake) wake_.notify_one();
    return true;
}

void game_archive::run_and_wait(job j)
{
    if (std::this_thread::get_id() == thread_.get_id()) return j(*store_);
    std::promise<void> finished;
    auto done = finished.get_future();
    if (!enqueue([&](store& s) {
            j(s);
            finished.set_value();
        }))
        return;
    done.wait();
}

void game_archive::save_game(game_record record, std::function<void(bool)> done)
{
    request save{game_save{std::move(record), std::move(done)}};
    if (enqueue(std::move(save))) return;
    // Refused, so still ours: log the whole record, as for a failed write.
    auto& refused = std::get<game_save>(save);
    spdlog::error("archive {}: closed; game {} NOT stored: {}", path_, refused.record.id,
                  game_json(refused.record).dump());
    if (refused.done) refused.done(false);
}

void game_archive::find_game(std::string id, callback<std::optional<game_record>> done)
{
    if (!enqueue([id = std::move(id), done](store& s) { done(s.find_game(id)); })) done({{}, true});
}

void game_archive::games_of_player(std::string name, int limit, callback<std::vector<game_record>> done, int offset)
{
    if (!enqueue([name = std::move(name), limit, offset, done](store& s) { done(s.games_of_player(name, limit, offset)); }))
        done({{}, true});
}

void game_archive::save_tournament(std::string id, std::string name, std::string status, std::string json_state,
                                   std::function<void(bool)> done)
{
    stored_tournament t{std::move(id), std::move(name), std::move(status), std::move(json_state)};
    const std::string shown = t.id;
    if (!enqueue([t = std::move(t), done](store& s) {
            const bool stored = s.save_tournament(t);
            // The id only: the state holds its people's token hashes, which stay out of logs.
            if (!stored) spdlog::error("archive: tournament {} NOT stored", t.id);
            if (done) done(stored);
        })) {
        spdlog::error("archive {}: closed; tournament {} not stored", path_, shown);
        if (done) done(false);
    }
}

void game_archive::delete_tournament(std::string id, std::function<void(bool)> done)
{
    const std::string shown = id;
    if (!enqueue([id = std::move(id), done](store& s) {
            const bool deleted = s.delete_tournament(id);
            if (done) done(deleted);
        })) {
        spdlog::error("archive {}: closed; tournament {} not deleted", path_, shown);
        if (done) done(false);
    }
}

archive_result<std::vector<stored_tournament>> game_archive::load_tournaments()
{
    archive_result<std::vector<stored_tournament>> out{{}, true};
    run_and_wait([&](store& s) { out = s.load_tournaments(); });
    return out;
}

void game_archive::find_tournament(std::string id, callback<std::optional<stored_tournament>> done)
{
    if (!enqueue([id = std::move(id), done](store& s) { done(s.find_tournament(id)); })) done({{}, true});
}

void game_archive::save_analysis(stored_analysis analysis, std::function<void(bool)> done)
{
    const std::string shown = analysis.game;
    if (!enqueue([analysis = std::move(analysis), done](store& s) {
            const bool stored = s.save_analysis(analysis);
            if (done) done(stored);
        })) {
        spdlog::error("archive {}: closed; the analysis of game {} not stored", path_, shown);
        if (done) done(false);
    }
}

void game_archive::find_analysis(std::string game, callback<std::optional<stored_analysis>> done)
{
    if (!enqueue([game = std::move(game), done](store& s) { done(s.find_analysis(game)); })) done({{}, true});
}

void game_archive::flush()
{
    run_and_wait([](store&) {});
}

void game_archive::close()
{
    {
        std::lock_guard lock{mutex_};
        closing_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable() && std::this_thread::get_id() != thread_.get_id()) thread_.join();
}

} // namespace quarto::archive
