#include "honest_bot.hpp"

#include <cstdio>

#include "client_messages.hpp"

namespace quarto::chaos {

namespace {

using json = nlohmann::json;

double ms_between(clock_type::time_point a, clock_type::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// clock.remaining_ms[seat] (-1 when absent or null) and clock.running (-1 when null).
struct clock_view {
    std::array<double, 2> remaining{-1, -1};
    int running = -1;
};

clock_view read_clock(const json& j)
{
    clock_view c;
    const auto it = j.find("clock");
    if (it == j.end() || !it->is_object()) return c;
    if (const auto r = it->find("remaining_ms"); r != it->end() && r->is_array() && r->size() == 2)
        for (std::size_t s = 0; s < 2; ++s)
            if ((*r)[s].is_number()) c.remaining[s] = (*r)[s].get<double>();
    if (const auto run = it->find("running"); run != it->end() && run->is_number_integer()) c.running = run->get<int>();
    return c;
}

int int_field(const json& j, const char* key, int otherwise = -1)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int>() : otherwise;
}

std::string text_field(const json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

} // namespace

honest_bot::honest_bot(net::io_context& io, const honest_settings& settings, honest_stats& stats, room_link& room,
                       std::string name, std::mt19937_64& random)
    : io_{io}, settings_{settings}, stats_{stats}, room_{room}, name_{std::move(name)}, random_{random}, think_{io},
      ping_timer_{io}
{
}

honest_bot::~honest_bot()
{
    if (conn_) conn_->detach();
}

void honest_bot::connect()
{
    conn_ = std::make_shared<ws_client>(io_, settings_.from, static_cast<ws_client::listener*>(this), random_);
    conn_->start();
    send(load::hello_message(name_));
}

void honest_bot::create_room(std::string_view name)
{
    // Public, so the lobby lists it and the churn finds it; default rules, as bot_player plays.
    send(R"({"type":"create_room","name":")" + std::string{name} + R"(","clock":{"move_ms":)" +
         std::to_string(settings_.move_ms) + R"(,"claim_ms":)" + std::to_string(settings_.claim_ms) +
         R"(},"private":false})");
}

void honest_bot::join(const std::string& room)
{
    room_id_ = room;
    send(load::join_message(room, false));
}

void honest_bot::close()
{
    closing_ = true;
    ++think_generation_;
    think_.cancel();
    ping_timer_.cancel();
    if (conn_) conn_->close(1000, "done");
}

void honest_bot::send(const std::string& text)
{
    if (conn_) conn_->send_text(text);
}

double honest_bot::since_start(clock_type::time_point t) const
{
    return std::chrono::duration<double>(t - settings_.t0).count();
}

void honest_bot::anomaly(const std::string& kind, const std::string& detail)
{
    const double t = since_start(clock_type::now());
    char context[160];
    std::snprintf(context, sizeof context, " [at %.1f s; honest loop late by %.0f ms at worst in the last 5 s; last ping %.0f ms]",
                  t, stats_.recent_loop_lag_ms, stats_.last_ping_rtt_ms);
    stats_.anomaly(kind, name_ + " room " + room_id_ + " seq " + std::to_string(last_seq_) + ": " + detail + context, t);
}

void honest_bot::ping()
{
    if (closing_ || !connected()) return;
    if (!ping_out_) { // one at a time: a pong that never comes shows as a quiet game instead
        ping_out_ = true;
        ping_sent_at_ = clock_type::now();
        send(R"({"type":"ping","req":"h)" + std::to_string(++ping_sent_number_) + "\"}");
    }
    ping_timer_.expires_after(std::chrono::seconds{1});
    ping_timer_.async_wait([this](const error_code& ec) {
        if (!ec) ping();
    });
}

void honest_bot::on_end(ws_client&, const ws_client::ending& e)
{
    if (!closing_) anomaly("connection ended", e.describe());
}

void honest_bot::on_message(ws_client&, ws_client::message_kind kind, std::string_view payload)
{
    const auto now = clock_type::now();
    if (kind != ws_client::message_kind::text)
        return anomaly("a frame that is not text", std::string{payload.substr(0, 100)});
    const json j = json::parse(payload, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return anomaly("unreadable message", std::string{payload.substr(0, 200)});
    const std::string type = text_field(j, "type");
    if (type == "welcome") {
        player_id_ = text_field(j, "player");
        ping();
        return room_.welcomed(*this);
    }
    if (type == "pong") {
        if (ping_out_ && text_field(j, "req") == "h" + std::to_string(ping_sent_number_)) {
            ping_out_ = false;
            stats_.ping(ms_between(ping_sent_at_, now), since_start(now));
        }
        return;
    }
    if (type == "room_created") {
        room_id_ = text_field(j, "room");
        return room_.room_known(room_id_);
    }
    if (type == "error") {
        anomaly("error " + text_field(j, "code"), std::string{payload.substr(0, 300)});
        // Our copy of the game and the server's differ: resign, so the room plays on.
        if (awaiting_ && in_game_)
            send(load::action_message(room_id_, action{.kind = move_kind::resign, .by = static_cast<seat>(seat_)}));
        return;
    }
    if (type == "room") {
        const auto you = j.find("you");
        if (you != j.end() && you->is_object()) seat_ = int_field(*you, "seat");
        last_seq_ = int_field(j, "seq");
        if (seat_ != 0 && seat_ != 1) anomaly("snapshot without a seat", std::string{payload.substr(0, 200)});
        return;
    }
    const auto seq = j.find("seq");
    if (seq == j.end() || !seq->is_number_integer()) return; // pong, rematch state, ...
    if (text_field(j, "room") != room_id_) return anomaly("an event of another room", std::string{payload.substr(0, 200)});
    const auto n = seq->get<std::int64_t>();
    if (last_seq_ >= 0 && n != last_seq_ + 1)
        anomaly("seq gap", "got " + std::to_string(n) + " after " + std::to_string(last_seq_) + " (" + type + ")");
    last_seq_ = n;
    last_event_ = now;
    ++stats_.events;
    event(j, type, now);
}

void honest_bot::event(const json& j, std::string_view type, clock_type::time_point now)
{
    if (type == "joined" || type == "left") {
        // Spectators come and go; the only player to join is our partner, before the first game.
        if (text_field(j, "as") == "spectator") ++stats_.watcher_events;
        else if (type != "joined" || bot_) anomaly("a player " + std::string{type}, j.dump().substr(0, 200));
    } else if (type == "game_started") {
        on_game_started(j, now);
    } else if (type == "given" || type == "placed" || type == "passed") {
        on_move(j, type, now);
    } else if (type == "game_over") {
        on_game_over(j, now);
    } else if (type != "rematch_requested") {
        // disconnected, reconnected, resumed: nothing of the sort happens to honest players.
        anomaly("unexpected event " + std::string{type}, j.dump().substr(0, 200));
    }
}

void honest_bot::on_game_started(const json& j, clock_type::time_point now)
{
    const int first = int_field(j, "first");
    if (first != 0 && first != 1) return anomaly("game_started without first", j.dump().substr(0, 200));
    const auto players = j.find("players");
    if (players == j.end() || !players->is_array() || players->size() != 2 ||
        text_field((*players)[static_cast<std::size_t>(seat_)], "id") != player_id_)
        anomaly("game_started does not seat us where the snapshot did", j.dump().substr(0, 300));
    bot_.emplace(static_cast<seat>(seat_), random_());
    bot_->on_game_started(static_cast<seat>(first));
    in_game_ = true;
    awaiting_ = false;
    actions_ = 0;
    expected_line_ = 0;
    stall_at_ = std::bernoulli_distribution{settings_.stall_chance / 2}(random_)
                    ? std::uniform_int_distribution<int>{0, 6}(random_)
                    : -1;
    move_start_[static_cast<std::size_t>(first)] = now;
    const auto c = read_clock(j);
    if (c.running != first || c.remaining[0] != settings_.move_ms || c.remaining[1] != settings_.move_ms)
        anomaly("game_started clock", j.dump().substr(0, 300));
    room_.game_started(*this);
    maybe_act();
}

void honest_bot::on_move(const json& j, std::string_view type, clock_type::time_point now)
{
    const int by = int_field(j, "seat");
    if (!bot_ || !in_game_ || (by != 0 && by != 1))
        return anomaly(std::string{type} + " outside a game", j.dump().substr(0, 200));
    const game* before = bot_->current();
    const bool after_placement = before->last_placement().has_value();
    bool fits = false;
    if (type == "given") fits = bot_->on_given(static_cast<seat>(by), static_cast<std::uint8_t>(int_field(j, "piece", 99)));
    else if (type == "placed")
        fits = bot_->on_placed(static_cast<seat>(by), static_cast<std::uint8_t>(int_field(j, "square", 99)));
    else fits = bot_->on_passed(static_cast<seat>(by));
    if (!fits) anomaly("an event our game refuses", j.dump().substr(0, 200));
    if (type == "given") {
        // A give after a placement opens the receiver's claim window; the first give does not.
        const auto claim = j.find("claim");
        const bool open = claim != j.end() && claim->is_object();
        if (open != after_placement || (open && int_field(*claim, "seat") != 1 - by))
            anomaly("claim window", j.dump().substr(0, 300));
    }
    check_clock(j, type, by, now);
    if (type == "given") move_start_[static_cast<std::size_t>(1 - by)] = now;
    if (by == seat_) awaiting_ = false;
    maybe_act();
}

// PROTOCOL.md 8: the seat not moving shows the full allowance, the mover the allowance minus the
// time used in this move. We time each move from the event that started it to the event that
// shows it, so the two differ by the delivery of two messages.
void honest_bot::check_clock(const json& j, std::string_view type, int by, clock_type::time_point now)
{
    const auto c = read_clock(j);
    const double full = settings_.move_ms;
    if (type == "passed") {
        if (c.running != -1) anomaly("a clock running after a pass", j.dump().substr(0, 300));
        return;
    }
    const int mover = type == "given" ? 1 - by : by;
    if (c.running != mover || c.remaining[static_cast<std::size_t>(1 - mover)] != full)
        return anomaly("clock of " + std::string{type}, j.dump().substr(0, 300));
    const double server_used = full - c.remaining[static_cast<std::size_t>(mover)];
    const double measured = type == "given" ? 0.0 : ms_between(move_start_[static_cast<std::size_t>(mover)], now);
    const double deviation = server_used - measured;
    stats_.clock_deviation(deviation, since_start(now));
    if (std::abs(deviation) > settings_.clock_tolerance_ms)
        anomaly("clock far off",
                "server says " + std::to_string(server_used) + " ms used, we measured " + std::to_string(measured));
}

void honest_bot::on_game_over(const json& j, clock_type::time_point now)
{
    game_end end;
    end.game_id = text_field(j, "game");
    end.reason = text_field(j, "reason");
    end.winner = int_field(j, "winner", -1);
    const std::string result = text_field(j, "result");
    const std::string shown = j.dump().substr(0, 300);
    if (!bot_ || !in_game_) anomaly("game_over outside a game", shown);
    if (end.game_id.empty()) anomaly("game_over without a game id", shown);
    if ((result == "draw") != (end.winner == -1) || (result == "draw") != (end.reason == "board_full") ||
        (result != "draw" && result != "win"))
        anomaly("game_over result", shown);
    const game* g = bot_ ? bot_->current() : nullptr;
    if (g && end.reason == "quarto") {
        square_mask line = 0;
        if (const auto l = j.find("line"); l != j.end() && l->is_array())
            for (const auto& s : *l)
                if (s.is_number_integer() && s.get<int>() >= 0 && s.get<int>() < 16)
                    line = static_cast<square_mask>(line | bit(static_cast<square>(s.get<int>())));
        const auto last = g->last_placement();
        const bool valid = last && int{last->by} == end.winner && (line & bit(last->where)) && g->rules().is_pattern(line) &&
                           g->board().aligned(line, g->rules().attributes);
        if (!valid) anomaly("a Quarto that is not one", shown);
        if (end.winner == seat_ && line != expected_line_) anomaly("a Quarto other than the one we called", shown);
    } else if (g && end.reason == "board_full") {
        if (!g->board().full()) anomaly("a draw on a board that is not full", shown);
    } else if (g && end.reason == "timeout") {
        const int loser = 1 - end.winner;
        if (room_.staller() != loser) anomaly("a timeout nobody let happen", shown);
        if (int{g->turn()} != loser) anomaly("a timeout of the player not moving", shown);
        const double took = ms_between(move_start_[static_cast<std::size_t>(loser & 1)], now);
        if (std::abs(took - settings_.move_ms) > settings_.clock_tolerance_ms)
            anomaly("timeout far off",
                    "after " + std::to_string(took) + " ms of a " + std::to_string(settings_.move_ms) + " ms move");
        if (read_clock(j).remaining[static_cast<std::size_t>(loser & 1)] != 0) anomaly("a timeout with time left", shown);
    } else if (g) {
        anomaly("a game ended by " + end.reason, shown);
    }
    if (bot_) bot_->on_game_over();
    in_game_ = false;
    awaiting_ = false;
    thinking_ = false;
    ++think_generation_;
    think_.cancel();
    room_.game_ended(*this, end);
    if (!stopping_) send(load::rematch_message(room_id_));
}

void honest_bot::maybe_act()
{
    if (!in_game_ || awaiting_ || thinking_ || closing_ || !bot_ || !bot_->playing()) return;
    if (int{bot_->current()->turn()} != seat_) return;
    if (actions_ == stall_at_ && room_.staller() < 0) {
        room_.set_staller(seat_); // let the move clock run out: the server must end the game
        return;
    }
    if (room_.staller() == seat_) return;
    thinking_ = true;
    const auto mine = ++think_generation_;
    think_.expires_after(std::chrono::milliseconds{
        std::uniform_int_distribution<int>{settings_.think_min_ms, settings_.think_max_ms}(random_)});
    think_.async_wait([this, mine](const error_code& ec) {
        if (ec || mine != think_generation_) return;
        thinking_ = false;
        act();
    });
}

void honest_bot::act()
{
    if (!in_game_ || !bot_) return;
    const auto next = bot_->next_action();
    if (!next) return;
    if (next->kind == move_kind::call) expected_line_ = next->line;
    awaiting_ = true;
    ++actions_;
    send(load::action_message(room_id_, *next));
}

} // namespace quarto::chaos
