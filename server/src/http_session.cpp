#include "http_session.hpp"

#include <spdlog/spdlog.h>

#include "games_api.hpp"
#include "quarto/archive/game_json.hpp"
#include "client_address.hpp"
#include "origin_policy.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "room_registry.hpp"
#include "tournament_registry.hpp"
#include "static_files.hpp"
#include "ws_session.hpp"

namespace quarto::server {

namespace {

constexpr std::size_t max_request_body = 8 * 1024;

http::response<http::string_body> text_response(http::status status, unsigned version, bool keep_alive,
                                                std::string body, std::string_view type = "text/plain; charset=utf-8")
{
    http::response<http::string_body> res{status, version};
    res.set(http::field::server, "quarto-server");
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-store");
    res.keep_alive(keep_alive);
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
}

} // namespace

http_session::http_session(connection_socket&& socket, server_context& context, session_tracker& tracker,
                           std::shared_ptr<void> ticket)
    : stream_{std::move(socket)}, context_{context}, tracker_{tracker}, ticket_{std::move(ticket)}
{
}

void http_session::run()
{
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&http_session::do_read, shared_from_this()));
}

void http_session::do_read()
{
    parser_.emplace();
    parser_->body_limit(max_request_body);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&http_session::on_read, shared_from_this()));
}

void http_session::on_read(beast::error_code ec, std::size_t)
{
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted) {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
    }
    if (ec) {
        spdlog::debug("http: read: {}", ec.message());
        return;
    }

    auto& req = parser_->get();
    const std::string_view target{req.target().data(), req.target().size()};
    const std::string_view path = target.substr(0, target.find('?'));

    if (websocket::is_upgrade(req)) return upgrade(path);

    const bool keep_alive = req.keep_alive();
    const unsigned version = req.version();
    const bool head = req.method() == http::verb::head;
    head_ = head;

    if (req.method() != http::verb::get && !head) {
        auto res = text_response(http::status::method_not_allowed, version, keep_alive, "Only GET and HEAD are served.\n");
        res.set(http::field::allow, "GET, HEAD");
        return send(std::move(res));
    }
    metrics::add(context_.metrics.http_requests);
    if (path == "/metrics")
        return send(text_response(http::status::ok, version, keep_alive, context_.metrics.prometheus_text(),
                                  "text/plain; version=0.0.4; charset=utf-8"));
    if (path == "/healthz") return send(text_response(http::status::ok, version, keep_alive, "ok\n"));
    if (path == "/api/rooms") {
        const auto summaries = context_.rooms->list_public();
        return send(text_response(http::status::ok, version, keep_alive,
                                  protocol::rooms_list(summaries, nullptr).dump(), "application/json"));
    }
    const auto q = target.find('?');
    const std::string_view query = q == std::string_view::npos ? std::string_view{} : target.substr(q + 1);
    if (auto games = route_games_api(path, query)) return serve_games(std::move(*games), version, keep_alive);
    if (path == "/api/tournaments") {
        const auto summaries = context_.tournaments->list();
        return send(text_response(http::status::ok, version, keep_alive,
                                  protocol::tournaments_list(summaries, nullptr).dump(), "application/json"));
    }
    if (constexpr std::string_view prefix = "/api/tournaments/"; path.starts_with(prefix)) {
        const auto t = context_.tournaments->find(std::string{path.substr(prefix.size())});
        if (!t)
            return send(text_response(http::status::not_found, version, keep_alive,
                                      protocol::error_reply(protocol::error_code::no_such_tournament,
                                                            protocol::default_message(protocol::error_code::no_such_tournament),
                                                            nullptr)
                                          .dump(),
                                      "application/json"));
        return send(text_response(http::status::ok, version, keep_alive, *t->snapshot_text(), "application/json"));
    }

    beast::error_code not_found;
    auto file = serve_file(context_.settings.web_root, target, version, keep_alive, not_found);
    if (not_found) return send(text_response(http::status::not_found, version, keep_alive, "Not found.\n"));
    if (head) {
        http::response<http::empty_body> res{http::status::ok, version};
        res.set(http::field::server, "quarto-server");
        res.set(http::field::content_type, file[http::field::content_type]);
        res.content_length(file.body().size());
        res.keep_alive(keep_alive);
        return send(std::move(res));
    }
    return send(std::move(file));
}

template <class Response>
void http_session::send(Response&& response)
{
    using response_type = std::decay_t<Response>;
    if constexpr (std::is_same_v<response_type, http::response<http::string_body>>) {
        if (head_) { // the same headers, Content-Length included, without the body
            http::response<http::empty_body> headers{response.base()};
            headers.content_length(response.body().size());
            return send(std::move(headers));
        }
    }
    auto res = std::make_shared<response_type>(std::forward<Response>(response));
    response_ = res;
    const bool keep = res->keep_alive();
    http::async_write(stream_, *res, beast::bind_front_handler(&http_session::on_write, shared_from_this(), keep));
}

void http_session::send_json(http::status status, unsigned version, bool keep_alive, std::string body)
{
    send(text_response(status, version, keep_alive, std::move(body), "application/json"));
}

void http_session::serve_games(games_request request, unsigned version, bool keep_alive)
{
    if (const auto* refusal = std::get_if<api_refusal>(&request))
        return send_json(refusal->status, version, keep_alive, api_error_body(refusal->code, refusal->message));

    // Runs on the archive thread: builds the body there, then hands it to this connection.
    auto reply = [self = shared_from_this(), version, keep_alive](http::status status, std::string body) {
        net::post(self->stream_.get_executor(), [self, status, body = std::move(body), version, keep_alive]() mutable {
            self->send_json(status, version, keep_alive, std::move(body));
        });
    };
    const auto unavailable = [] {
        return api_error_body("archive_unavailable", "The game archive could not be read; please try again later.");
    };
    const auto dump = [](const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };

    if (auto* lookup = std::get_if<game_lookup>(&request)) {
        return context_.archive->find_game(lookup->id, [reply, unavailable, dump, id = lookup->id](auto found) {
            if (found.failed) return reply(http::status::internal_server_error, unavailable());
            if (!found.value)
                return reply(http::status::not_found, api_error_body("not_found", "No game with id \"" + id + "\"."));
            reply(http::status::ok, dump(archive::game_json(*found.value)));
        });
    }
    auto& list = std::get<player_games>(request);
    context_.archive->games_of_player(list.player, list.limit, [reply, unavailable, dump, player = list.player](auto found) {
        if (found.failed) return reply(http::status::internal_server_error, unavailable());
        reply(http::status::ok, dump(archive::games_list_json(player, found.value)));
    });
}

// A WebSocket handshake on /ws becomes a ws_session, unless it is refused: the wrong path, a
// server shutting down, a page from an origin not allowed, or one connection too many.
void http_session::upgrade(std::string_view path)
{
    auto& req = parser_->get();
    const auto refuse = [&](http::status status, std::string body) {
        auto res = std::make_shared<http::response<http::string_body>>(
            text_response(status, req.version(), false, std::move(body)));
        response_ = res;
        http::async_write(stream_, *res, beast::bind_front_handler(&http_session::on_write, shared_from_this(), false));
    };
    if (path != "/ws") return refuse(http::status::not_found, "WebSocket endpoint is /ws\n");
    if (context_.shutting_down.load()) return refuse(http::status::service_unavailable, "The server is shutting down.\n");

    beast::error_code peer_error;
    const auto peer = stream_.socket().remote_endpoint(peer_error);
    if (peer_error) return; // already gone
    const auto client = address_of(req, peer, context_.settings.trust_proxy);

    if (const auto origin = req.find(http::field::origin); origin != req.end()) {
        const std::string_view origin_text{origin->value().data(), origin->value().size()};
        const std::string_view host{req[http::field::host].data(), req[http::field::host].size()};
        if (!origin_allowed(origin_text, host, context_.settings.allowed_origins)) {
            spdlog::info("http {}: WebSocket refused: Origin '{}' is not allowed (Host '{}')", client.description,
                         origin_text, host);
            return refuse(http::status::forbidden,
                          "Origin '" + std::string{origin_text} +
                              "' may not open a WebSocket on this server (see --allowed-origin).\n");
        }
    }
    if (context_.settings.trust_proxy) {
        ticket_ = context_.connections_per_address->admit(client.address);
        if (!ticket_) {
            spdlog::info("http {}: WebSocket refused: --max-connections-per-address reached", client.description);
            return refuse(http::status::too_many_requests, "Too many connections from your address.\n");
        }
    }

    stream_.expires_never(); // the WebSocket stream sets its own timeouts
    std::make_shared<ws_session>(stream_.release_socket(), context_, tracker_, std::move(ticket_), client.description)
        ->run(parser_->release());
}

void http_session::on_write(bool keep_alive, beast::error_code ec, std::size_t)
{
    response_.reset();
    if (ec) {
        spdlog::debug("http: write: {}", ec.message());
        return;
    }
    if (!keep_alive) {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
    }
    do_read();
}

} // namespace quarto::server
