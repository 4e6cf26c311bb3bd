// One connection to Redis, driven by an event loop of the server's own (net::event_loop): hiredis
// speaks the protocol, the loop tells it when its socket is ready. Commands are pipelined; each
// gets its reply, or an error reply when the connection goes first. A lost connection is made
// again (after 100 ms, doubling to 2 s), and a connection whose replies stop coming for
// `stall_limit` is dropped and made again: a Redis that hangs looks like one that is gone.
//
// For SUBSCRIBE, use a connection of its own (Redis allows nothing else on it): its channels
// are subscribed again on every reconnection.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/redis_reply.hpp"
#include "config/redis_address.hpp"
#include "net/event_loop.hpp"

struct redisAsyncContext;

namespace quarto::server::cluster {

class redis_connection final : public net::event_loop::handler {
public:
    using reply_handler = std::function<void(const redis_reply&)>;
    using message_handler = std::function<void(std::string_view payload)>;
    // Told on the loop's thread whenever the connection comes up (true) or goes (false, why).
    using state_handler = std::function<void(bool up, const std::string& why)>;

    static constexpr std::chrono::milliseconds connect_timeout{2000};
    static constexpr std::chrono::milliseconds stall_limit{3000};

    // `name` tells this connection apart in the logs ("node a: commands").
    redis_connection(net::event_loop& loop, redis_address where, std::string name, state_handler on_state = {});
    ~redis_connection();
    redis_connection(const redis_connection&) = delete;
    redis_connection& operator=(const redis_connection&) = delete;

    // Starts connecting (and reconnecting, until close()).
    void open();
    void close();
    bool up() const { return up_; }

    // Sends a command; `done` is called with its reply. False (and `done` never called) when the
    // connection is not up.
    bool command(std::initializer_list<std::string_view> args, reply_handler done)
    {
        return command(std::span<const std::string_view>{args.begin(), args.size()}, std::move(done));
    }
    bool command(const std::vector<std::string>& args, reply_handler done);
    bool command(std::span<const std::string_view> args, reply_handler done);

    // Messages on `channel` go to `on_message` from now on, across reconnections.
    void subscribe(const std::string& channel, message_handler on_message);

    // net::event_loop::handler
    void on_ready(std::uint32_t ready) override;

private:
    static void on_connect(const redisAsyncContext* c, int status);
    static void on_disconnect(const redisAsyncContext* c, int status);
    static void on_reply(redisAsyncContext* c, void* reply, void* privdata);
    static void on_message(redisAsyncContext* c, void* reply, void* privdata);
    static void add_read(void* self);
    static void del_read(void* self);
    static void add_write(void* self);
    static void del_write(void* self);
    static void cleanup(void* self);

    bool send(int argc, const char** argv, const std::size_t* lengths, reply_handler done);
    void send_subscribe(const std::string& channel);
    void connect_now();
    void interest_changed();
    // The context is gone (freed by hiredis, or by us): forget it, say so, try again later.
    void lost(const std::string& why);
    void check_stall();
    void drop(const std::string& why);

    net::event_loop& loop_;
    const redis_address where_;
    const std::string name_;
    state_handler on_state_;
    redisAsyncContext* context_ = nullptr;
    int fd_ = -1;
    bool registered_ = false, reading_ = false, writing_ = false;
    bool up_ = false;
    bool going_ = false; // hiredis is failing the pending commands: the context is being freed
    bool open_ = false; // between open() and close()
    bool queueing_setup_ = false; // connect_now() queues AUTH and SELECT before the connection is up
    std::chrono::milliseconds backoff_{100};
    std::chrono::steady_clock::time_point connect_started_;
    // Commands sent and not yet answered, and when the oldest of them (or the last reply) was:
    // the stall check's measure.
    std::size_t outstanding_ = 0;
    std::chrono::steady_clock::time_point last_progress_;
    net::timer_queue::id retry_timer_;
    net::timer_queue::id watchdog_timer_;
    std::map<std::string, message_handler, std::less<>> channels_;
    std::string last_failure_; // logged once, not at every retry
};

} // namespace quarto::server::cluster
