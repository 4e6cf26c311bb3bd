// Connections play their room's game closed-loop: each bot acts as soon as the server's event
// makes it its turn, and every move is timed from its sending to the opponent's receipt.
#include "load_client.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <algorithm>
#include <iostream>

#include "client_messages.hpp"

namespace quarto::load {

namespace {

using clock_type = std::chrono::steady_clock;

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

} // namespace

void room_state::pending::push(clock_type::time_point t)
{
    if (size == sent.size()) { // cannot happen closed-loop; drop the oldest
        head = (head + 1) % sent.size();
        --size;
    }
    sent[(head + size) % sent.size()] = t;
    ++size;
}

std::optional<clock_type::time_point> room_state::pending::pop()
{
    if (size == 0) return std::nullopt;
    const auto t = sent[head];
    head = (head + 1) % sent.size();
    --size;
    return t;
}

// ---- worker ----

worker::worker(const client_settings& settings, std::atomic<int>& ready)
    : guard_{net::make_work_guard(ioc_)}, settings_{settings}, ready_{ready}
{
}

room_state& worker::add_room(int index)
{
    auto& room = rooms_.emplace_back();
    room.index = index;
    return room;
}

void worker::launch(room_state& room, int role, int number, std::optional<net::ip::address> source)
{
    const auto r = role == 0 ? connection::role::creator
                 : role == 1 ? connection::role::joiner
                             : connection::role::spectator;
    auto c = std::make_shared<connection>(*this, room, r, number);
    if (r != connection::role::spectator) bots_.push_back(c);
    c->start(source);
}

void worker::start_play()
{
    may_play_ = true;
    for (auto& bot : bots_) bot->start_play();
}

void worker::count_rooms_away()
{
    for (const auto& bot : bots_)
        if (bot->awaiting_room()) count([](load_stats& s) { ++s.rooms_not_back; });
}

void worker::start_window()
{
    window_ = load_stats{};
    measuring_ = true;
}

void worker::stop_window() { measuring_ = false; }

void worker::run() { ioc_.run(); }

void worker::stop() { ioc_.stop(); }

// ---- connection ----

connection::connection(worker& w, room_state& room, role r, int number)
    : worker_{w}, room_{room}, role_{r}, number_{number}
{
    if (r != role::spectator) bot_.emplace(r == role::creator ? seat{0} : seat{1}, w.next_seed());
    if (w.settings().think.count() > 0) think_timer_.emplace(w.context());
    // Only then: another draw would change every later bot's seed, and the games a seed plays.
    if (w.settings().think_jitter.count() > 0) think_random_.seed(static_cast<std::uint_fast32_t>(w.next_seed()));
}

void connection::start(std::optional<net::ip::address> source)
{
    source_ = source;
    open();
}

void connection::open()
{
    ws_ = std::make_shared<ws_stream>(worker_.context().get_executor());
    failed_ = false;
    buffer_.clear();
    auto& socket = ws_->next_layer().socket();
    beast::error_code ec;
    socket.open(worker_.settings().server.protocol(), ec);
    if (ec) return fail(ec, "open");
    socket.set_option(tcp::no_delay{true}, ec);
    ws_->next_layer().enable_stamps(ec);
    if (ec) return fail(ec, "SO_TIMESTAMPNS");
    if (source_) {
        // Pick the port at connect time, per 4-tuple: each source address then has its own
        // ~28k ephemeral ports.
        const int one = 1;
        (void)::setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        socket.bind(tcp::endpoint{*source_, 0}, ec);
        if (ec) return fail(ec, "bind");
    }
    if (!connect_timer_) connect_timer_.emplace(worker_.context());
    connect_timer_->expires_after(std::chrono::seconds{30});
    connect_timer_->async_wait([self = shared_from_this(), ws = ws_](const beast::error_code& e) {
        if (e || ws != self->ws_) return;
        self->fail(beast::error::timeout, "connect");
        beast::error_code ignored;
        ws->next_layer().socket().close(ignored);
    });
    socket.async_connect(worker_.settings().server,
                         [self = shared_from_this(), ws = ws_](const beast::error_code& e) { self->on_connect(ws, e); });
}

void connection::on_connect(const stream_ptr& ws, const beast::error_code& ec)
{
    if (ws != ws_) return;
    connect_timer_->cancel();
    if (ec) return fail(ec, "connect");
    ws_->set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_->async_handshake(worker_.settings().host_header, worker_.settings().path,
                         [self = shared_from_this(), ws = ws_](const beast::error_code& e) { self->on_handshake(ws, e); });
}

void connection::on_handshake(const stream_ptr& ws, const beast::error_code& ec)
{
    if (ws != ws_) return;
    if (ec) return fail(ec, "handshake");
    ws_->text(true);
    send(reconnecting_ ? resume_message(token_) : hello_message(name()));
    do_read();
}

std::string connection::name() const
{
    return (role_ == role::creator ? 'a' : role_ == role::joiner ? 'b' : 's') + std::to_string(number_);
}

void connection::do_read()
{
    ws_->async_read(buffer_, [self = shared_from_this(), ws = ws_](const beast::error_code& ec, std::size_t n) {
        if (ws == self->ws_) self->on_read(ec, n);
    });
}

void connection::on_read(const beast::error_code& ec, std::size_t bytes)
{
    if (ec) return fail(ec, "read");
    const std::string_view text{static_cast<const char*>(buffer_.data().data()), bytes};
    server_message m;
    if (scan_message(text, m)) handle(m);
    else worker_.count([](load_stats& s) { ++s.unreadable; });
    buffer_.consume(bytes);
    do_read();
}

void connection::send(std::string message)
{
    if (failed_) return; // lost with the connection; a reconnection starts over from a snapshot
    worker_.count([](load_stats& s) { ++s.messages_out; });
    outbox_.push_back(std::move(message));
    if (outbox_.size() == 1) do_write();
}

void connection::do_write()
{
    ws_->async_write(net::buffer(outbox_.front()), [self = shared_from_this(), ws = ws_](const beast::error_code& ec, std::size_t n) {
        if (ws == self->ws_) self->on_write(ec, n);
    });
}

void connection::on_write(const beast::error_code& ec, std::size_t)
{
    if (ec) return fail(ec, "write");
    outbox_.pop_front();
    if (!outbox_.empty()) do_write();
}

void connection::fail(const beast::error_code& ec, const char* what)
{
    if (ec == net::error::operation_aborted || failed_) return;
    failed_ = true; // a broken connection fails its read and its write: count it once
    // The message being written may still be read by the old stream's write (it completes
    // with an error later): kept for the run's life, one message per break at most.
    if (!outbox_.empty()) retired_.push_back(std::move(outbox_.front()));
    outbox_.clear();
    if (reconnecting_) return reconnect_later(); // another attempt, until resume_timeout
    std::string key = std::string{what} + ": " + ec.message();
    if (ec == websocket::error::closed) {
        const auto& reason = ws_->reason();
        key = "close " + std::to_string(reason.code);
        if (!reason.reason.empty()) key += ": " + std::string(reason.reason.data(), reason.reason.size());
    }
    const bool connecting = !ready_;
    worker_.count([&](load_stats& s) {
        ++(connecting ? s.connect_failures : s.disconnects);
        ++s.closes[key];
    });
    if (connecting) worker_.mark_ready(); // done, though failed: the set-up does not wait for it
    ready_ = true;
    if (!connecting && worker_.settings().resume && !token_.empty()) {
        reconnecting_ = true;
        awaiting_room_ = bot_.has_value() && !room_.id.empty();
        broke_at_ = clock_type::now();
        give_up_at_ = broke_at_ + worker_.settings().resume_timeout;
        attempts_ = 0;
        // Whatever was on its way is lost or done: the snapshot will say which.
        action_in_flight_ = false;
        if (think_timer_) think_timer_->cancel();
        if (resend_timer_) resend_timer_->cancel();
        if (bot_) room_.in_flight[bot_->me()].clear();
        reconnect_later();
    }
}

// A short pause first (the node that closed is stopping; the proxy is moving its clients to
// another), longer after each failed attempt.
void connection::reconnect_later()
{
    if (clock_type::now() >= give_up_at_) {
        reconnecting_ = false;
        awaiting_room_ = false;
        return worker_.count([](load_stats& s) { ++s.reconnect_failures; });
    }
    if (!retry_timer_) retry_timer_.emplace(worker_.context());
    const auto pause = std::chrono::milliseconds{std::min(1000, 50 << std::min(attempts_++, 5))};
    retry_timer_->expires_after(pause);
    retry_timer_->async_wait([self = shared_from_this()](const beast::error_code& ec) {
        if (!ec) self->open();
    });
}

// A snapshot of the bot's room after the bot had played in it: the room came back after a
// reconnection, or moved to another node with this connection open. Whatever the bot had on
// its way may have been applied or lost; the snapshot says where the game stands.
void connection::restore_from(const server_message& snapshot)
{
    const bool back = awaiting_room_;
    const auto now = clock_type::now();
    worker_.count([&](load_stats& s) {
        if (back) {
            ++s.rooms_back;
            s.resume_pause.record(static_cast<std::uint64_t>(std::chrono::nanoseconds{now - broke_at_}.count()));
        } else {
            ++s.snapshots_unasked;
        }
    });
    awaiting_room_ = false;
    replayed_ = true;
    action_in_flight_ = false;
    if (think_timer_) think_timer_->cancel();
    if (resend_timer_) resend_timer_->cancel();
    room_.in_flight[bot_->me()].clear();
    const auto game = read_snapshot_game(snapshot.game);
    if (!game || !bot_->restore(*game)) return worker_.count([](load_stats& s) { ++s.desyncs; });
    if (snapshot.status == "finished") {
        bot_->on_game_over();
        // The rematch it sent before the break may not have reached the room.
        if (back && !worker_.settings().idle) send(rematch_message(room_.id));
        return;
    }
    act();
}

void connection::join_room() { send(join_message(room_.id, role_ == role::spectator)); }

void connection::handle(const server_message& m)
{
    worker_.count([](load_stats& s) { ++s.messages_in; });
    if (m.seq >= 0) {
        if (m.type == "room") last_seq_ = m.seq; // a snapshot resets the count
        else {
            if (last_seq_ >= 0 && m.seq != last_seq_ + 1) worker_.count([](load_stats& s) { ++s.seq_gaps; });
            last_seq_ = m.seq;
        }
    }
    const std::string_view type = m.type;
    if (type == "welcome" && reconnecting_) {
        reconnecting_ = false;
        token_ = std::string{m.token}; // the same, or a spectator's new one
        worker_.count([](load_stats& s) { ++s.reconnections; });
        // A player's rooms come back with the welcome (or once a node has taken them over); a
        // spectator's place does not.
        if (role_ == role::spectator && !room_.id.empty()) join_room();
    } else if (type == "welcome") {
        token_ = std::string{m.token};
        if (role_ == role::creator) send(create_room_message("load " + std::to_string(room_.index), worker_.settings().move_ms));
        else if (!room_.id.empty()) join_room();
        else room_.waiting_for_id.push_back(shared_from_this());
    } else if (type == "room_created") {
        room_.id = std::string{m.room};
        for (auto& waiting : room_.waiting_for_id) waiting->join_room();
        room_.waiting_for_id.clear();
        room_.waiting_for_id.shrink_to_fit();
    } else if (type == "room") {
        // Play the seat the server gave us, whatever the role implied.
        if (bot_ && (m.you_seat == 0 || m.you_seat == 1) && m.you_seat != bot_->me()) {
            if (role_ == role::creator) worker_.count([](load_stats& s) { ++s.seat_mismatches; });
            bot_.emplace(static_cast<seat>(m.you_seat), worker_.next_seed());
        }
        if (!ready_) {
            ready_ = true;
            worker_.mark_ready();
        } else if (bot_ && m.room == room_.id && worker_.settings().resume) {
            restore_from(m);
        }
    } else if (type == "error" && reconnecting_ && m.code == "unknown_token" && role_ == role::spectator) {
        // A spectator's token is forgotten across a restart (only players' are kept): it comes
        // back as someone new, and watches again.
        send(hello_message(name()));
    } else if (type == "error") {
        worker_.count([&](load_stats& s) { ++s.errors[std::string{m.code}]; });
        // The first few errors of a run are described on stderr: they should not happen.
        static std::atomic<int> described{0};
        if (described.fetch_add(1, std::memory_order_relaxed) < 10) {
            const game* g = bot_ ? bot_->current() : nullptr;
            std::cerr << "quarto-load: error " << m.code << " in room " << room_.id << " (seq " << last_seq_
                      << "), seat " << (bot_ ? int{bot_->me()} : -1) << ", bot's game: phase "
                      << (g ? to_string(g->phase()) : "none") << ", turn " << (g ? int{g->turn()} : -1) << ", "
                      << (g ? g->board().pieces_placed() : 0) << " placed, " << (g ? g->moves().size() : 0)
                      << " moves; last sent " << last_sent_ << "\n";
        }
        // Each action carries its number: an error for an earlier one (a move sent twice, its
        // first copy taken) says nothing about the action on its way now.
        const bool about_this_action = action_in_flight_ && m.req == req_;
        if (!about_this_action) return worker_.count([](load_stats& s) { ++s.duplicates_refused; });
        // Nothing was done (a cluster's room between two nodes): send it again in a moment.
        if (m.code == "unavailable" && bot_ && bot_->playing()) {
            if (!resend_timer_) resend_timer_.emplace(worker_.context());
            resend_timer_->expires_after(std::chrono::milliseconds{100});
            resend_timer_->async_wait([self = shared_from_this(), ws = ws_](const beast::error_code& ec) {
                if (!ec && ws == self->ws_ && self->action_in_flight_) self->send(self->last_sent_);
            });
            return;
        }
        // After a snapshot, the action the bot had on its way may have been applied too: one
        // of the two is refused. Its own next event says where it stands.
        if (replayed_) return worker_.count([](load_stats& s) { ++s.duplicates_refused; });
        // A refused action means the bot's view and the server's differ: start over.
        if (action_in_flight_ && bot_ && bot_->playing()) {
            action_in_flight_ = false;
            room_.in_flight[bot_->me()].clear();
            send(action_message(room_.id, action{.kind = move_kind::resign, .by = bot_->me()}));
            action_in_flight_ = true;
        }
    } else if (type == "game_started" || type == "given" || type == "placed" || type == "passed" ||
               type == "game_over") {
        if (role_ == role::spectator) worker_.count([](load_stats& s) { ++s.spectator_events; });
        else on_game_event(m);
    }
    // joined, left, rematch_requested, disconnected, reconnected: nothing to do.
}

void connection::on_game_event(const server_message& m)
{
    bot_player& bot = *bot_;
    const std::string_view type = m.type;
    const auto me = bot.me();
    if (type == "game_started") {
        if (m.first != 0 && m.first != 1) return worker_.count([](load_stats& s) { ++s.unreadable; });
        if (role_ == role::creator) worker_.count([](load_stats& s) { ++s.games_started; });
        room_.in_flight[me].clear();
        action_in_flight_ = false;
        replayed_ = false;
        bot.on_game_started(static_cast<seat>(m.first));
        return act();
    }
    if (type == "game_over") {
        // Not clearing in_flight here: the opponent may not have read our last move yet.
        bot.on_game_over();
        action_in_flight_ = false;
        if (role_ == role::creator) {
            worker_.count([&](load_stats& s) {
                ++s.games_finished;
                if (m.reason == "quarto") ++s.wins_by_quarto;
                else if (m.reason == "board_full") ++s.draws;
                else ++s.other_endings;
            });
        }
        if (!worker_.settings().idle) send(rematch_message(room_.id));
        return;
    }
    if (m.seat != 0 && m.seat != 1) return worker_.count([](load_stats& s) { ++s.unreadable; });
    const auto by = static_cast<seat>(m.seat);
    bool fits = false;
    if (type == "given") fits = m.piece >= 0 && bot.on_given(by, static_cast<std::uint8_t>(m.piece));
    else if (type == "placed") fits = m.square >= 0 && bot.on_placed(by, static_cast<std::uint8_t>(m.square));
    else fits = bot.on_passed(by);
    if (!fits) worker_.count([](load_stats& s) { ++s.desyncs; });

    if (by == me) {
        action_in_flight_ = false; // our own action came back
        replayed_ = false;
    } else if (type != "passed") {
        // The opponent's move reached us: that is the move's latency.
        const auto sent = room_.in_flight[by].pop();
        const auto now = clock_type::now();
        const auto arrived = ws_->next_layer().last_arrival();
        const bool give = type == "given";
        worker_.count([&](load_stats& s) {
            ++s.moves;
            ++(give ? s.gives : s.places);
            if (!sent) return;
            s.latency.record(static_cast<std::uint64_t>(std::chrono::nanoseconds{now - *sent}.count()));
            if (!arrived) return;
            // The stamp came from the wall clock: a step of that clock could put it before the send.
            const auto at_arrival = std::max(std::chrono::nanoseconds{*arrived - *sent}, std::chrono::nanoseconds::zero());
            s.arrival_latency.record(static_cast<std::uint64_t>(at_arrival.count()));
        });
    }
    act();
}

void connection::act()
{
    if (worker_.settings().idle || !worker_.may_play() || action_in_flight_ || !bot_ || !bot_->playing() || bot_->current()->turn() != bot_->me())
        return;
    if (!think_timer_) return act_now();
    action_in_flight_ = true; // reserved while thinking
    const auto& s = worker_.settings();
    auto think = s.think;
    if (s.think_jitter.count() > 0) {
        std::uniform_int_distribution<std::int64_t> spread{-s.think_jitter.count(), s.think_jitter.count()};
        think += std::chrono::milliseconds{spread(think_random_)};
    }
    think_timer_->expires_after(think);
    think_timer_->async_wait([self = shared_from_this()](const beast::error_code& ec) {
        if (ec) return;
        self->action_in_flight_ = false;
        self->act_now();
    });
}

void connection::act_now()
{
    if (action_in_flight_) return;
    const auto next = bot_->next_action();
    if (!next) return;
    if (next->kind == move_kind::give || next->kind == move_kind::place)
        room_.in_flight[bot_->me()].push(clock_type::now());
    action_in_flight_ = true;
    last_sent_ = action_message(room_.id, *next, ++req_);
    send(last_sent_);
}

} // namespace quarto::load
