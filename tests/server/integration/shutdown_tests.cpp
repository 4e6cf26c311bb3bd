// Graceful shutdown: SIGTERM stops accepting at once, tells every client 1012 with a reason,
// lets queued writes drain for at most --shutdown-grace, and exits 0.
#include <csignal>
#include <optional>
#include <sys/wait.h>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

// Exit status 0, reported by waitpid.
bool exited_cleanly(const std::optional<int>& status)
{
    return status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0;
}

// Fills `client`'s receive window and the server's send buffer for it: 100 public rooms, then
// 400 copies of their list (about 10 MB), none of it read. Stays under the 1024 queued
// messages that would get the client closed for not reading.
void flood_unread(silent_client& client)
{
    REQUIRE(client.send({{"type", "hello"}, {"name", "Stuck"}}));
    for (int i = 0; i < 100; ++i)
        REQUIRE(client.send({{"type", "create_room"}, {"name", "Room number " + std::to_string(i) + " of the flood"}}));
    for (int i = 0; i < 400; ++i) REQUIRE(client.send({{"type", "list_rooms"}}));
}

} // namespace

TEST_CASE("shutdown: every client gets 1012 'server restarting', exit 0 as soon as all have closed")
{
    server_process server{{"--shutdown-grace", "30"}};
    player ann = connect_player(server, "Ann");
    player bob = connect_player(server, "Bob");
    const auto signalled = steady::now();
    ::kill(server.pid(), SIGTERM);

    for (player* p : {&ann, &bob}) {
        REQUIRE((*p)->wait_closed(in(milliseconds{3000})));
        CHECK((*p)->close_code() == std::optional<std::uint16_t>{1012});
        CHECK((*p)->close_reason() == "server restarting");
    }
    // Healthy clients close at once: the 30 s grace is a bound, not a wait.
    const std::optional<int> status = server.wait_exit(milliseconds{10000});
    CHECK(exited_cleanly(status));
    CHECK(steady::now() - signalled < milliseconds{10000});
    CHECK(server.log().find("did not close") == std::string::npos);
}

TEST_CASE("shutdown: a client that does not read is dropped after --shutdown-grace, the others get 1012 at once")
{
    // What matters is that the stuck client holds the exit up for the grace period and no
    // longer, and that the others do not wait for it. That Ann did not wait is told by the
    // server itself, whatever the machine's speed: only 1 of the 2 connections was still open
    // when the grace period ended. The waits are deadlines (sanitizer builds on a busy machine).
    server_process server{{"--shutdown-grace", "3", "--rate-limit", "100000", "--rate-burst", "100000"}};
    silent_client stuck{server.port()};
    flood_unread(stuck);
    player ann = connect_player(server, "Ann"); // also proves the flood has been read by the server
    ann->send({{"type", "ping"}, {"req", "p"}});
    REQUIRE(ann->wait_type("pong"));

    const auto signalled = steady::now();
    ::kill(server.pid(), SIGTERM);
    REQUIRE(ann->wait_closed());
    CHECK(ann->close_code() == std::optional<std::uint16_t>{1012});
    INFO(server.log());
    REQUIRE(server.wait_log("closing 2 connections", in(default_wait)));
    CHECK_FALSE(tcp_connects(server.port())); // no longer accepting

    const std::optional<int> status = server.wait_exit(milliseconds{15000});
    const auto took = steady::now() - signalled;
    INFO(server.log());
    CHECK(exited_cleanly(status));
    CHECK(took >= milliseconds{2900});  // it did wait for the stuck client...
    CHECK(took < milliseconds{12000}); // ...but not for ever
    CHECK(server.log().find("1 connections did not close within the grace period") != std::string::npos);
}

TEST_CASE("shutdown: --shutdown-grace 0 exits at once even with a client that does not read")
{
    server_process server{{"--shutdown-grace", "0", "--rate-limit", "100000", "--rate-burst", "100000"}};
    silent_client stuck{server.port()};
    flood_unread(stuck);
    REQUIRE(http_get(server.port(), "/healthz").status == 200);
    const auto signalled = steady::now();
    ::kill(server.pid(), SIGTERM);
    const std::optional<int> status = server.wait_exit(milliseconds{10000});
    CHECK(exited_cleanly(status)); // rather than waiting for the client that never reads
    CHECK(steady::now() - signalled < milliseconds{10000});
}

TEST_CASE("shutdown: no WebSocket starts during the grace period, not even on a kept-alive HTTP connection")
{
    // A grace period long enough for the checks below on any machine; the stuck client ends
    // it early by going away, after them.
    server_process server{{"--shutdown-grace", "60", "--rate-limit", "100000", "--rate-burst", "100000"}};
    std::optional<silent_client> stuck{std::in_place, server.port()}; // keeps the server in its grace period
    flood_unread(*stuck);
    http_connection kept{server.port()};
    REQUIRE(kept.get("/healthz").status == 200);

    ::kill(server.pid(), SIGTERM);
    REQUIRE(server.wait_log("closing", in(default_wait)));
    CHECK_THROWS(ws_client{server.port()}); // the listener is closed
    const http_response refused = kept.get("/ws", websocket_upgrade());
    CHECK(refused.status == 503);
    CHECK(refused.body.find("shutting down") != std::string::npos);
    CHECK(server.log().find("did not close within the grace period") == std::string::npos); // still in it
    stuck.reset(); // its connection gone, nothing is left to wait for
    CHECK(exited_cleanly(server.wait_exit(milliseconds{20000})));
}

TEST_CASE("shutdown: SIGHUP (a closed terminal) stops the server as cleanly as SIGTERM")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    ::kill(server.pid(), SIGHUP);
    REQUIRE(ann->wait_closed(in(milliseconds{3000})));
    CHECK(ann->close_code() == std::optional<std::uint16_t>{1012});
    CHECK(exited_cleanly(server.wait_exit(milliseconds{10000})));
    CHECK(server.log().find("signal 1: shutting down") != std::string::npos);
}

TEST_CASE("shutdown: a node still waiting for its lease (Redis out of reach) stops on SIGTERM")
{
    // Nothing listens on port 1 of the loopback: the node waits for Redis until it is stopped.
    // The shell sends the signal a second into the wait and reports the server's exit status.
    const std::vector<std::string> signal_after_a_second{"/bin/sh", "-c", "\"$@\" & p=$!; sleep 1; kill -TERM $p; wait $p",
                                                        "sh"};
    const auto [status, output] = run_to_exit({"--host", "127.0.0.1", "--port", "0", "--redis", "redis://127.0.0.1:1",
                                               "--node-id", "waiting", "--log-level", "info"},
                                              {}, milliseconds{8000}, signal_after_a_second);
    CHECK_MESSAGE(exited_cleanly(status), output);
    CHECK_MESSAGE(output.find("waiting for its lease") != std::string::npos, output);
    CHECK_MESSAGE(output.find("stopped while waiting for the lease") != std::string::npos, output);
    CHECK_MESSAGE(output.find("listening on") == std::string::npos, output);
}
