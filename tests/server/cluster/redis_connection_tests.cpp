#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include "cluster/redis_connection.hpp"
#include "loop_thread.hpp"
#include "redis_server.hpp"

using namespace std::chrono_literals;
using quarto::server::parse_redis_address;
using quarto::server::redis_address;
using quarto::server::cluster::redis_connection;
using quarto::server::cluster::redis_reply;

namespace {

redis_address address_of(const test_redis::redis_server& server)
{
    return std::get<redis_address>(parse_redis_address(server.address()));
}

// A connection on a loop thread, with what it has been told of its state.
struct connected {
    explicit connected(const test_redis::redis_server& server, std::string name = "test")
    {
        thread.call([&] {
            connection = std::make_unique<redis_connection>(thread.loop(), address_of(server), name,
                                                            [this](bool up, const std::string& why) {
                                                                (up ? ups : downs).fetch_add(1);
                                                                if (!up) last_why = why;
                                                            });
            connection->open();
        });
    }
    ~connected()
    {
        thread.call([&] { connection.reset(); });
    }

    bool wait_up(std::chrono::milliseconds limit = 5s)
    {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < deadline) {
            if (thread.call([&] { return connection->up(); })) return true;
            std::this_thread::sleep_for(10ms);
        }
        return false;
    }

    // Sends a command and waits for its reply; nullopt when it could not be sent.
    std::optional<redis_reply> run(std::vector<std::string> args, std::chrono::milliseconds limit = 10s)
    {
        auto promise = std::make_shared<std::promise<redis_reply>>();
        auto reply = promise->get_future();
        const bool sent = thread.call([&] { return connection->command(args, [promise](const redis_reply& r) { promise->set_value(r); }); });
        if (!sent) return std::nullopt;
        REQUIRE(reply.wait_for(limit) == std::future_status::ready);
        return reply.get();
    }

    cluster_test::loop_thread thread;
    std::unique_ptr<redis_connection> connection;
    std::atomic<int> ups{0}, downs{0};
    std::string last_why; // written on the loop thread, read after a wait on it
};

} // namespace

TEST_CASE("commands and their replies, in order, every kind of reply")
{
    test_redis::redis_server server;
    connected c{server};
    REQUIRE(c.wait_up());
    CHECK(c.ups == 1);

    const auto pong = c.run({"PING"});
    REQUIRE(pong);
    CHECK(pong->type == redis_reply::kind::status);
    CHECK(pong->text == "PONG");

    // A value with every byte, a NUL among them, comes back whole.
    std::string binary;
    for (int i = 0; i < 256; ++i) binary += static_cast<char>(i);
    CHECK(c.run({"SET", "k", binary})->text == "OK");
    const auto got = c.run({"GET", "k"});
    CHECK(got->type == redis_reply::kind::text);
    CHECK(got->text == binary);

    CHECK(c.run({"GET", "missing"})->type == redis_reply::kind::nil);
    CHECK(c.run({"INCRBY", "n", "41"})->integer == 41);
    const auto list = c.run({"EVAL", "return {1, 'two', {3}}", "0"});
    REQUIRE(list->type == redis_reply::kind::array);
    REQUIRE(list->elements.size() == 3);
    CHECK(list->elements[0].integer == 1);
    CHECK(list->elements[1].text == "two");
    CHECK(list->elements[2].elements.at(0).integer == 3);
    const auto error = c.run({"NOSUCHCOMMAND"});
    CHECK(error->is_error());
    CHECK(error->text.find("unknown command") != std::string::npos);

    // Pipelined: many at once, each reply to its own command.
    std::vector<std::future<redis_reply>> replies;
    c.thread.call([&] {
        for (int i = 0; i < 200; ++i) {
            auto p = std::make_shared<std::promise<redis_reply>>();
            replies.push_back(p->get_future());
            c.connection->command({"INCR", "counter"}, [p](const redis_reply& r) { p->set_value(r); });
        }
    });
    for (int i = 0; i < 200; ++i) CHECK(replies[static_cast<std::size_t>(i)].get().integer == i + 1);
}

TEST_CASE("a Redis that restarts: the pending command fails, nothing is sent while down, the connection comes back")
{
    test_redis::redis_server server;
    connected c{server};
    REQUIRE(c.wait_up());
    CHECK(c.run({"SET", "before", "1"})->text == "OK");

    // A command that is still waiting when Redis goes gets a failure, not silence.
    auto promise = std::make_shared<std::promise<redis_reply>>();
    auto pending = promise->get_future();
    c.thread.call([&] { return c.connection->command({"BLPOP", "nothing", "0"}, [promise](const redis_reply& r) { promise->set_value(r); }); });
    server.stop();
    REQUIRE(pending.wait_for(5s) == std::future_status::ready);
    CHECK(pending.get().is_error());

    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (c.downs == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
    CHECK(c.downs == 1);
    CHECK_FALSE(c.run({"PING"})); // refused at once while down

    server.start();
    REQUIRE(c.wait_up(10s));
    CHECK(c.ups == 2);
    CHECK(c.run({"PING"})->text == "PONG");
    CHECK(c.run({"GET", "before"})->type == redis_reply::kind::nil); // a restart without persistence
}

TEST_CASE("subscriptions get every message, and are made again after a reconnection")
{
    test_redis::redis_server server;
    connected subscriber{server, "subscriber"};
    connected publisher{server, "publisher"};
    REQUIRE(subscriber.wait_up());
    REQUIRE(publisher.wait_up());

    std::mutex mutex;
    std::vector<std::string> received;
    subscriber.thread.call([&] {
        subscriber.connection->subscribe("quarto:test", [&](std::string_view payload) {
            std::lock_guard lock{mutex};
            received.emplace_back(payload);
        });
    });
    const auto wait_for = [&](std::size_t count) {
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (std::chrono::steady_clock::now() < deadline) {
            {
                std::lock_guard lock{mutex};
                if (received.size() >= count) return true;
            }
            std::this_thread::sleep_for(10ms);
        }
        return false;
    };
    // PUBLISH says how many got it: wait until the subscription is in place.
    const auto publish_until_heard = [&](const std::string& payload) {
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (std::chrono::steady_clock::now() < deadline) {
            if (publisher.wait_up()) {
                const auto r = publisher.run({"PUBLISH", "quarto:test", payload});
                if (r && r->integer == 1) return true;
            }
            std::this_thread::sleep_for(20ms);
        }
        return false;
    };
    REQUIRE(publish_until_heard("one"));
    CHECK(publisher.run({"PUBLISH", "quarto:test", "two"})->integer == 1);
    CHECK(publisher.run({"PUBLISH", "elsewhere", "not for us"})->integer == 0);
    REQUIRE(wait_for(2));

    server.restart();
    REQUIRE(publish_until_heard("three"));
    REQUIRE(wait_for(3));
    std::lock_guard lock{mutex};
    CHECK(received == std::vector<std::string>{"one", "two", "three"});
}

TEST_CASE("a Redis that hangs is given up after the stall limit, and found again when it answers")
{
    test_redis::redis_server server;
    connected c{server};
    REQUIRE(c.wait_up());

    server.pause();
    const auto paused_at = std::chrono::steady_clock::now();
    auto promise = std::make_shared<std::promise<redis_reply>>();
    auto pending = promise->get_future();
    REQUIRE(c.thread.call([&] { return c.connection->command({"PING"}, [promise](const redis_reply& r) { promise->set_value(r); }); }));
    REQUIRE(pending.wait_for(10s) == std::future_status::ready);
    const auto waited = std::chrono::steady_clock::now() - paused_at;
    CHECK(pending.get().is_error());
    CHECK(waited >= redis_connection::stall_limit);
    CHECK(waited < redis_connection::stall_limit + 2s);
    // The pending command hears of it first, then whoever watches the connection.
    for (const auto deadline = std::chrono::steady_clock::now() + 5s; c.downs == 0 && std::chrono::steady_clock::now() < deadline;)
        std::this_thread::sleep_for(10ms);
    CHECK(c.downs == 1);
    CHECK(c.thread.call([&] { return c.last_why; }) == "no reply for 3 s");

    server.resume();
    REQUIRE(c.wait_up(10s));
    CHECK(c.run({"PING"})->text == "PONG");
}

TEST_CASE("no Redis at the address: the connection keeps trying, quietly, and comes up once there is one")
{
    test_redis::redis_server server;
    server.stop();
    connected c{server};
    std::this_thread::sleep_for(500ms);
    CHECK_FALSE(c.thread.call([&] { return c.connection->up(); }));
    CHECK(c.ups == 0);
    server.start();
    CHECK(c.wait_up(10s));
}
