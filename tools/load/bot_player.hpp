// A bot's copy of the game, kept with quarto::core from the server's events (never from its own
// guesses), and its choice of the next action: a Quarto whenever its own placement makes one
// (and any claim the rules offer), otherwise a uniformly random legal action.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "quarto/core/game.hpp"
#include "snapshot_game.hpp"

namespace quarto::load {

class bot_player {
public:
    bot_player(seat me, std::uint64_t seed);

    seat me() const { return me_; }
    bool playing() const { return game_.has_value() && !game_->finished(); }
    const game* current() const { return game_ ? &*game_ : nullptr; }

    // Server events. Each returns false when the event does not fit this bot's copy of the
    // game (a desynchronisation: the caller counts it and resigns).
    void on_game_started(seat first);
    bool on_given(seat by, std::uint8_t piece_code);
    bool on_placed(seat by, std::uint8_t square_index);
    bool on_passed(seat by);
    void on_game_over();
    // The game as a room snapshot shows it (after a reconnection): false when its moves do not
    // make a legal game, which leaves the bot without one.
    bool restore(const snapshot_game& g);

    // What to send now: nothing unless a game is on and it is this bot's turn.
    std::optional<action> next_action();

private:
    // The bot's copy is untimed and never advances time: the server judges time.
    static constexpr instant model_time = at_ms(0);

    seat me_;
    std::mt19937_64 random_;
    std::optional<game> game_;
    action_list legal_;
};

} // namespace quarto::load
