// One WebSocket connection: reads client messages, answers lobby requests itself, and hands
// room messages to the room. Writes go through a bounded queue on the session's strand.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>

#include "connection.hpp"
#include "net.hpp"
#include "player_registry.hpp"
#include "quarto/protocol/parse.hpp"
#include "rate_limiter.hpp"
#include "server_context.hpp"

namespace quarto::server {

class room;
class session_tracker;
class tournament;

// The close reason every client gets when the server stops (with close code 1001).
inline constexpr std::string_view shutdown_close_reason = "server shutting down";

class ws_session : public connection, public std::enable_shared_from_this<ws_session> {
public:
    // A client that lets this many messages pile up unread is disconnected.
    static constexpr std::size_t max_queued_messages = 1024;

    // `remote` names the client in logs (see client_address).
    ws_session(connection_socket&& socket, server_context& context, session_tracker& tracker, std::shared_ptr<void> ticket,
               std::string remote);
    ~ws_session() override;

    void run(http::request<http::string_body> upgrade);
    void send(std::shared_ptr<const std::string> message) override;
    void enter_room(std::shared_ptr<room> r) override;
    // Thread-safe: close after what is queued has been written (server shutdown). Before the
    // handshake has completed, the close follows it.
    void close_gracefully(websocket::close_code code, std::string reason);

private:
    void on_accept(beast::error_code ec);
    void do_read();
    void on_read(beast::error_code ec, std::size_t bytes);
    void handle(std::string_view text);
    void handle_hello(const protocol::hello& h, const nlohmann::json& req);
    void create_room(const protocol::create_room& m, const nlohmann::json& req);
    std::shared_ptr<room> find_room(const protocol::room_id& id);
    void create_tournament(protocol::create_tournament& m, const nlohmann::json& req);

    void reply(const nlohmann::json& message);
    void reply_error(protocol::error_code code, std::string_view message, const nlohmann::json& req);
    void enqueue(std::shared_ptr<const std::string> message);
    void do_write();
    void on_write(beast::error_code ec, std::size_t bytes);
    void drop_unsent();
    // Closes after the write in flight; what is still queued is dropped.
    void start_close(websocket::close_code code, std::string reason);
    void begin_close(websocket::close_code code, std::string reason, bool drop_unsent_messages);
    void on_closed();

    // On the bare socket: the WebSocket stream keeps its own timeouts, so beast::basic_stream's
    // timer layer would only add work to every read and write.
    websocket::stream<connection_socket> ws_;
    beast::flat_buffer buffer_;
    server_context& context_;
    session_tracker& tracker_;
    std::shared_ptr<void> ticket_; // this connection's place under the per-address cap
    std::string remote_;
    rate_limiter limiter_;
    std::shared_ptr<const player_record> player_;
    std::unordered_map<protocol::room_id, std::shared_ptr<room>> rooms_; // rooms this connection is in
    std::unordered_map<protocol::tournament_id, std::shared_ptr<tournament>> tournaments_; // subscribed to
    std::deque<std::shared_ptr<const std::string>> queue_;
    bool writing_ = false;
    std::optional<websocket::close_reason> pending_close_;
    bool closing_ = false;
    bool closed_ = false;
    bool accepted_ = false; // the WebSocket handshake completed
};

} // namespace quarto::server
