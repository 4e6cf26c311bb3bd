// A room of two honest players: the creator makes a public room, the other joins, and they play
// game after game until the run winds down. The room checks that both players read each
// game's end the same way, and watches for a game that stops moving: with a move clock, the
// server must produce an event at least every move (a timeout if nothing else).
#pragma once

#include <functional>

#include "honest_bot.hpp"

namespace quarto::chaos {

class honest_room final : private honest_bot::room_link {
public:
    honest_room(net::io_context& io, const honest_settings& settings, honest_stats& stats, int index,
                std::mt19937_64& random);

    void start();
    // No new game after the current one; then both players close.
    void wind_down();
    bool done() const; // wound down: no game in progress (or the players are gone)
    void close();
    const std::string& id() const { return id_; }

    std::function<void(const std::string&)> on_id; // both seats taken: the attackers may aim at it

private:
    void welcomed(honest_bot& b) override;
    void room_known(const std::string& id) override;
    void game_started(honest_bot& b) override;
    void game_ended(honest_bot& b, const game_end& e) override;
    int staller() const override { return staller_; }
    void set_staller(int seat) override { staller_ = seat; }
    void watch();
    double now_s() const; // seconds since the run began

    const honest_settings& settings_;
    honest_stats& stats_;
    int index_;
    net::steady_timer watchdog_;
    honest_bot creator_;
    honest_bot joiner_;
    std::string id_;
    int staller_ = -1;
    bool winding_down_ = false;
    bool announced_ = false;
    bool silence_reported_ = false;
    std::optional<game_end> ends_[2]; // this game's end as each player read it
    std::optional<clock_type::time_point> ended_at_;
};

} // namespace quarto::chaos
