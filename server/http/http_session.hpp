// One HTTP connection: serves the browser client, /healthz, /metrics and the /api documents,
// and takes a WebSocket upgrade on /ws through its opening handshake before handing the socket
// to its loop's site. /api/games is answered by the archive's thread, /api/analysis and
// /api/games/{id}/analysis by the analysis worker's; the answer comes back to this connection's
// loop, so no loop waits on the disk or on a search.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "http/accounts_api.hpp"
#include "http/analysis_api.hpp"
#include "http/games_api.hpp"
#include "http/site.hpp"
#include "net/asio.hpp"

namespace quarto::server::http {

class http_session : public std::enable_shared_from_this<http_session> {
public:
    http_session(loop_socket&& socket, site& server, std::shared_ptr<void> ticket);
    void run();

private:
    using stream_type = beast::basic_stream<tcp, loop_executor>;
    using request_type = beast::http::request<beast::http::string_body>;

    void do_read();
    void on_read(beast::error_code ec, std::size_t bytes);
    // Answers the request read (or upgrades it).
    void serve();
    // `host`: the request's host[:port], as the origin policy compares it.
    void upgrade(std::string_view path, std::string_view host);
    void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
    // Writes `response` (headers only for a HEAD request), then reads the next request.
    template <class Response>
    void send(Response&& response);
    // Asks the archive; answers from this connection's loop when it replies.
    void serve_games(games_request request, unsigned version, bool keep_alive);
    // The analysis worker's; answers from this connection's loop when it is done.
    void serve_game_analysis(const std::string& id, unsigned version, bool keep_alive);
    void serve_position_analysis(analysis_request request, unsigned version, bool keep_alive);
    void send_json(beast::http::status status, unsigned version, bool keep_alive, std::string body);
    void serve_static(std::string_view target, unsigned version, bool keep_alive);
    void serve_accounts(std::string_view path, unsigned version, bool keep_alive);
    // An answer from another thread, sent from this connection's loop.
    api_answer answer_later(unsigned version, bool keep_alive);

    stream_type stream_;
    beast::flat_buffer buffer_;
    site& site_;
    std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
    std::shared_ptr<void> response_; // the response being written
    std::shared_ptr<void> ticket_;   // this connection's place under the per-address cap
    bool head_ = false;              // the request being answered is a HEAD
};

} // namespace quarto::server::http
