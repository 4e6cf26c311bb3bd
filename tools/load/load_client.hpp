// The load generator's network side: one io_context per worker thread, each owning its rooms and
// their connections (a room's 2 bots and its spectators live on one worker, so a room needs
// no locking), plus the connections themselves.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bot_player.hpp"
#include "load_stats.hpp"
#include "message_scan.hpp"
#include "net.hpp"
#include "stamped_socket.hpp"

namespace quarto::load {

struct client_settings {
    tcp::endpoint server;
    std::string host_header; // "127.0.0.1:PORT"
    std::string path = "/ws";
    std::chrono::milliseconds think{0};
    // Each think time drawn uniformly from think ± think_jitter: people do not all take the
    // same time, and a fixed time keeps the replies to one broadcast arriving together.
    std::chrono::milliseconds think_jitter{0};
    std::optional<int> move_ms = 60'000; // the rooms' move clock; nullopt: untimed
    bool idle = false; // hold the rooms without playing
    // Connections that close or break once the run is on connect again and resume by token
    // (for runs through restarts: bench/rolling.sh); each gives up after resume_timeout.
    bool resume = false;
    std::chrono::milliseconds resume_timeout{30'000};
    std::uint64_t seed = 1;
};

class connection;
class worker;

// A room as its connections on one worker see it.
struct room_state {
    int index = 0;
    std::string id; // empty until room_created
    std::vector<std::shared_ptr<connection>> waiting_for_id; // said hello, wait to join
    bool game_counted = false; // game_started is received by every connection: count once
    // When each seat sent its gives and places not yet seen by the opponent, oldest first
    // (a bot may have sent its give before the opponent read its place).
    struct pending {
        std::array<std::chrono::steady_clock::time_point, 8> sent{};
        std::size_t head = 0, size = 0;
        void push(std::chrono::steady_clock::time_point t);
        std::optional<std::chrono::steady_clock::time_point> pop();
        void clear() { head = size = 0; }
    };
    std::array<pending, 2> in_flight;
};

class worker {
public:
    worker(const client_settings& settings, std::atomic<int>& ready);

    net::io_context& context() { return ioc_; }
    const client_settings& settings() const { return settings_; }

    // On the worker's thread (post these):
    room_state& add_room(int index);
    void launch(room_state& room, int role, int number, std::optional<net::ip::address> source);
    // The bots hold their first move until every room is set up: a saturated server would
    // otherwise starve the handshakes of the rooms still connecting.
    void start_play();
    bool may_play() const { return may_play_; }
    // Bots still waiting for their room after a reconnection: counted as rooms_not_back.
    void count_rooms_away();
    void start_window(); // reset the window counters and start counting
    void stop_window();  // stop counting (the totals go on)
    load_stats window() const { return window_; }
    load_stats totals() const { return all_; }

    // Counters: every change goes to the totals and, while measuring, to the window.
    template <class F>
    void count(F&& change)
    {
        change(all_);
        if (measuring_) change(window_);
    }
    bool measuring() const { return measuring_; }
    void mark_ready() { ready_.fetch_add(1, std::memory_order_relaxed); }
    std::uint64_t next_seed() { return settings_.seed * 1'000'003u + seeds_++; }

    void run();
    void stop();

private:
    net::io_context ioc_{1};
    net::executor_work_guard<net::io_context::executor_type> guard_;
    const client_settings& settings_;
    std::atomic<int>& ready_;
    std::deque<room_state> rooms_; // stable addresses
    std::vector<std::shared_ptr<connection>> bots_; // to start them
    bool may_play_ = false;
    load_stats all_;
    load_stats window_;
    bool measuring_ = false;
    std::uint64_t seeds_ = 0;
};

class connection : public std::enable_shared_from_this<connection> {
public:
    enum class role : std::uint8_t { creator, joiner, spectator };

    connection(worker& w, room_state& room, role r, int number);
    void start(std::optional<net::ip::address> source);
    void join_room(); // the room's id is known
    void start_play() { act(); }
    bool awaiting_room() const { return awaiting_room_; }

private:
    // The worker's io_context executor as a concrete type (not any_io_executor): each worker
    // runs on one thread, and type erasure showed up in the profile.
    using ws_stream = websocket::stream<stamped_socket>;
    // Each connection attempt has a stream of its own; the handlers of an earlier one hold it
    // until they have run, and do nothing once it is no longer the current one.
    using stream_ptr = std::shared_ptr<ws_stream>;

    void open(); // a new stream, connecting
    void on_connect(const stream_ptr& ws, const beast::error_code& ec);
    void on_handshake(const stream_ptr& ws, const beast::error_code& ec);
    void do_read();
    void on_read(const beast::error_code& ec, std::size_t bytes);
    void send(std::string message);
    void do_write();
    void on_write(const beast::error_code& ec, std::size_t bytes);
    void fail(const beast::error_code& ec, const char* what);
    void reconnect_later();
    std::string name() const; // in its hello: a1, b1, s1 (creator, joiner, spectator of room 1)
    void restore_from(const server_message& snapshot);

    void handle(const server_message& m);
    void on_game_event(const server_message& m);
    void act();      // send the bot's next action, after the think time
    void act_now();

    worker& worker_;
    room_state& room_;
    role role_;
    int number_;
    stream_ptr ws_;
    std::optional<net::ip::address> source_;
    beast::flat_buffer buffer_;
    std::deque<std::string> outbox_; // the front is being written
    std::vector<std::string> retired_; // the front of the outbox when its connection broke
    std::optional<bot_player> bot_;
    std::optional<net::steady_timer> think_timer_; // only with a think time: delays each action
    std::minstd_rand think_random_;                // draws the think times with a jitter
    bool action_in_flight_ = false; // sent, its event (or error) not yet back
    bool ready_ = false;  // set up (or failed trying)
    bool failed_ = false; // the connection broke; counted once
    std::int64_t last_seq_ = -1;
    std::string last_sent_; // the last action, to describe an error
    int req_ = 0;           // the number the last action carries as its req
    // --resume
    std::string token_;              // from the first welcome
    bool reconnecting_ = false;      // between a break and the next welcome
    bool awaiting_room_ = false;     // a bot between a break and its room's snapshot
    bool replayed_ = false;          // re-played from a snapshot since its last own event
    int attempts_ = 0;
    std::chrono::steady_clock::time_point broke_at_, give_up_at_;
    std::optional<net::steady_timer> retry_timer_;
    std::optional<net::steady_timer> resend_timer_; // an action answered `unavailable`
    std::optional<net::steady_timer> connect_timer_; // gives a connection attempt up
};

} // namespace quarto::load
