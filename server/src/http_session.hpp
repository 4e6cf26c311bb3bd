// One HTTP connection: serves the browser client, /healthz and /api/rooms, and hands a
// WebSocket upgrade on /ws to a ws_session.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "net.hpp"
#include "server_context.hpp"

namespace quarto::server {

class session_tracker;

class http_session : public std::enable_shared_from_this<http_session> {
public:
    http_session(tcp::socket&& socket, server_context& context, session_tracker& tracker, std::shared_ptr<void> ticket);
    void run();

private:
    void do_read();
    void on_read(beast::error_code ec, std::size_t bytes);
    void upgrade(std::string_view path);
    void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    server_context& context_;
    session_tracker& tracker_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<void> response_; // the response being written
    std::shared_ptr<void> ticket_;   // this connection's place under the per-address cap
};

} // namespace quarto::server
