// A Redis server of the tests' own: Debian's redis-server started in a scratch directory,
// listening on a Unix socket there only (--port 0: no TCP, so nothing else can reach it),
// keeping nothing on disk, and stopped by its PID at the end. It can be restarted (losing what
// it held, as a Redis without persistence does), paused with SIGSTOP (a Redis that hangs) and
// resumed.
#pragma once

#include <string>
#include <sys/types.h>

namespace test_redis {

class redis_server {
public:
    redis_server(); // throws std::runtime_error with the server's output when it cannot start
    ~redis_server();
    redis_server(const redis_server&) = delete;
    redis_server& operator=(const redis_server&) = delete;

    // The address for --redis.
    std::string address() const { return "unix://" + socket_; }
    const std::string& socket_path() const { return socket_; }

    void stop();
    void start();
    void restart()
    {
        stop();
        start();
    }
    void pause();
    void resume();

    // Runs one command through redis-cli and returns its output (for checks from outside).
    std::string cli(const std::string& arguments) const;

private:
    std::string dir_, socket_;
    pid_t pid_ = -1;
};

} // namespace test_redis
