// What the kernel alone charges for the messages of one move on this machine: a move costs the
// server one receive (the action) and two sends (the event to both players), and on loopback a
// send also pays for the TCP receive processing of the peer. No WebSocket framing, no JSON, no
// event loop: this is the floor under quarto-server's CPU per move.
//
//   loopback_floor [--pairs N] [--messages M] [--bytes B]
//
// Opens N connected TCP pairs on 127.0.0.1, then in rounds: send B bytes on one end of every
// pair (timed), then read them at the other ends (timed separately). CPU time is the thread's own
// (CLOCK_THREAD_CPUTIME_ID), so other load on the machine does not inflate it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

[[noreturn]] void fail(const char* what)
{
    std::perror(what);
    std::exit(1);
}

double thread_cpu_ns()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

std::vector<std::pair<int, int>> connected_pairs(int count)
{
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) fail("socket");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) fail("bind");
    socklen_t length = sizeof address;
    getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
    if (listen(listener, 1024) != 0) fail("listen");

    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < count; ++i) {
        const int client = socket(AF_INET, SOCK_STREAM, 0);
        if (client < 0 || connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) fail("connect");
        const int server = accept(listener, nullptr, nullptr);
        if (server < 0) fail("accept");
        const int one = 1; // as Asio and the load generator do: no Nagle delay on small messages
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pairs.emplace_back(client, server);
    }
    close(listener);
    return pairs;
}

int int_option(int argc, char** argv, std::string_view name, int fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == name) return std::atoi(argv[i + 1]);
    return fallback;
}

} // namespace

int main(int argc, char** argv)
{
    const int pair_count = int_option(argc, argv, "--pairs", 1000);
    const int messages = int_option(argc, argv, "--messages", 200000);
    const int bytes = int_option(argc, argv, "--bytes", 150); // a typical `placed` event
    const auto pairs = connected_pairs(pair_count);
    std::vector<char> payload(static_cast<std::size_t>(bytes), 'x');
    std::vector<char> received(static_cast<std::size_t>(bytes));

    // Sends to every pair, then receives from every pair: the clock is read twice per round,
    // not per message (in a VM, reading the thread's CPU clock is itself a system call).
    double send_ns = 0;
    double receive_ns = 0;
    const int rounds = std::max(1, messages / pair_count);
    for (int round = 0; round < rounds; ++round) {
        const double t0 = thread_cpu_ns();
        for (const auto& [from, to] : pairs)
            if (send(from, payload.data(), payload.size(), 0) != bytes) fail("send");
        const double t1 = thread_cpu_ns();
        for (const auto& [from, to] : pairs) {
            std::size_t got = 0;
            while (got < received.size()) {
                const auto n = recv(to, received.data() + got, received.size() - got, 0);
                if (n <= 0) fail("recv");
                got += static_cast<std::size_t>(n);
            }
        }
        const double t2 = thread_cpu_ns();
        send_ns += t1 - t0;
        receive_ns += t2 - t1;
    }
    const double sent = static_cast<double>(rounds) * pair_count;
    const double send_us = send_ns / sent / 1000;
    const double receive_us = receive_ns / sent / 1000;
    std::printf("loopback TCP, %d pairs, %.0f messages of %d bytes, thread CPU time\n", pair_count, sent, bytes);
    std::printf("  send (incl. the peer's TCP receive processing)  %.2f us\n", send_us);
    std::printf("  receive                                         %.2f us\n", receive_us);
    std::printf("  one move's floor (1 receive + 2 sends)          %.2f us\n", receive_us + 2 * send_us);
    std::printf("  with 2 spectators (1 receive + 4 sends)         %.2f us\n", receive_us + 4 * send_us);
    for (const auto& [a, b] : pairs) {
        close(a);
        close(b);
    }
}
