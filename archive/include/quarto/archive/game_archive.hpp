// The archive as the server uses it: a store (store.hpp) on a dedicated thread, fed through a
// queue. Network threads only enqueue (a finished game, a lookup) and never wait on the disk.
// Requests are carried out in the order they were enqueued; games saved one after another
// while the thread was busy are committed together, in one transaction (one fsync).
// Lookups answer through a callback that runs on the archive thread: the caller posts the
// answer to its own executor (e.g. `net::post(session_executor, ...)`) and must not block in
// the callback, nor call flush() or load_tournaments() from it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "quarto/archive/store.hpp"

namespace quarto::archive {

// At most this many games per transaction, so that a burst of finished games cannot hold the
// archive thread (and the lookups queued behind it) for long.
inline constexpr std::size_t max_games_per_commit = 256;
// How long finished games may wait for others to share their transaction: at a few hundred
// games a second, a commit (and its fsync) for every game would cost more than the games.
// Lookups and tournament writes do not wait for it. Not longer with the journal either: 100 ms
// cost the archive less CPU, but made the journal's p99 at 1000 rooms 10 ms instead of 6
// (bench/RESULTS.md, "The journal of live rooms").
inline constexpr std::chrono::milliseconds commit_window{20};
// The archive thread's nice value (the event loops run at 0).
inline constexpr int background_nice = 10;

class game_archive {
public:
    template <class T>
    using callback = std::function<void(archive_result<T>)>;

    // Opens the store (open_store: an SQLite file's path or a PostgreSQL address) and starts the
    // archive thread.
    static std::variant<std::unique_ptr<game_archive>, open_error> open(const std::string& where, const std::string& node = {},
                                                                        file_sync sync = file_sync::each_commit);

    // close()s.
    ~game_archive();
    game_archive(const game_archive&) = delete;
    game_archive& operator=(const game_archive&) = delete;

    // Stores a finished game. `done` (optional, on the archive thread) learns whether it reached
    // the disk, once the transaction that holds it has committed; a failure is also logged with
    // the whole record, so it is never lost silently.
    void save_game(game_record record, std::function<void(bool stored)> done = {});
    void find_game(std::string id, callback<std::optional<game_record>> done);
    void games_of_player(std::string name, int limit, callback<std::vector<game_record>> done, int offset = 0);

    // Tournament storage for the tournament code, which defines `json_state`.
    // Insert or replace by id; `done` as for save_game.
    void save_tournament(std::string id, std::string name, std::string status, std::string json_state,
                         std::function<void(bool stored)> done = {});
    // A tournament that is no more (one nobody registered for, expired); `done` as for save_game.
    void delete_tournament(std::string id, std::function<void(bool deleted)> done = {});
    // Every stored tournament, synchronously: meant for startup, before the server accepts.
    archive_result<std::vector<stored_tournament>> load_tournaments();
    void find_tournament(std::string id, callback<std::optional<stored_tournament>> done);

    // The cache of games' analyses (GET /api/games/{id}/analysis). Insert or replace by game id;
    // `done` as for save_game.
    void save_analysis(stored_analysis analysis, std::function<void(bool stored)> done = {});
    void find_analysis(std::string game, callback<std::optional<stored_analysis>> done);

    // Accounts, sessions and ratings (store.hpp says what each does; game_archive_accounts.cpp).
    // `done` runs on the archive thread, as for lookups; a closed archive answers failed.
    void create_account(std::string player_id, std::string name, std::string password_hash, std::int64_t now,
                        callback<account_creation> done);
    void find_account_by_name(std::string name, callback<std::optional<stored_account>> done);
    void name_is_account(std::string name, callback<bool> done);
    void set_password(std::string player_id, std::string password_hash, std::string keep_session_hash,
                      callback<bool> done);
    void add_session(std::string id_hash, std::string player_id, std::int64_t now, callback<bool> done);
    void find_session(std::string id_hash, std::int64_t now, callback<std::optional<std::string>> done);
    void end_session(std::string id_hash, std::function<void(bool ended)> done = {});
    void end_sessions(std::string player_id, std::function<void(bool ended)> done = {});
    void ratings_of(std::string player_id, callback<std::vector<stored_rating>> done);
    void apply_rated_game(std::string game_id, rating_update first, rating_update second, std::int64_t now,
                          callback<rated_game_outcome> done);
    void delete_account(std::string player_id, callback<bool> done);
    void export_account(std::string player_id, callback<std::optional<account_export>> done);
    void find_account(std::string player_id, callback<std::optional<stored_account>> done);
    void find_player(std::string name, callback<std::optional<player_profile>> done);
    void rating_history(std::string player_id, rating::pool pool, int limit, callback<std::vector<rating_point>> done);
    void leaderboard(rating::pool pool, int limit, callback<std::vector<leaderboard_entry>> done);
    void tournaments_of_player(std::string player_id, int limit, callback<std::vector<stored_tournament>> done);

    // Blocks until everything enqueued before the call has been carried out.
    void flush();
    // Carries out everything enqueued, then stops the thread. Idempotent; later requests are
    // refused (logged; lookups answer failed).
    void close();

    const std::string& path() const { return path_; }
    // Write transactions committed so far (see store::commits), from any thread.
    std::uint64_t commits() const { return store_->commits(); }

private:
    // Saves are kept apart from the other requests so that consecutive ones can share a
    // transaction.
    struct game_save {
        game_record record;
        std::function<void(bool stored)> done;
    };
    using job = std::function<void(store&)>;
    using request = std::variant<game_save, job>;

    explicit game_archive(std::unique_ptr<store> opened);
    void run();
    // Carries out `taken` in order; runs of consecutive saves become save_games batches.
    void carry_out(std::deque<request>& taken);
    // One transaction for the records; then each done learns its own record's fate.
    void save_batch(std::span<const game_record> records, std::span<const std::function<void(bool)>> dones);
    // False when closed; then `r` is left as it was.
    bool enqueue(request&& r);
    // Runs `j` on the archive thread and waits for it (inline when already on that thread).
    void run_and_wait(job j);

    std::unique_ptr<store> store_;
    const std::string path_; // its location, for the logs
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<request> queue_;
    std::size_t jobs_queued_ = 0; // requests in queue_ other than game saves
    bool closing_ = false;
    std::thread thread_; // the only user of store_ once started
};

} // namespace quarto::archive
