#include "redis_server.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

extern char** environ;

namespace test_redis {

redis_server::redis_server()
{
    std::string pattern = (std::filesystem::temp_directory_path() / "quarto-redis-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    socket_ = dir_ + "/redis.sock";
    start();
}

redis_server::~redis_server()
{
    resume();
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void redis_server::start()
{
    if (pid_ > 0) return;
    std::filesystem::remove(socket_);
    const std::string log = dir_ + "/redis.log";
    std::vector<std::string> args{"redis-server", "--port",   "0",    "--unixsocket", socket_, "--unixsocketperm", "700",
                                  "--save",       "",         "--appendonly", "no", "--dir", dir_, "--logfile", log};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const int failed = ::posix_spawnp(&pid_, "redis-server", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed) {
        pid_ = -1;
        throw std::runtime_error("cannot run redis-server (deploy/deps.sh --tests installs it)");
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{20};
    while (std::chrono::steady_clock::now() < deadline) {
        if (std::filesystem::exists(socket_) && cli("PING").find("PONG") != std::string::npos) return;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            std::ifstream in{log};
            std::stringstream text;
            text << in.rdbuf();
            throw std::runtime_error("redis-server exited at start:\n" + text.str());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{20});
    }
    throw std::runtime_error("redis-server did not answer within 20 s");
}

void redis_server::stop()
{
    if (pid_ <= 0) return;
    ::kill(pid_, SIGCONT);
    ::kill(pid_, SIGTERM);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{10};
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{10});
    }
    pid_ = -1;
}

void redis_server::pause()
{
    if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void redis_server::resume()
{
    if (pid_ > 0) ::kill(pid_, SIGCONT);
}

std::string redis_server::cli(const std::string& arguments) const
{
    const std::string command = "redis-cli -s '" + socket_ + "' " + arguments + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return {};
    std::string output;
    std::array<char, 4096> buffer{};
    while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
    ::pclose(pipe);
    return output;
}

} // namespace test_redis
