// The real quarto-server binary as a child process on 127.0.0.1 with a free port: started with
// posix_spawn, its stdout and stderr drained by a thread, stopped by PID with SIGTERM.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace quarto_test {

// How the binary is started, beyond its arguments.
struct launch_options {
    std::vector<std::string> prefix; // a launcher run instead, with the server's command line after it
    int listening_fd = -1;           // handed to the child as fd 3 (socket activation)
};

class server_process {
public:
    // Starts the server with `--host 127.0.0.1 --port 0 --log-level info` plus `extra_args`,
    // and waits (with a deadline) for its `listening on http://HOST:PORT` line. Without a `--db`
    // in `extra_args` the server archives into a fresh temporary directory, removed after it
    // has stopped. `environment` entries ("QUARTO_X=1") are added to the inherited environment.
    explicit server_process(std::vector<std::string> extra_args = {}, std::vector<std::string> environment = {},
                            launch_options how = {});
    ~server_process();
    server_process(const server_process&) = delete;
    server_process& operator=(const server_process&) = delete;

    unsigned short port() const { return port_; }
    pid_t pid() const { return pid_; }
    // The archive file the server was given (`--db`).
    const std::string& db_path() const { return db_path_; }

    // Everything the server has written so far (stdout and stderr interleaved).
    std::string log() const;
    // Waits until the log contains `needle`; false at the deadline.
    bool wait_log(const std::string& needle, std::chrono::steady_clock::time_point deadline) const;

    // SIGTERM, then SIGKILL after `grace`; reaps the child. Returns the wait status (as from
    // waitpid), or nullopt if it had to be killed. Idempotent.
    std::optional<int> stop(std::chrono::milliseconds grace = std::chrono::milliseconds{5000});
    // Like stop() but sends no signal first: for a server already told to stop.
    std::optional<int> wait_exit(std::chrono::milliseconds grace = std::chrono::milliseconds{5000});

private:
    void drain();
    std::optional<int> finish(bool signal, std::chrono::milliseconds grace);

    pid_t pid_ = -1;
    int out_fd_ = -1;
    unsigned short port_ = 0;
    std::optional<int> status_;
    std::string db_path_;
    std::string scratch_dir_; // made for the archive when the test gave no --db; removed at stop
    bool stopped_ = false;
    std::thread drainer_; // reads the pipe so the server never blocks on logging

    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::string log_;
    bool eof_ = false;
};

// The binary under test: $QUARTO_SERVER_BIN, else the path CMake compiled in.
std::string server_binary();

// Runs the server with exactly `args` (and `environment` added) until it exits by itself, for
// command lines that must be refused. The server is killed if it is still running after
// `limit`; then `status` is nullopt. `prefix`: a launcher run instead, as in launch_options.
struct finished_run {
    std::optional<int> status; // as from waitpid
    std::string output;        // stdout and stderr
};
finished_run run_to_exit(const std::vector<std::string>& args, const std::vector<std::string>& environment = {},
                         std::chrono::milliseconds limit = std::chrono::milliseconds{5000},
                         const std::vector<std::string>& prefix = {});

} // namespace quarto_test
