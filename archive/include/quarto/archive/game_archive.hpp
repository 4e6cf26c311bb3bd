// The archive as the server uses it: an archive_store on a dedicated thread, fed through a
// queue. Network threads only enqueue (a finished game, a lookup) and never wait on the disk.
// Lookups answer through a callback that runs on the archive thread: the caller posts the
// answer to its own executor (e.g. `net::post(session_executor, ...)`) and must not block in
// the callback, nor call flush() or load_tournaments() from it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "quarto/archive/archive_store.hpp"

namespace quarto::archive {

class game_archive {
public:
    template <class T>
    using callback = std::function<void(archive_result<T>)>;

    // Opens the store (see archive_store::open) and starts the archive thread.
    static std::variant<std::unique_ptr<game_archive>, open_error> open(const std::string& path);

    // close()s.
    ~game_archive();
    game_archive(const game_archive&) = delete;
    game_archive& operator=(const game_archive&) = delete;

    // Stores a finished game. `done` (optional, on the archive thread) learns whether it reached
    // the disk; a failure is also logged with the whole record, so it is never lost silently.
    void save_game(game_record record, std::function<void(bool stored)> done = {});
    void find_game(std::string id, callback<std::optional<game_record>> done);
    void games_of_player(std::string name, int limit, callback<std::vector<game_record>> done);

    // Tournament storage for the tournament code, which defines `json_state`.
    // Insert or replace by id; `done` as for save_game.
    void save_tournament(std::string id, std::string name, std::string status, std::string json_state,
                         std::function<void(bool stored)> done = {});
    // Every stored tournament, synchronously: meant for startup, before the server accepts.
    archive_result<std::vector<stored_tournament>> load_tournaments();
    void find_tournament(std::string id, callback<std::optional<stored_tournament>> done);

    // Blocks until everything enqueued before the call has been carried out.
    void flush();
    // Carries out everything enqueued, then stops the thread. Idempotent; later requests are
    // refused (logged; lookups answer failed).
    void close();

    const std::string& path() const { return path_; }

private:
    using job = std::function<void(archive_store&)>;

    explicit game_archive(archive_store store);
    void run();
    // False when closed.
    bool enqueue(job j);
    // Runs `j` on the archive thread and waits for it (inline when already on that thread).
    void run_and_wait(job j);

    archive_store store_;
    const std::string path_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<job> queue_;
    bool closing_ = false;
    std::thread thread_; // the only user of store_ once started
};

} // namespace quarto::archive
