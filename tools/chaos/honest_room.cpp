#include "honest_room.hpp"

namespace quarto::chaos {

honest_room::honest_room(net::io_context& io, const honest_settings& settings, honest_stats& stats, int index,
                         std::mt19937_64& random)
    : settings_{settings}, stats_{stats}, index_{index}, watchdog_{io},
      creator_{io, settings, stats, *this, "honest-a" + std::to_string(index), random},
      joiner_{io, settings, stats, *this, "honest-b" + std::to_string(index), random}
{
}

void honest_room::start()
{
    creator_.connect();
    watch();
}

void honest_room::welcomed(honest_bot& b)
{
    if (&b == &creator_) creator_.create_room("honest " + std::to_string(index_));
    else joiner_.join(id_);
}

void honest_room::room_known(const std::string& id)
{
    id_ = id;
    joiner_.connect();
}

void honest_room::game_started(honest_bot& b)
{
    if (&b != &creator_) return; // both see it: count once
    // Only now may the attackers aim at the room: before the second player sat down, a churner
    // joining "as player" would take the seat (seen in a run: room_full for our own player).
    if (!announced_ && on_id) on_id(id_);
    announced_ = true;
    ++stats_.games_started;
    staller_ = -1;
    ends_[0].reset();
    ends_[1].reset();
    ended_at_.reset();
    silence_reported_ = false;
}

void honest_room::game_ended(honest_bot& b, const game_end& e)
{
    ends_[&b == &creator_ ? 0 : 1] = e;
    if (!ends_[0] || !ends_[1]) return;
    const auto& a = *ends_[0];
    const auto& z = *ends_[1];
    if (a.game_id != z.game_id || a.reason != z.reason || a.winner != z.winner) {
        stats_.anomaly("the players saw different ends",
                       a.game_id + " " + a.reason + " " + std::to_string(a.winner) + " / " + z.game_id + " " + z.reason +
                           " " + std::to_string(z.winner),
                       now_s());
    } else {
        ++stats_.games_finished;
        ++stats_.endings[a.reason];
        if (a.reason == "timeout") ++stats_.timeouts_provoked;
    }
    ended_at_ = clock_type::now();
}

double honest_room::now_s() const
{
    return std::chrono::duration<double>(clock_type::now() - settings_.t0).count();
}

void honest_room::wind_down()
{
    winding_down_ = true;
    creator_.stop_after_this_game();
    joiner_.stop_after_this_game();
}

bool honest_room::done() const
{
    const bool playing = (creator_.in_game() && creator_.connected()) || (joiner_.in_game() && joiner_.connected());
    return winding_down_ && !playing;
}

void honest_room::close()
{
    watchdog_.cancel();
    creator_.close();
    joiner_.close();
}

// Once a second: a game with no event for longer than a move (and a claim window) can take means
// an event went missing; a finished game with no new one after 10 s means a rematch did.
void honest_room::watch()
{
    const auto now = clock_type::now();
    const auto quiet_limit = std::chrono::milliseconds{settings_.move_ms + settings_.claim_ms} +
                             std::chrono::milliseconds{static_cast<int>(settings_.clock_tolerance_ms) + 2000};
    for (const honest_bot* b : {&creator_, &joiner_}) {
        if (b->in_game() && now - b->last_event() > quiet_limit && !silence_reported_) {
            silence_reported_ = true;
            const auto quiet = std::chrono::duration_cast<std::chrono::milliseconds>(now - b->last_event()).count();
            stats_.anomaly("a game went quiet",
                           b->name() + " in room " + id_ + ": no event for " + std::to_string(quiet) + " ms", now_s());
        }
    }
    if (ended_at_ && !winding_down_ && now - *ended_at_ > std::chrono::seconds{10} && !silence_reported_) {
        silence_reported_ = true;
        stats_.anomaly("no rematch", "room " + id_ + ": no new game 10 s after the last ended", now_s());
    }
    watchdog_.expires_after(std::chrono::seconds{1});
    watchdog_.async_wait([this](const error_code& ec) {
        if (!ec) watch();
    });
}

} // namespace quarto::chaos
