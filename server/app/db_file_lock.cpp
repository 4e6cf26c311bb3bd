#include "app/db_file_lock.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace quarto::server {

std::optional<db_file_lock> db_file_lock::take(const std::string& db_path, std::string& error)
{
    const std::string path = db_path + ".lock";
    // The archive makes the file's directory when it is missing; the lock comes first.
    if (const auto dir = std::filesystem::path{db_path}.parent_path(); !dir.empty()) {
        std::error_code ignored; // a directory that cannot be made fails the open below
        std::filesystem::create_directories(dir, ignored);
    }
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return std::nullopt;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int why = errno;
        ::close(fd);
        error = why == EWOULDBLOCK ? "another quarto-server is using it (" + path + " is locked)"
                                   : "cannot lock " + path + ": " + std::strerror(why);
        return std::nullopt;
    }
    return db_file_lock{fd};
}

db_file_lock::db_file_lock(db_file_lock&& other) noexcept : fd_{std::exchange(other.fd_, -1)} {}

db_file_lock& db_file_lock::operator=(db_file_lock&& other) noexcept
{
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

db_file_lock::~db_file_lock()
{
    if (fd_ >= 0) ::close(fd_);
}

} // namespace quarto::server
