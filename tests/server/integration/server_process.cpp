// Starts and stops the server under test; see server_process.hpp.
#include "server_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <regex>
#include <spawn.h>
#include <stdexcept>
#include <tuple>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace quarto_test {

std::string server_binary()
{
    if (const char* env = std::getenv("QUARTO_SERVER_BIN"); env && *env) return env;
#ifdef QUARTO_SERVER_BIN
    return QUARTO_SERVER_BIN;
#else
    throw std::runtime_error("quarto-server was not built (no CMake target) and QUARTO_SERVER_BIN is unset");
#endif
}

namespace {

// Starts `args` (args[0] is the binary) with `environment` added to ours; returns the pid and
// the read end of a pipe that carries its stdout and stderr.
std::pair<pid_t, int> spawn(std::vector<std::string> args, std::vector<std::string> environment, int fd3 = -1)
{
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e) envp.push_back(*e);
    for (auto& e : environment) envp.push_back(e.data());
    envp.push_back(nullptr);

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // dup2 clears FD_CLOEXEC on the targets, so the child keeps stdout/stderr only.
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    if (fd3 >= 0) posix_spawn_file_actions_adddup2(&actions, fd3, 3);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        throw std::runtime_error("posix_spawn " + args[0] + ": " + std::strerror(rc));
    }
    return {pid, fds[0]};
}

} // namespace

finished_run run_to_exit(const std::vector<std::string>& args, const std::vector<std::string>& environment,
                         std::chrono::milliseconds limit, const std::vector<std::string>& prefix)
{
    std::vector<std::string> command = prefix;
    command.push_back(server_binary());
    command.insert(command.end(), args.begin(), args.end());
    const auto [pid, out] = spawn(command, environment);
    finished_run result;
    std::thread reader{[&, fd = out] {
        char chunk[4096];
        for (;;) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            result.output.append(chunk, static_cast<std::size_t>(n));
        }
    }};
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    for (;;) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            result.status = status;
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{5}); // polling a reap, not a test event
    }
    reader.join();
    ::close(out);
    return result;
}

server_process::server_process(std::vector<std::string> extra_args, std::vector<std::string> environment,
                               launch_options how)
{
    std::vector<std::string> args = std::move(how.prefix);
    args.insert(args.end(), {server_binary(), "--host", "127.0.0.1", "--port", "0", "--log-level", "info"});
    for (std::size_t i = 0; i < extra_args.size(); ++i) {
        if (extra_args[i] == "--db" && i + 1 < extra_args.size()) db_path_ = extra_args[i + 1];
        else if (extra_args[i].rfind("--db=", 0) == 0) db_path_ = extra_args[i].substr(5);
    }
    if (db_path_.empty()) {
        std::string dir = (std::filesystem::temp_directory_path() / "quarto-server-test-XXXXXX").string();
        if (!::mkdtemp(dir.data())) throw std::runtime_error("mkdtemp failed");
        scratch_dir_ = dir;
        db_path_ = dir + "/quarto.db";
        args.insert(args.end(), {"--db", db_path_});
    }
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    try {
        std::tie(pid_, out_fd_) = spawn(std::move(args), std::move(environment), how.listening_fd);
    } catch (...) {
        if (!scratch_dir_.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(scratch_dir_, ignored);
        }
        throw;
    }
    drainer_ = std::thread{[this] { drain(); }};

    // "listening on http://127.0.0.1:PORT"
    static const std::regex listening{R"(listening on http://([^\s/]+):([0-9]+))"};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{15};
    std::unique_lock lock{mutex_};
    std::smatch m;
    const bool found = changed_.wait_until(lock, deadline, [&] {
        return std::regex_search(log_, m, listening) || eof_;
    });
    if (found && !m.empty()) {
        port_ = static_cast<unsigned short>(std::stoi(m[2].str()));
        return;
    }
    const std::string output = log_;
    lock.unlock();
    stop(std::chrono::milliseconds{1000});
    throw std::runtime_error("quarto-server did not report `listening on http://HOST:PORT`; output:\n" + output);
}

server_process::~server_process()
{
    stop();
}

void server_process::drain()
{
    char chunk[4096];
    for (;;) {
        const ssize_t n = ::read(out_fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (std::getenv("QUARTO_TEST_VERBOSE")) std::cerr.write(chunk, n);
        std::lock_guard lock{mutex_};
        log_.append(chunk, static_cast<std::size_t>(n));
        changed_.notify_all();
    }
    std::lock_guard lock{mutex_};
    eof_ = true;
    changed_.notify_all();
}

std::string server_process::log() const
{
    std::lock_guard lock{mutex_};
    return log_;
}

bool server_process::wait_log(const std::string& needle, std::chrono::steady_clock::time_point deadline) const
{
    std::unique_lock lock{mutex_};
    return changed_.wait_until(lock, deadline, [&] { return log_.find(needle) != std::string::npos; });
}

std::optional<int> server_process::stop(std::chrono::milliseconds grace)
{
    return finish(true, grace);
}

std::optional<int> server_process::wait_exit(std::chrono::milliseconds grace)
{
    return finish(false, grace);
}

std::optional<int> server_process::finish(bool signal, std::chrono::milliseconds grace)
{
    if (stopped_) return status_;
    stopped_ = true;
    if (pid_ > 0) {
        if (signal) ::kill(pid_, SIGTERM);
        const auto deadline = std::chrono::steady_clock::now() + grace;
        int status = 0;
        for (;;) {
            const pid_t r = ::waitpid(pid_, &status, WNOHANG);
            if (r == pid_) {
                status_ = status;
                break;
            }
            if (r < 0 && errno != EINTR) break;
            if (std::chrono::steady_clock::now() >= deadline) {
                ::kill(pid_, SIGKILL);
                while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
                }
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds{5}); // polling a reap, not a test event
        }
        pid_ = -1;
    }
    if (drainer_.joinable()) drainer_.join();
    if (out_fd_ >= 0) ::close(out_fd_);
    out_fd_ = -1;
    if (!scratch_dir_.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(scratch_dir_, ignored);
    }
    return status_;
}

} // namespace quarto_test
