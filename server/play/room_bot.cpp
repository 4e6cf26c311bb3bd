// The room's computer opponent: a seated player whose moves come from the bot pool instead of a
// connection. The room asks when the game needs the bot (its give, its placement and call or
// give, a claim in its window, the last word at a full board), takes the answer back on its own
// loop, and plays it through act() like anyone's move once the delay from the start of its turn
// has passed, checking first that the game is still where it was when it asked.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "play/bot_moves.hpp"
#include "play/random_ids.hpp"
#include "play/room.hpp"
#include "quarto/core/solver/bot.hpp"
#include "quarto/protocol/game_events.hpp"

namespace quarto::server::play {

namespace {

// When the pool is full: ask again after this.
constexpr milliseconds retry_after{100};

} // namespace

struct room::bot_turn {
    model::bot_opponent opponent;
    model::player_info player;
    std::mt19937_64 random{random_word()};
    std::unique_ptr<alarm> wake; // one job at a time: play the answer (the delay is over), or ask again (the pool was full)

    // The moment of the game being decided: the game, how many actions it had, whether a claim
    // window was open. Anything else, and the question is stale.
    bool active = false;
    std::string game_id;
    std::size_t moves = 0;
    bool claim_open = false;
    instant began{};           // when this turn of the bot's began: the delay counts from here
    std::uint64_t asked = 0;   // the serial of the answer awaited; others are stale
    std::uint64_t serial = 0;  // the last serial handed out
    std::optional<solver::move> answer;

    void forget()
    {
        active = false;
        answer.reset();
        asked = 0;
        wake->cancel();
    }
    // Whatever the bot plays is played this long before its move clock runs out, at the latest:
    // room enough for a loop that runs late on a loaded machine (sanitized test servers beside
    // each other have been seen 250 ms late), which the bot, unlike a person, can spare.
    static milliseconds margin(milliseconds allowance) { return std::min(milliseconds{1000}, allowance / 4); }
    // That moment in `g`, when its move clock runs.
    static std::optional<instant> last_moment(const game& g)
    {
        const auto deadline = g.moves_clock().deadline();
        if (!deadline) return std::nullopt;
        return *deadline - margin(*g.moves_clock().allowance());
    }
};

void room::bot_init()
{
    bot_ = std::make_shared<bot_turn>();
    bot_->opponent = *settings_.bot;
    bot_->player = {bot_player_id(bot_->opponent.level), solver::bot_name(bot_->opponent.level)};
    bot_->wake = host_.make_alarm([this] { bot_wake(); });
}

bool room::bot_in(seat s) const { return bot_ && settings_.bot_seat == s && seats_[s] && seats_[s]->id == bot_->player.id; }

void room::defer_while_open(std::function<void()> task)
{
    host_.defer([alive = std::weak_ptr<bot_turn>{bot_}, task = std::move(task)] {
        if (alive.lock()) task();
    });
}

void room::seat_bot()
{
    const bot_turn& b = *bot_;
    const seat s = settings_.bot_seat;
    seats_[s] = b.player;
    // Not to the creator, whose snapshot (right after room_created) shows the bot seated.
    const client_ref* creator = subscribers_.empty() ? nullptr : &subscribers_.front().client;
    publish(protocol::joined_event(next_stamp(), b.player, false, s), change::take_seat{s, {b.player, "-", std::nullopt}}, creator);
    spdlog::info("room {}: {} sits down", id_, b.player.name);
    // After the snapshot, as when a person takes the second seat.
    defer_while_open([this] { bot_resume(); });
}

void room::bot_resume()
{
    if (seats_[0] && seats_[1] && status_ == model::room_status::waiting) start_game();
    else bot_poke();
}

void room::bot_accepts_rematch()
{
    const seat s = settings_.bot_seat;
    if (!bot_in(s) || rematch_wanted_[s] || status_ != model::room_status::finished) return;
    rematch_wanted_[s] = true;
    std::string event;
    protocol::rematch_requested_event(event, next_stamp(), s);
    publish(std::move(event), change::rematch{s});
}

void room::bot_poke()
{
    if (!bot_ || bot_acting_) return;
    bot_turn& b = *bot_;
    const seat s = settings_.bot_seat;
    if (closed_ || status_ != model::room_status::playing || !bot_in(s) || game_->turn() != s) {
        if (b.active) b.forget();
        return;
    }
    const instant now = host_.now();
    const std::int64_t t = *game_time();
    if (game_->expire(now) == time_event::game_over) return game_finished(change::time_passed{t});
    const std::size_t moves = game_->moves().size();
    const bool claim_open = game_->claim().has_value();
    const bool same_turn = b.active && b.game_id == game_id_ && b.moves == moves;
    if (same_turn && b.claim_open == claim_open) return; // asked about this moment already
    b.forget();
    b.active = true;
    if (!same_turn) b.began = now; // a claim window that closed meanwhile does not restart the delay
    b.game_id = game_id_;
    b.moves = moves;
    b.claim_open = claim_open;
    bot_ask();
}

void room::bot_ask()
{
    bot_turn& b = *bot_;
    const std::uint64_t serial = ++b.serial;
    b.asked = serial;
    const game& g = *game_;
    if (g.board().full()) {
        // Nothing to search: call or pass, as the level sees the Quarto or not.
        const bool sees = std::uniform_real_distribution<double>{0, 1}(coin_) >= solver::bot_miss_rate(b.opponent.level);
        return bot_answered(serial, end_of_board_move(g, sees));
    }
    const auto position = solver::position_of(g);
    if (!position) {
        spdlog::error("room {}: no position for the bot in phase {}", id_, to_string(g.phase()));
        return;
    }
    const instant now = host_.now();
    // Never longer than the level's budget, whatever the clock allows: level 5 is exact long
    // before it in most positions, and a person waits for the others.
    milliseconds budget = solver::think_budget(b.opponent.level);
    const auto last_moment = bot_turn::last_moment(g);
    if (last_moment) {
        // Half of what is left before the margin: the rest is for the queue and the way back.
        budget = std::clamp((*last_moment - now) / 2, milliseconds{0}, budget);
    }
    const bots::think_request request{b.opponent.level, g.rules(), *position, budget, b.random()};
    const bool taken = host_.think(request, [this, alive = std::weak_ptr<bot_turn>{bot_}, serial](const solver::move& m) {
        if (alive.lock()) bot_answered(serial, m);
    });
    instant wake_at = taken ? instant::max() : now + retry_after;
    if (!taken) spdlog::debug("room {}: the bot pool is full; the bot asks again in {} ms", id_, retry_after.count());
    // An answer that has not come by the last moment (a pool slower than its budget, on a loaded
    // machine) is not waited for: see bot_wake.
    if (last_moment) wake_at = std::min(wake_at, *last_moment);
    if (wake_at != instant::max()) b.wake->set(wake_at);
}

void room::bot_answered(std::uint64_t serial, const solver::move& m)
{
    bot_turn& b = *bot_;
    if (!b.active || serial != b.asked || b.answer) {
        spdlog::debug("room {}: a stale answer of the bot dropped", id_);
        return;
    }
    b.answer = m;
    const instant now = host_.now();
    instant at = b.began + milliseconds{b.opponent.delay_ms};
    if (const auto last_moment = bot_turn::last_moment(*game_)) at = std::min(at, *last_moment);
    // A claim is worth something only while its window is open.
    if (const auto window = game_->claim(); window && m.call && !m.place)
        at = std::min(at, window->deadline - milliseconds{1});
    if (at > now) return b.wake->set(at);
    b.wake->cancel();
    // Not from within the act() or the answer that led here: at the end of the turn.
    defer_while_open([this] { bot_play(); });
}

void room::bot_wake()
{
    if (!bot_ || !bot_->active) return;
    bot_turn& b = *bot_;
    const auto last_moment = bot_turn::last_moment(*game_);
    if (!b.answer && last_moment && host_.now() >= *last_moment) {
        // The search's answer is late: a move found at once loses less than the game on time.
        // The answer, when it comes, is stale (bot_play forgets the question).
        if (const auto position = solver::position_of(*game_)) {
            spdlog::warn("room {}: the bot's search did not answer in time; it plays a hurried move", id_);
            b.answer = solver::hurried_move(game_->rules(), *position, b.random);
        }
    }
    if (b.answer) bot_play();
    else bot_ask();
}

void room::bot_play()
{
    bot_turn& b = *bot_;
    if (!b.active || !b.answer || status_ != model::room_status::playing) return;
    const instant now = host_.now();
    const std::int64_t t = *game_time();
    if (game_->expire(now) == time_event::game_over) return game_finished(change::time_passed{t});
    // The game may have moved on while the answer waited (a window closed): ask again.
    if (b.game_id != game_id_ || b.moves != game_->moves().size() || b.claim_open != game_->claim().has_value() ||
        game_->turn() != settings_.bot_seat) {
        spdlog::debug("room {}: the bot's answer is out of date; it thinks again", id_);
        return bot_poke();
    }
    const solver::move m = *b.answer;
    b.forget();
    bot_acting_ = true;
    for (const auto& action : actions_for(*game_, m))
        if (!act(nullptr, settings_.bot_seat, action, nullptr) || status_ != model::room_status::playing) break;
    bot_acting_ = false;
    bot_poke();
}

} // namespace quarto::server::play
