// Three nodes behind HAProxy with the shipped configuration (deploy/cluster/haproxy.cfg): the
// players and spectators of a room, connected through HAProxy, land on different nodes and
// play as on one server.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "helpers.hpp"
#include "redis_server.hpp"

extern char** environ;

using namespace quarto_test;

namespace {

// A port no one listens on now (HAProxy's configuration takes an address, not port 0).
unsigned short free_port()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof a;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size);
    ::close(fd);
    return ntohs(a.sin_port);
}

// HAProxy in the foreground with deploy/cluster/haproxy.cfg, stopped by its PID.
class haproxy_process {
public:
    explicit haproxy_process(const std::vector<unsigned short>& nodes) : port_{free_port()}
    {
        log_ = (std::filesystem::temp_directory_path() / ("quarto-haproxy-" + std::to_string(::getpid()) + "-" +
                                                          std::to_string(port_) + ".log"))
                   .string();
        std::vector<std::string> env_strings{"QUARTO_LISTEN=127.0.0.1:" + std::to_string(port_)};
        for (std::size_t i = 0; i < nodes.size(); ++i)
            env_strings.push_back("QUARTO_NODE" + std::to_string(i + 1) + "=127.0.0.1:" + std::to_string(nodes[i]));
        std::vector<char*> envp;
        for (auto& e : env_strings) envp.push_back(e.data());
        for (char** e = environ; *e; ++e) envp.push_back(*e);
        envp.push_back(nullptr);
        std::string config = std::string{QUARTO_SOURCE_DIR} + "/deploy/cluster/haproxy.cfg";
        std::vector<std::string> args{"haproxy", "-db", "-f", config};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        const int failed = ::posix_spawnp(&pid_, "haproxy", &actions, nullptr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        REQUIRE_MESSAGE(failed == 0, "cannot run haproxy (deploy/deps.sh --tests installs it)");
        // Up when it answers, and each node passed its first check.
        const auto deadline = in(std::chrono::seconds{15});
        while (steady::now() < deadline) {
            try {
                if (http_get(port_, "/healthz").status == 200) return;
            } catch (const std::exception&) { // not listening yet
            }
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                FAIL("haproxy exited at start:\n" << log());
            }
            std::this_thread::sleep_for(std::chrono::milliseconds{50});
        }
        FAIL("haproxy did not answer within 15 s:\n" << log());
    }
    ~haproxy_process()
    {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            int status = 0;
            ::waitpid(pid_, &status, 0);
        }
        std::filesystem::remove(log_);
    }
    unsigned short port() const { return port_; }
    std::string log() const
    {
        std::ifstream in{log_};
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

private:
    unsigned short port_;
    pid_t pid_ = -1;
    std::string log_;
};

} // namespace

TEST_CASE("cluster: through HAProxy, a room's players and spectators land on different nodes and play as on one server")
{
    test_redis::redis_server redis;
    std::vector<std::unique_ptr<server_process>> nodes;
    for (const char* id : {"n1", "n2", "n3"})
        nodes.push_back(std::make_unique<server_process>(
            std::vector<std::string>{"--redis", redis.address(), "--node-id", id, "--trust-proxy"}));
    haproxy_process proxy{{nodes[0]->port(), nodes[1]->port(), nodes[2]->port()}};

    // Round robin: the creator, the two watchers and the joiner, connected one after the other,
    // are spread over the three nodes.
    duel d;
    d.creator.ws = std::make_unique<ws_client>(proxy.port());
    d.creator.id = hello(*d.creator.ws, "Ann").at("player");
    d.room = create_room(*d.creator.ws);
    std::vector<player> watchers;
    for (int i = 0; i < 2; ++i) {
        player w;
        w.ws = std::make_unique<ws_client>(proxy.port());
        w.id = hello(*w.ws, "Watcher" + std::to_string(i)).at("player");
        join(*w.ws, d.room, "spectator");
        d.watchers.push_back(std::move(w));
    }
    d.joiner.ws = std::make_unique<ws_client>(proxy.port());
    d.joiner.id = hello(*d.joiner.ws, "Bob").at("player");
    join(*d.joiner.ws, d.room, "player");
    d.started = d.expect_all("game_started");
    d.first = d.started.at("first").get<int>();

    // Every node holds some of the room's connections (as their next heartbeat says).
    json cluster;
    const auto spread = [](const json& c) {
        return c["nodes"].size() == 3 && std::all_of(c["nodes"].begin(), c["nodes"].end(),
                                                     [](const json& n) { return n["connections"].get<int>() >= 1; });
    };
    for (const auto deadline = in(std::chrono::seconds{5}); steady::now() < deadline;) {
        cluster = json::parse(http_get(proxy.port(), "/api/nodes").body);
        if (spread(cluster)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds{100});
    }
    CHECK(cluster["totals"]["nodes"] == 3);
    for (const auto& n : cluster["nodes"]) CHECK_MESSAGE(n["connections"].get<int>() >= 1, n.dump());

    const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
    const json over = d.expect_all("game_over");
    CHECK(over["reason"] == "quarto");
    for (ws_client* ws : d.everyone()) CHECK(check_seq(ws->history(), d.room) >= 10);
}
