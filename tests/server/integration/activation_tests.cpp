// systemd socket activation: the server serves the listening socket it is handed (fd 3, named
// by LISTEN_PID and LISTEN_FDS) instead of binding its own; a connection made while no server
// runs waits in that socket's backlog for the next one.
#include <arpa/inet.h>
#include <csignal>
#include <filesystem>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

sockaddr_in loopback(unsigned short port)
{
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    return a;
}

// A listening socket on 127.0.0.1 with a free port, held by the test as systemd holds its copy.
class held_listener {
public:
    held_listener()
    {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0); // inheritable: a child gets it as fd 3
        REQUIRE(fd_ >= 0);
        sockaddr_in a = loopback(0);
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        REQUIRE(::listen(fd_, 64) == 0);
        socklen_t size = sizeof a;
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size) == 0);
        port_ = ntohs(a.sin_port);
    }
    ~held_listener() { ::close(fd_); }
    held_listener(const held_listener&) = delete;
    held_listener& operator=(const held_listener&) = delete;
    int fd() const { return fd_; }
    unsigned short port() const { return port_; }

private:
    int fd_ = -1;
    unsigned short port_ = 0;
};

// As systemd starts a service: LISTEN_PID is the service's own pid, which only the child knows.
launch_options activated(int fd)
{
    return {{"/bin/sh", "-c", "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$@\"", "sh"}, fd};
}

// A raw HTTP request: connected and written now, its answer read later.
class pending_request {
public:
    explicit pending_request(unsigned short port)
    {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(fd_ >= 0);
        sockaddr_in a = loopback(port);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        const std::string request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        if (connected_) connected_ = ::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) == ssize_t(request.size());
    }
    ~pending_request() { ::close(fd_); }
    pending_request(const pending_request&) = delete;
    pending_request& operator=(const pending_request&) = delete;
    bool connected() const { return connected_; }

    // Everything until the server closes, or the deadline.
    std::string answer(steady::time_point deadline)
    {
        std::string text;
        for (;;) {
            const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now()).count();
            pollfd p{fd_, POLLIN, 0};
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) return text;
            char chunk[1024];
            const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
            if (n <= 0) return text;
            text.append(chunk, static_cast<std::size_t>(n));
        }
    }

private:
    int fd_ = -1;
    bool connected_ = false;
};

unsigned short free_port()
{
    held_listener probe;
    return probe.port();
}

} // namespace

TEST_CASE("socket activation: the server serves the socket it is handed, and the next one on it refuses nobody")
{
    held_listener socket;
    {
        server_process first{{}, {}, activated(socket.fd())};
        CHECK(first.port() == socket.port());
        CHECK(first.log().find("socket from systemd") != std::string::npos);
        player p = connect_player(first, "Ann");
        p->send({{"type", "ping"}});
        CHECK(must(p->next(), "pong")["type"] == "pong");
        ::kill(first.pid(), SIGTERM);
        REQUIRE(p->wait_closed());
        CHECK(p->close_code() == std::optional<std::uint16_t>{1012});
        const auto status = first.wait_exit();
        REQUIRE(status.has_value());
        CHECK(WIFEXITED(*status));
        CHECK(WEXITSTATUS(*status) == 0);
    }
    // No server runs now, yet the socket still takes connections (into its backlog)...
    pending_request early{socket.port()};
    REQUIRE(early.connected());
    // ...and the next server answers them.
    server_process second{{}, {}, activated(socket.fd())};
    const std::string answer = early.answer(in(milliseconds{10000}));
    CHECK(answer.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(answer.find("\r\n\r\nok") != std::string::npos);
}

TEST_CASE("socket activation: variables meant for another process are ignored")
{
    held_listener socket;
    server_process server{{}, {"LISTEN_PID=1", "LISTEN_FDS=1"}, {{}, socket.fd()}};
    CHECK(server.port() != socket.port()); // it bound its own (--port 0)
    CHECK(http_get(server.port(), "/healthz").status == 200);
}

TEST_CASE("socket activation: a handed-over fd that is not a listening socket is refused at start")
{
    std::string failure;
    try {
        server_process server{{}, {}, activated(-1)}; // LISTEN_FDS=1 but nothing at fd 3
    } catch (const std::exception& e) {
        failure = e.what();
    }
    CHECK(failure.find("socket activation: fd 3 is not a listening stream socket") != std::string::npos);
}

TEST_CASE("socket activation: under Debian's systemd-socket-activate")
{
    const std::string tool = "/usr/bin/systemd-socket-activate"; // deploy/deps.sh installs systemd
    REQUIRE_MESSAGE(std::filesystem::exists(tool), tool << " is missing: run deploy/deps.sh");
    const unsigned short port = free_port();
    // It listens first and starts the server on the first connection: make that connection.
    std::string answer;
    std::thread visitor{[&] {
        const auto deadline = in(milliseconds{15000});
        while (steady::now() < deadline) {
            pending_request r{port};
            if (r.connected()) {
                answer = r.answer(deadline);
                return;
            }
            std::this_thread::sleep_for(milliseconds{20}); // the tool has not bound the port yet
        }
    }};
    std::optional<server_process> server;
    try {
        // The tool hands the server none of this process's environment (QUARTO_WEB_ROOT, say):
        // what the server needs comes as flags.
        server.emplace(std::vector<std::string>{"--web-root", QUARTO_WEB_ROOT}, std::vector<std::string>{},
                       launch_options{{tool, "-l", "127.0.0.1:" + std::to_string(port)}, -1});
    } catch (...) {
        visitor.join();
        throw;
    }
    visitor.join();
    CHECK(server->port() == port);
    CHECK(answer.rfind("HTTP/1.1 200", 0) == 0);
    const auto status = server->stop(); // the tool execs the server: this pid is the server
    REQUIRE(status.has_value());
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 0);
}
