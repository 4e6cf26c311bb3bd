#include "http/http_session.hpp"

#include <spdlog/spdlog.h>

#include "analysis/evaluate.hpp"
#include "http/accounts_api.hpp"
#include "http/client_address.hpp"
#include "http/origin_policy.hpp"
#include "http/players_api.hpp"
#include "http/query_string.hpp"
#include "http/content_negotiation.hpp"
#include "http/request_target.hpp"
#include "http/session_cookie.hpp"
#include "http/static_cache.hpp"
#include "net/ws_handshake.hpp"
#include "quarto/archive/game_json.hpp"
#include "quarto/protocol/analysis.hpp"
#include "quarto/protocol/encode.hpp"

namespace quarto::server::http {

namespace bh = beast::http;

namespace {

constexpr std::size_t max_request_body = 8 * 1024;
constexpr std::chrono::seconds request_timeout{30};

bh::response<bh::string_body> text_response(bh::status status, unsigned version, bool keep_alive, std::string body,
                                             std::string_view type = "text/plain; charset=utf-8")
{
    bh::response<bh::string_body> res{status, version};
    res.set(bh::field::server, "quarto-server");
    res.set(bh::field::content_type, type);
    res.set(bh::field::cache_control, "no-store");
    res.keep_alive(keep_alive);
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
}

template <class Field>
std::string_view header_text(const bh::request<bh::string_body>& req, Field f)
{
    const auto value = req[f];
    return {value.data(), value.size()};
}

} // namespace

http_session::http_session(loop_socket&& socket, site& server, std::shared_ptr<void> ticket)
    : stream_{std::move(socket)}, site_{server}, ticket_{std::move(ticket)}
{
}

void http_session::run() { do_read(); }

void http_session::do_read()
{
    parser_.emplace();
    parser_->body_limit(max_request_body);
    stream_.expires_after(request_timeout);
    bh::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&http_session::on_read, shared_from_this()));
}

void http_session::on_read(beast::error_code ec, std::size_t)
{
    if (ec == bh::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted) {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
    }
    if (ec) {
        spdlog::debug("http: read: {}", ec.message());
        // A request the parser refuses gets an answer rather than a reset: headers (or a target)
        // past the parser's limit 431, a body past max_request_body 413, anything else 400.
        if (ec.category() != bh::make_error_code(bh::error::header_limit).category()) return;
        if (ec == bh::error::header_limit)
            return send(text_response(bh::status::request_header_fields_too_large, 11, false,
                                      "The request's headers are too large.\n"));
        if (ec == bh::error::body_limit)
            return send(text_response(bh::status::payload_too_large, 11, false, "The request's body is too large.\n"));
        return send(text_response(bh::status::bad_request, 11, false, "The request could not be read.\n"));
    }
    try {
        serve();
    } catch (const std::exception& e) { // a bug: answer 500 and close, and keep serving others
        spdlog::error("http: {}: {}", std::string_view{parser_->get().target().data(), parser_->get().target().size()},
                      e.what());
        if (!response_) // nothing is being written yet
            send(text_response(bh::status::internal_server_error, parser_->get().version(), false, "Internal error.\n"));
    }
}

void http_session::serve()
{
    auto& req = parser_->get();
    head_ = req.method() == bh::verb::head;
    // RFC 7230 section 5.4: an HTTP/1.1 request with no Host, or more than one, is refused,
    // an upgrade as much as any other.
    if (req.version() >= 11 && req.count(bh::field::host) != 1)
        return send(text_response(bh::status::bad_request, req.version(), false,
                                  "An HTTP/1.1 request needs one Host header.\n"));
    const request_target parsed = parse_request_target({req.target().data(), req.target().size()});
    const std::string_view target = parsed.path_and_query;
    const std::string_view path = target.substr(0, target.find('?'));

    if (net::is_websocket_upgrade(req)) {
        // The absolute-form's authority is the request's host (section 5.4), the Host header's
        // value aside.
        const auto host = req[bh::field::host];
        return upgrade(path, parsed.authority.empty() ? std::string_view{host.data(), host.size()} : parsed.authority);
    }

    const bool keep_alive = req.keep_alive();
    const unsigned version = req.version();
    const bool head = head_;

    if (is_accounts_route(path)) return serve_accounts(path, version, keep_alive);
    if (req.method() != bh::verb::get && !head) {
        auto res = text_response(bh::status::method_not_allowed, version, keep_alive, "Only GET and HEAD are served.\n");
        res.set(bh::field::allow, "GET, HEAD");
        return send(std::move(res));
    }
    site_.count_request();
    if (path == "/metrics")
        return send(text_response(bh::status::ok, version, keep_alive, site_.metrics_text(),
                                  "text/plain; version=0.0.4; charset=utf-8"));
    if (path == "/healthz") return send(text_response(bh::status::ok, version, keep_alive, "ok\n"));
    if (path == "/api/nodes") return send_json(bh::status::ok, version, keep_alive, site_.nodes_json());
    const auto q = target.find('?');
    const std::string_view query = q == std::string_view::npos ? std::string_view{} : target.substr(q + 1);
    if (path == "/api/rooms" || path == "/api/tournaments") {
        const auto page = page_of(query);
        if (const auto* problem = std::get_if<std::string>(&page))
            return send_json(bh::status::bad_request, version, keep_alive, api_error_body("bad_request", *problem));
        const auto& p = std::get<protocol::page_request>(page);
        return send_json(bh::status::ok, version, keep_alive, path == "/api/rooms" ? site_.rooms_json(p) : site_.tournaments_json(p));
    }
    if (auto games = route_games_api(path, query)) return serve_games(std::move(*games), version, keep_alive);
    if (is_players_route(path)) return serve_players_api(site_, path, query, answer_later(version, keep_alive));
    if (auto analysis = route_analysis_api(path, query))
        return serve_position_analysis(std::move(*analysis), version, keep_alive);
    // One room by id, for an invitation's page before its visitor has a name (private rooms too:
    // the id in the link is what lets them in).
    if (constexpr std::string_view prefix = "/api/rooms/"; path.starts_with(prefix)) {
        const auto room = site_.room_json(std::string{path.substr(prefix.size())});
        if (room.empty())
            return send_json(bh::status::not_found, version, keep_alive,
                             protocol::error_reply(protocol::error_code::no_such_room,
                                                   protocol::default_message(protocol::error_code::no_such_room), nullptr));
        return send_json(bh::status::ok, version, keep_alive, room);
    }
    if (constexpr std::string_view prefix = "/api/tournaments/"; path.starts_with(prefix)) {
        const std::string id{path.substr(prefix.size())};
        if (const auto t = site_.tournament_json(id)) return send_json(bh::status::ok, version, keep_alive, *t);
        const auto not_found = [] {
            return protocol::error_reply(protocol::error_code::no_such_tournament,
                                         protocol::default_message(protocol::error_code::no_such_tournament), nullptr);
        };
        const bool asked = site_.other_node_tournament_json(id, [self = shared_from_this(), version, keep_alive,
                                                                 not_found](std::optional<std::string> found) {
            asio::post(self->stream_.get_executor(), [self, version, keep_alive, not_found, found = std::move(found)]() mutable {
                if (!found) return self->send_json(bh::status::not_found, version, keep_alive, not_found());
                self->send_json(bh::status::ok, version, keep_alive, std::move(*found));
            });
        });
        if (!asked) return send_json(bh::status::not_found, version, keep_alive, not_found());
        return;
    }

    serve_static(target, version, keep_alive);
}

// A file of the web root: 304 when the client has this version (If-None-Match), else the
// file, gzipped when the client takes it and that is smaller. Files named under the web root's
// current version may be kept for a year; anything else is revalidated on every use.
void http_session::serve_static(std::string_view target, unsigned version, bool keep_alive)
{
    const auto answer = site_.files().serve(target);
    const auto& file = answer.file;
    if (!file) return send(text_response(bh::status::not_found, version, keep_alive, "Not found.\n"));
    const auto& req = parser_->get();
    const auto header = [&](bh::field f) {
        const auto value = req[f];
        return std::string_view{value.data(), value.size()};
    };
    const auto common = [&](auto& res) {
        res.set(bh::field::server, "quarto-server");
        res.set(bh::field::etag, file->etag);
        res.set(bh::field::cache_control, answer.immutable ? "public, max-age=31536000, immutable" : "no-cache");
        if (!file->gzipped.empty()) res.set(bh::field::vary, "Accept-Encoding");
        res.keep_alive(keep_alive);
    };
    if (etag_matches(header(bh::field::if_none_match), file->etag)) {
        bh::response<bh::empty_body> res{bh::status::not_modified, version};
        common(res);
        return send(std::move(res));
    }
    const bool gzipped = !file->gzipped.empty() && accepts_gzip(header(bh::field::accept_encoding));
    bh::response<bh::string_body> res{bh::status::ok, version};
    common(res);
    res.set(bh::field::content_type, file->content_type);
    if (gzipped) res.set(bh::field::content_encoding, "gzip");
    res.body() = gzipped ? file->gzipped : file->identity;
    res.prepare_payload();
    send(std::move(res));
}

template <class Response>
void http_session::send(Response&& response)
{
    using response_type = std::decay_t<Response>;
    if constexpr (std::is_same_v<response_type, bh::response<bh::string_body>>) {
        if (head_) { // the same headers, Content-Length included, without the body
            bh::response<bh::empty_body> headers{response.base()};
            headers.content_length(response.body().size());
            return send(std::move(headers));
        }
    }
    auto res = std::make_shared<response_type>(std::forward<Response>(response));
    response_ = res;
    const bool keep = res->keep_alive();
    bh::async_write(stream_, *res, beast::bind_front_handler(&http_session::on_write, shared_from_this(), keep));
}

void http_session::send_json(bh::status status, unsigned version, bool keep_alive, std::string body)
{
    send(text_response(status, version, keep_alive, std::move(body), "application/json"));
}

void http_session::serve_games(games_request request, unsigned version, bool keep_alive)
{
    if (const auto* refusal = std::get_if<api_refusal>(&request))
        return send_json(refusal->status, version, keep_alive, api_error_body(refusal->code, refusal->message));
    if (const auto* analysis = std::get_if<game_analysis_lookup>(&request))
        return serve_game_analysis(analysis->id, version, keep_alive);
    archive::game_archive* archive = site_.archive();
    if (!archive)
        return send_json(bh::status::service_unavailable, version, keep_alive,
                         api_error_body("archive_unavailable", "This server keeps no archive."));

    // Runs on the archive thread: builds the body there, then hands it to this connection.
    auto reply = [self = shared_from_this(), version, keep_alive](bh::status status, std::string body) {
        asio::post(self->stream_.get_executor(), [self, status, body = std::move(body), version, keep_alive]() mutable {
            self->send_json(status, version, keep_alive, std::move(body));
        });
    };
    const auto unavailable = [] {
        return api_error_body("archive_unavailable", "The game archive could not be read; please try again later.");
    };
    const auto dump = [](const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };

    if (auto* lookup = std::get_if<game_lookup>(&request)) {
        return archive->find_game(lookup->id, [reply, unavailable, dump, id = lookup->id](auto found) {
            if (found.failed) return reply(bh::status::internal_server_error, unavailable());
            if (!found.value)
                return reply(bh::status::not_found, api_error_body("not_found", "No game with id \"" + id + "\"."));
            reply(bh::status::ok, dump(archive::game_json(*found.value)));
        });
    }
    auto& list = std::get<player_games>(request);
    archive->games_of_player(list.player, list.limit, [reply, unavailable, dump, player = list.player](auto found) {
        if (found.failed) return reply(bh::status::internal_server_error, unavailable());
        reply(bh::status::ok, dump(archive::games_list_json(player, found.value)));
    });
}

namespace {

std::string analysis_busy()
{
    return api_error_body("analysis_busy", "Too many analyses are under way; please try again in a few seconds.");
}

std::string analysis_unavailable()
{
    return api_error_body("analysis_unavailable", "This server runs no analysis.");
}

} // namespace

void http_session::serve_game_analysis(const std::string& id, unsigned version, bool keep_alive)
{
    auto* analyses = site_.game_analyses();
    if (!analyses) return send_json(bh::status::service_unavailable, version, keep_alive, analysis_unavailable());
    // Runs on the archive's thread or the worker's: the answer goes back to this connection.
    analyses->find(id, [self = shared_from_this(), version, keep_alive, id](analysis::game_analyses::answer a) {
        using outcome = analysis::game_analyses::outcome;
        bh::status status = bh::status::ok;
        std::string body;
        switch (a.result) {
        case outcome::ready: body = std::move(a.body); break;
        case outcome::no_such_game:
            status = bh::status::not_found;
            body = api_error_body("not_found", "No game with id \"" + id + "\".");
            break;
        case outcome::archive_failed:
            status = bh::status::internal_server_error;
            body = api_error_body("archive_unavailable", "The game archive could not be read; please try again later.");
            break;
        case outcome::busy:
            status = bh::status::service_unavailable;
            body = analysis_busy();
            break;
        }
        asio::post(self->stream_.get_executor(), [self, status, body = std::move(body), version, keep_alive]() mutable {
            self->send_json(status, version, keep_alive, std::move(body));
        });
    });
}

void http_session::serve_position_analysis(analysis_request request, unsigned version, bool keep_alive)
{
    if (const auto* refusal = std::get_if<api_refusal>(&request))
        return send_json(refusal->status, version, keep_alive, api_error_body(refusal->code, refusal->message));
    auto* worker = site_.analysis_worker();
    if (!worker) return send_json(bh::status::service_unavailable, version, keep_alive, analysis_unavailable());
    const auto& wanted = std::get<position_analysis_request>(request);
    const bool queued = worker->try_submit([self = shared_from_this(), wanted, version, keep_alive](analysis::analysis_worker::context& c) {
        const auto moves = analysis::evaluate_position(c, wanted.game_rules, wanted.at,
                                                       std::chrono::steady_clock::now() + analysis::position_budget);
        std::string body = protocol::position_analysis_json(wanted.game_rules, wanted.at, moves).dump();
        asio::post(self->stream_.get_executor(), [self, body = std::move(body), version, keep_alive]() mutable {
            self->send_json(bh::status::ok, version, keep_alive, std::move(body));
        });
    });
    if (!queued) send_json(bh::status::service_unavailable, version, keep_alive, analysis_busy());
}

// A WebSocket handshake on /ws becomes a client of this loop, unless it is refused: the wrong
// path, a server shutting down, a page from an origin not allowed, one connection too many, or
// a malformed handshake.
void http_session::upgrade(std::string_view path, std::string_view host)
{
    auto& req = parser_->get();
    const auto refuse = [&](bh::status status, std::string body, bool version_header = false) {
        auto res = std::make_shared<bh::response<bh::string_body>>(text_response(status, req.version(), false, std::move(body)));
        if (version_header) res->set(bh::field::sec_websocket_version, "13");
        response_ = res;
        bh::async_write(stream_, *res, beast::bind_front_handler(&http_session::on_write, shared_from_this(), false));
    };
    if (path != "/ws") return refuse(bh::status::not_found, "WebSocket endpoint is /ws\n");
    if (site_.shutting_down()) return refuse(bh::status::service_unavailable, "The server is shutting down.\n");

    beast::error_code peer_error;
    const auto peer = stream_.socket().remote_endpoint(peer_error);
    if (peer_error) return; // already gone
    const auto& settings = site_.http_settings();
    auto client = address_of(req, peer, settings.trust_proxy);

    if (const auto origin = req.find(bh::field::origin); origin != req.end()) {
        const std::string_view origin_text{origin->value().data(), origin->value().size()};
        if (!origin_allowed(origin_text, host, settings.allowed_origins)) {
            spdlog::info("http {}: WebSocket refused: Origin '{}' is not allowed (Host '{}')", client.description,
                         origin_text, host);
            return refuse(bh::status::forbidden, "Origin '" + std::string{origin_text} +
                                                     "' may not open a WebSocket on this server (see --allowed-origin).\n");
        }
    }
    auto accepted = net::accept_handshake(req);
    if (const auto* refusal = std::get_if<net::handshake_refusal>(&accepted)) {
        spdlog::debug("http {}: WebSocket refused: {}", client.description, refusal->reason);
        return refuse(refusal->status, refusal->reason + "\n", refusal->version_mismatch);
    }
    if (settings.trust_proxy) {
        ticket_ = site_.connections_per_address().admit(client.address);
        if (!ticket_) {
            spdlog::info("http {}: WebSocket refused: --max-connections-per-address reached", client.description);
            return refuse(bh::status::too_many_requests, "Too many connections from your address.\n");
        }
    }

    stream_.expires_never();
    auto response = std::make_shared<std::string>(std::move(std::get<std::string>(accepted)));
    asio::async_write(stream_.socket(), asio::buffer(*response),
                      [self = shared_from_this(), response, client = std::move(client),
                       session = session_from_cookies(header_text(req, bh::field::cookie))](
                          beast::error_code ec, std::size_t) mutable {
                          if (ec) return; // gone during the handshake
                          // A client that did not wait for the 101 may have sent its first frames
                          // with the request: what the parser read past the request goes along.
                          const auto rest = self->buffer_.data();
                          std::string already_read{static_cast<const char*>(rest.data()), rest.size()};
                          self->site_.open_websocket(self->stream_.release_socket(), std::move(self->ticket_),
                                                     std::move(client.address), std::move(client.description),
                                                     std::move(already_read), std::move(session));
                      });
}

// The accounts' routes (accounts_api.hpp): any method, answered from this connection's loop
// when the archive and the password pool are done. A request that changes something must come
// from a page of this server (its Origin, when it has one, as for a WebSocket).
void http_session::serve_accounts(std::string_view path, unsigned version, bool keep_alive)
{
    auto& req = parser_->get();
    site_.count_request();
    const auto& settings = site_.http_settings();
    if (req.method() != bh::verb::get && req.method() != bh::verb::head) {
        const auto origin = header_text(req, bh::field::origin);
        const auto host = header_text(req, bh::field::host);
        if (!origin.empty() && !origin_allowed(origin, host, settings.allowed_origins))
            return send_json(bh::status::forbidden, version, keep_alive,
                             api_error_body("forbidden", "This page's origin may not use this server's accounts."));
    }
    beast::error_code peer_error;
    const auto peer = stream_.socket().remote_endpoint(peer_error);
    if (peer_error) return;
    account_call call{req.method(), path, std::move(req.body()), session_from_cookies(header_text(req, bh::field::cookie)),
                      address_of(req, peer, settings.trust_proxy).address,
                      reached_over_tls(header_text(req, "X-Forwarded-Proto"), settings.trust_proxy)};
    serve_accounts_api(site_, std::move(call), answer_later(version, keep_alive));
}

api_answer http_session::answer_later(unsigned version, bool keep_alive)
{
    return [self = shared_from_this(), version, keep_alive](api_reply r) {
        asio::post(self->stream_.get_executor(), [self, version, keep_alive, r = std::move(r)]() mutable {
            auto res = text_response(r.status, version, keep_alive, std::move(r.body), "application/json");
            for (auto& [field, value] : r.headers) res.set(field, value);
            if (r.status == bh::status::no_content) {
                res.body().clear();
                res.erase(bh::field::content_type);
                res.prepare_payload();
            }
            self->send(std::move(res));
        });
    };
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

} // namespace quarto::server::http
