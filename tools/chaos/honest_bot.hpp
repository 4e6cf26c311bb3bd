// An honest player: it plays random legal games with a think time, calls every Quarto it makes,
// asks for a rematch after each game, and checks every event the server sends it against its
// own copy of the game (quarto-load's bot_player): seq one more than the last, the move fits,
// the clocks say what it measured, and the game ends the way the rules say. Now and then it lets
// its clock run out on purpose, to check that the server's timer ends the game on time.
#pragma once

#include <memory>
#include <optional>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "bot_player.hpp"
#include "honest_stats.hpp"
#include "ws_client.hpp"

namespace quarto::chaos {

struct honest_settings {
    endpoint_settings from;
    clock_type::time_point t0 = clock_type::now(); // the run's start, for the times in the report
    int move_ms = 5000;
    int claim_ms = 3000;
    int think_min_ms = 100;
    int think_max_ms = 700;
    double stall_chance = 0.05;       // per game, a player lets its clock run out
    double clock_tolerance_ms = 1500; // how far the server's clock may be from what we measured
};

// A game_over as one player read it: the two players' readings must agree.
struct game_end {
    std::string game_id;
    std::string reason;
    int winner = -1; // -1: a draw
};

class honest_bot final : private ws_client::listener {
public:
    // What a player tells its room.
    class room_link {
    public:
        virtual void welcomed(honest_bot& b) = 0;
        virtual void room_known(const std::string& id) = 0;
        virtual void game_started(honest_bot& b) = 0;
        virtual void game_ended(honest_bot& b, const game_end& e) = 0;
        virtual int staller() const = 0; // the seat letting its clock run out this game, or -1
        virtual void set_staller(int seat) = 0;

    protected:
        ~room_link() = default;
    };

    honest_bot(net::io_context& io, const honest_settings& settings, honest_stats& stats, room_link& room,
               std::string name, std::mt19937_64& random);
    ~honest_bot();

    void connect();
    void create_room(std::string_view name);
    void join(const std::string& room);
    void stop_after_this_game() { stopping_ = true; }
    void close();

    const std::string& name() const { return name_; }
    bool in_game() const { return in_game_; }
    bool connected() const { return conn_ && !conn_->ended(); }
    clock_type::time_point last_event() const { return last_event_; }

private:
    void on_open(ws_client&) override {}
    void on_message(ws_client& c, ws_client::message_kind kind, std::string_view payload) override;
    void on_end(ws_client& c, const ws_client::ending& e) override;

    void event(const nlohmann::json& j, std::string_view type, clock_type::time_point now);
    void on_game_started(const nlohmann::json& j, clock_type::time_point now);
    void on_move(const nlohmann::json& j, std::string_view type, clock_type::time_point now);
    void on_game_over(const nlohmann::json& j, clock_type::time_point now);
    void check_clock(const nlohmann::json& j, std::string_view type, int by, clock_type::time_point now);
    void maybe_act();
    void act();
    void send(const std::string& text);
    void anomaly(const std::string& kind, const std::string& detail);
    // A ping a second: its round trip touches no room, so a slow pong with on-time honest loop
    // means the server's loop (or the machine) was late, and slow events with fast pongs mean
    // the events were held (the journal holds each until its commit).
    void ping();
    double since_start(clock_type::time_point t) const;

    net::io_context& io_;
    const honest_settings& settings_;
    honest_stats& stats_;
    room_link& room_;
    std::string name_;
    std::mt19937_64& random_;
    std::shared_ptr<ws_client> conn_;
    net::steady_timer think_;
    std::uint64_t think_generation_ = 0;
    net::steady_timer ping_timer_;
    std::uint64_t ping_sent_number_ = 0;
    clock_type::time_point ping_sent_at_{};
    bool ping_out_ = false;

    std::string player_id_;
    std::string room_id_;
    int seat_ = -1;
    std::int64_t last_seq_ = -1;
    clock_type::time_point last_event_ = clock_type::now();

    std::optional<load::bot_player> bot_;
    bool in_game_ = false;
    bool awaiting_ = false; // our action is out, its event not back yet
    bool thinking_ = false;
    bool stopping_ = false;
    bool closing_ = false;
    int actions_ = 0;  // this game
    int stall_at_ = -1; // the action at which we let the clock run (-1: none this game)
    std::uint16_t expected_line_ = 0; // the Quarto we called
    std::array<clock_type::time_point, 2> move_start_{}; // when each seat's move began, as we saw it
};

} // namespace quarto::chaos
