#include "ws_session.hpp"

#include <spdlog/spdlog.h>

#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "room.hpp"
#include "room_registry.hpp"
#include "session_tracker.hpp"
#include "tournament_registry.hpp"

namespace quarto::server {

using protocol::error_code;
using json = nlohmann::json;

namespace {

bool quiet(const beast::error_code& ec)
{
    return ec == net::error::operation_aborted || ec == websocket::error::closed || ec == net::error::eof ||
           ec == net::error::connection_reset || ec == beast::error::timeout || ec == http::error::end_of_stream;
}

} // namespace

ws_session::ws_session(connection_socket&& socket, server_context& context, session_tracker& tracker,
                       std::shared_ptr<void> ticket, std::string remote)
    : ws_{std::move(socket)},
      context_{context},
      tracker_{tracker},
      ticket_{std::move(ticket)},
      remote_{std::move(remote)},
      limiter_{context.settings.rate_limit, context.settings.rate_burst, rate_limiter::clock::now()}
{
}

ws_session::~ws_session()
{
    tracker_.remove(this);
    if (accepted_) context_.metrics.connections_open.fetch_sub(1, std::memory_order_relaxed);
    if (player_) context_.players.disconnected(player_->info.id);
}

void ws_session::run(http::request<http::string_body> upgrade)
{
    tracker_.add(shared_from_this());
    // Beast's suggested server timeouts, but a dead peer is noticed within 20 s rather than 5
    // minutes (a ping goes out after 10 s of silence): opponents see "disconnected" promptly.
    auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeouts.idle_timeout = std::chrono::seconds(20);
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "quarto-server"); }));
    ws_.read_message_max(context_.settings.max_message_bytes);
    ws_.text(true);
    ws_.auto_fragment(false); // one JSON object per frame, whatever its size
    ws_.async_accept(upgrade, beast::bind_front_handler(&ws_session::on_accept, shared_from_this()));
    // Shutdown began after this connection's upgrade was let through but before the session
    // was tracked: shutdown has not told it, so it tells itself.
    if (context_.shutting_down.load())
        begin_close(websocket::close_code::going_away, std::string{shutdown_close_reason}, false);
}

void ws_session::on_accept(beast::error_code ec)
{
    if (ec) {
        if (!quiet(ec)) spdlog::debug("ws {}: handshake: {}", remote_, ec.message());
        return;
    }
    spdlog::info("ws {}: connected", remote_);
    accepted_ = true;
    context_.metrics.connections_open.fetch_add(1, std::memory_order_relaxed);
    metrics::add(context_.metrics.connections_total);
    do_read();
    if (pending_close_ && !writing_) { // asked to close during the handshake
        ws_.async_close(*pending_close_, [self = shared_from_this()](beast::error_code) {});
        pending_close_.reset();
    }
}

void ws_session::do_read()
{
    ws_.async_read(buffer_, beast::bind_front_handler(&ws_session::on_read, shared_from_this()));
}

void ws_session::on_read(beast::error_code ec, std::size_t)
{
    if (ec) {
        // Beast has already answered an oversized frame with close code 1009.
        if (ec == websocket::error::message_too_big) spdlog::info("ws {}: message over the size limit, closed", remote_);
        else if (!quiet(ec)) spdlog::info("ws {}: read: {}", remote_, ec.message());
        return on_closed();
    }
    metrics::add(context_.metrics.messages_in);
    const std::string_view text{static_cast<const char*>(buffer_.data().data()), buffer_.size()};
    if (ws_.got_binary()) {
        reply_error(error_code::bad_message, "Messages are JSON in text frames.", nullptr);
        buffer_.consume(buffer_.size());
        return do_read();
    }
    const auto received = rate_limiter::clock::now(); // steady_clock: also starts the handling timer
    switch (limiter_.admit(received)) {
    case rate_limiter::verdict::accept:
        try {
            handle(text);
            context_.metrics.session_handling.record(std::chrono::steady_clock::now() - received);
        } catch (const std::exception& e) { // a bug: answer, log, and keep serving
            spdlog::error("ws {}: {}", remote_, e.what());
        }
        break;
    case rate_limiter::verdict::refuse:
        reply_error(error_code::rate_limited, protocol::default_message(error_code::rate_limited),
                    protocol::request_id_of(text));
        break;
    case rate_limiter::verdict::close:
        spdlog::warn("ws {}: closed for flooding", remote_);
        start_close(websocket::close_code::policy_error, "too many messages");
        break;
    }
    buffer_.consume(buffer_.size());
    if (!closed_) do_read();
}

void ws_session::handle(std::string_view text)
{
    auto parsed = protocol::parse_client_message(text);
    if (auto* error = std::get_if<protocol::parse_error>(&parsed)) {
        // Before hello, anything but a hello (even a malformed one) is answered hello_required.
        if (!player_ && error->code != error_code::bad_json && error->type != "hello")
            return reply_error(error_code::hello_required, protocol::default_message(error_code::hello_required), error->req);
        return reply_error(error->code, error->message, error->req);
    }

    auto& [message, req] = std::get<protocol::parsed_message>(parsed);
    if (const auto* h = std::get_if<protocol::hello>(&message)) return handle_hello(*h, req);
    if (!player_) return reply_error(error_code::hello_required, protocol::default_message(error_code::hello_required), req);

    std::visit(
        [&](auto& m) {
            using message_type = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<message_type, protocol::hello>) {
            } else if constexpr (std::is_same_v<message_type, protocol::ping>) {
                reply(protocol::pong(server_clock::unix_ms(), req));
            } else if constexpr (std::is_same_v<message_type, protocol::list_rooms>) {
                const auto summaries = context_.rooms->list_public();
                reply(protocol::rooms_list(summaries, req));
            } else if constexpr (std::is_same_v<message_type, protocol::create_room>) {
                create_room(m, req);
            } else if constexpr (std::is_same_v<message_type, protocol::create_tournament>) {
                create_tournament(m, req);
            } else if constexpr (std::is_same_v<message_type, protocol::list_tournaments>) {
                const auto summaries = context_.tournaments->list();
                reply(protocol::tournaments_list(summaries, req));
            } else if constexpr (protocol::tournament_message<message_type>) {
                auto t = context_.tournaments->find(m.tournament);
                if (!t)
                    return reply_error(error_code::no_such_tournament,
                                       protocol::default_message(error_code::no_such_tournament), req);
                if constexpr (std::is_same_v<message_type, protocol::unwatch_tournament>) tournaments_.erase(m.tournament);
                else tournaments_.emplace(m.tournament, t);
                t->handle(shared_from_this(), player_, std::move(message), std::move(req));
            } else {
                auto r = find_room(m.room);
                if (!r) return reply_error(error_code::no_such_room, protocol::default_message(error_code::no_such_room), req);
                auto self = shared_from_this();
                if constexpr (std::is_same_v<message_type, protocol::join>) {
                    rooms_.emplace(m.room, r);
                    r->join(self, player_, m.as_spectator, std::move(req));
                } else if constexpr (std::is_same_v<message_type, protocol::leave>) {
                    rooms_.erase(m.room);
                    r->leave(self, player_, std::move(req));
                } else if constexpr (std::is_same_v<message_type, protocol::sync>) {
                    rooms_.emplace(m.room, r);
                    r->sync(self, player_, m.since, std::move(req));
                } else {
                    r->act(self, player_, std::move(m), std::move(req));
                }
            }
        },
        message);
}

void ws_session::handle_hello(const protocol::hello& h, const json& req)
{
    if (player_) return reply_error(error_code::bad_message, "This connection has already said hello.", req);
    if (h.token) {
        auto known = context_.players.find_by_token(*h.token);
        if (!known) return reply_error(error_code::unknown_token, protocol::default_message(error_code::unknown_token), req);
        player_ = std::move(known);
    } else {
        player_ = context_.players.create(*h.name);
    }
    context_.players.connected(player_->info.id);
    spdlog::info("ws {}: {} is {} ({})", remote_, h.token ? "resumed" : "hello", player_->info.id, player_->info.name);
    reply(protocol::welcome(player_->info, player_->token, req));

    if (!h.token) return;
    auto self = shared_from_this();
    for (const auto& id : context_.players.rooms_of(player_->info.id)) {
        if (auto r = context_.rooms->find(id)) {
            rooms_.emplace(id, r);
            r->resume(self, player_);
        }
    }
    for (const auto& id : context_.players.tournaments_of(player_->info.id)) {
        if (auto t = context_.tournaments->find(id)) {
            tournaments_.emplace(id, t);
            t->resubscribe(self, player_);
        }
    }
}

void ws_session::create_tournament(protocol::create_tournament& m, const json& req)
{
    auto t = context_.tournaments->create(std::move(m.settings), shared_from_this(), player_);
    spdlog::info("tournament {}: created by {}", t->id(), player_->info.id);
    tournaments_.emplace(t->id(), t);
    // The reply goes out before the tournament's strand sends the snapshot: both are queued
    // for this connection in that order.
    reply(protocol::tournament_created(t->id(), req));
}

void ws_session::create_room(const protocol::create_room& m, const json& req)
{
    room_settings settings{m.name.empty() ? player_->info.name + "'s room" : m.name, m.game_rules, m.clock, m.is_private, std::nullopt};
    auto self = shared_from_this();
    auto r = context_.rooms->create(std::move(settings), self, player_);
    spdlog::info("room {}: created by {}{}", r->id(), player_->info.id, m.is_private ? " (private)" : "");
    rooms_.emplace(r->id(), r);
    // The snapshot is queued on the room's strand before anyone can know the room's id: else a
    // joiner quick off the mark (room_created goes out at once) could start the game before
    // it, and the creator would see game_started before its snapshot. The snapshot still
    // arrives after room_created: the room hands it to send(), which posts to this strand.
    r->join(self, player_, false, nullptr); // already seated: this sends the snapshot
    reply(protocol::room_created(r->id(), req));
}

std::shared_ptr<room> ws_session::find_room(const protocol::room_id& id)
{
    if (const auto it = rooms_.find(id); it != rooms_.end()) return it->second;
    return context_.rooms->find(id);
}

void ws_session::reply(const json& message) { enqueue(std::make_shared<const std::string>(message.dump())); }

void ws_session::reply_error(error_code code, std::string_view message, const json& req)
{
    context_.metrics.error(code);
    reply(protocol::error_reply(code, message, req));
}

void ws_session::send(std::shared_ptr<const std::string> message)
{
    net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)]() mutable {
        self->enqueue(std::move(message));
    });
}

void ws_session::enter_room(std::shared_ptr<room> r)
{
    net::post(ws_.get_executor(), [self = shared_from_this(), r = std::move(r)]() mutable {
        if (self->closed_ || !self->player_) return;
        self->rooms_.emplace(r->id(), r);
        r->resume(self, self->player_);
    });
}

void ws_session::enqueue(std::shared_ptr<const std::string> message)
{
    if (closing_ || closed_) return;
    if (queue_.size() >= max_queued_messages) {
        spdlog::warn("ws {}: not reading its messages, closed", remote_);
        return start_close(websocket::close_code::policy_error, "not reading");
    }
    metrics::add(context_.metrics.messages_out);
    queue_.push_back(std::move(message));
    if (!writing_) do_write();
}

void ws_session::do_write()
{
    writing_ = true;
    ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&ws_session::on_write, shared_from_this()));
}

void ws_session::on_write(beast::error_code ec, std::size_t)
{
    writing_ = false;
    if (ec) {
        if (!quiet(ec)) spdlog::info("ws {}: write: {}", remote_, ec.message());
        queue_.clear();
        return; // the read loop sees the failure too and ends the session
    }
    queue_.pop_front();
    if (!queue_.empty()) return do_write();
    if (pending_close_) {
        ws_.async_close(*pending_close_, [self = shared_from_this()](beast::error_code) {});
        pending_close_.reset();
    }
}

void ws_session::close_gracefully(websocket::close_code code, std::string reason)
{
    net::post(ws_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
        self->begin_close(code, std::move(reason), /*drop_unsent_messages=*/false);
    });
}

void ws_session::start_close(websocket::close_code code, std::string reason)
{
    begin_close(code, std::move(reason), /*drop_unsent_messages=*/true);
}

// Sends the close frame once the write in flight (and, unless dropped, the queue) is done.
void ws_session::begin_close(websocket::close_code code, std::string reason, bool drop_unsent_messages)
{
    if (closing_ || closed_) return;
    closing_ = true;
    if (drop_unsent_messages) drop_unsent();
    websocket::close_reason why{code, std::move(reason)};
    if (writing_ || !accepted_) pending_close_ = std::move(why);
    else ws_.async_close(why, [self = shared_from_this()](beast::error_code) {});
}

// Forgets queued messages, keeping the one being written alive until its write completes.
void ws_session::drop_unsent()
{
    if (queue_.empty()) return;
    auto in_flight = writing_ ? std::move(queue_.front()) : nullptr;
    queue_.clear();
    if (in_flight) queue_.push_back(std::move(in_flight));
}

// The read loop has ended: leave every room's broadcast list.
void ws_session::on_closed()
{
    if (closed_) return;
    closed_ = true;
    for (auto& [id, r] : rooms_) r->detach(shared_from_this());
    rooms_.clear();
    for (auto& [id, t] : tournaments_) t->detach(shared_from_this());
    tournaments_.clear();
    if (player_) spdlog::info("ws {}: {} disconnected", remote_, player_->info.id);
}

} // namespace quarto::server
