#pragma once
// One server per --db file. A second process on the same SQLite file would restore the same
// live rooms from the journal and go on journaling them beside the first: two servers playing
// one game. The lock is an flock(2) on "PATH.lock" beside the file, held for the life of the
// process; the kernel lets it go however the process ends (kill -9 too), so a restart never
// finds it stale. Other readers of the file (sqlite3's .backup) do not take it.
#include <optional>
#include <string>

namespace quarto::server {

class db_file_lock {
public:
    // The lock, or nullopt with `error` set: another process holds it, or it cannot be made.
    static std::optional<db_file_lock> take(const std::string& db_path, std::string& error);

    db_file_lock(db_file_lock&& other) noexcept;
    db_file_lock& operator=(db_file_lock&& other) noexcept;
    db_file_lock(const db_file_lock&) = delete;
    ~db_file_lock();

private:
    explicit db_file_lock(int fd) : fd_{fd} {}
    int fd_ = -1;
};

} // namespace quarto::server
