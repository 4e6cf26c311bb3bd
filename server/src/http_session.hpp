// One HTTP connection: serves the browser client, /healthz, /api/rooms and /api/games, and
// hands a WebSocket upgrade on /ws to a ws_session. /api/games is answered by the archive's
// thread; the answer comes back to this connection's executor, so no I/O thread waits on disk.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "games_api.hpp"
#include "net.hpp"
#include "server_context.hpp"

namespace quarto::server {

class session_tracker;

class http_session : public std::enable_shared_from_this<http_session> {
public:
    http_session(connection_socket&& socket, server_context& context, session_tracker& tracker, std::shared_ptr<void> ticket);
    void run();

private:
    void do_read();
    void on_read(beast::error_code ec, std::size_t bytes);
    void upgrade(std::string_view path);
    void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
    // Writes `response` (headers only for a HEAD request), then reads the next request.
    template <class Response>
    void send(Response&& response);
    // Asks the archive; answers from this connection's executor when it replies.
    void serve_games(games_request request, unsigned version, bool keep_alive);
    void send_json(http::status status, unsigned version, bool keep_alive, std::string body);

    connection_stream stream_;
    beast::flat_buffer buffer_;
    server_context& context_;
    session_tracker& tracker_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<void> response_; // the response being written
    std::shared_ptr<void> ticket_;   // this connection's place under the per-address cap
    bool head_ = false;              // the request being answered is a HEAD
};

} // namespace quarto::server
