#include "ws_link.hpp"

namespace quarto::smoke {

std::optional<ws_url> parse_ws_url(std::string_view text)
{
    ws_url url;
    if (text.starts_with("wss://")) {
        url.tls = true;
        text.remove_prefix(6);
    } else if (text.starts_with("ws://")) {
        text.remove_prefix(5);
    } else {
        return std::nullopt;
    }
    const auto slash = text.find('/');
    std::string_view authority = text.substr(0, slash);
    url.target = slash == std::string_view::npos ? "/" : std::string{text.substr(slash)};
    std::string_view port = url.tls ? "443" : "80";
    if (authority.starts_with('[')) { // [IPv6]:port
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        url.host = std::string{authority.substr(1, close - 1)};
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') return std::nullopt;
            port = authority.substr(close + 2);
        }
    } else {
        const auto colon = authority.find(':');
        url.host = std::string{authority.substr(0, colon)};
        if (colon != std::string_view::npos) port = authority.substr(colon + 1);
    }
    url.port = std::string{port};
    if (url.host.empty() || url.port.empty()) return std::nullopt;
    return url;
}

ws_link::ws_link(net::io_context& ioc, ssl::context& tls_context, ws_url url, std::string origin)
    : url_{std::move(url)}, origin_{std::move(origin)}, resolver_{ioc}
{
    if (url_.tls) stream_ = std::make_unique<tls_stream>(ioc, tls_context);
    else stream_ = std::make_unique<plain_stream>(ioc);
}

void ws_link::start(open_handler on_open, message_handler on_message, close_handler on_close)
{
    on_open_ = std::move(on_open);
    on_message_ = std::move(on_message);
    on_close_ = std::move(on_close);
    resolver_.async_resolve(url_.host, url_.port,
                            [self = shared_from_this()](const beast::error_code& ec, const tcp::resolver::results_type& r) {
                                self->on_resolved(ec, r);
                            });
}

void ws_link::on_resolved(const beast::error_code& ec, const tcp::resolver::results_type& results)
{
    if (ec) return fail("resolve " + url_.host, ec);
    with_stream([&](auto& ws) {
        beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(10));
        beast::get_lowest_layer(ws).async_connect(results, [self = shared_from_this()](const beast::error_code& e,
                                                                                       const tcp::endpoint&) {
            self->on_connected(e);
        });
    });
}

void ws_link::on_connected(const beast::error_code& ec)
{
    if (ec) return fail("connect", ec);
    if (auto* tls = std::get_if<std::unique_ptr<tls_stream>>(&stream_)) {
        auto& ssl_layer = (*tls)->next_layer();
        // SNI, and a certificate that must name the host we asked for.
        if (!SSL_set_tlsext_host_name(ssl_layer.native_handle(), url_.host.c_str()))
            return fail("TLS server name", beast::error_code{static_cast<int>(::ERR_get_error()), net::error::get_ssl_category()});
        ssl_layer.set_verify_mode(ssl::verify_peer);
        ssl_layer.set_verify_callback(ssl::host_name_verification(url_.host));
        ssl_layer.async_handshake(ssl::stream_base::client, [self = shared_from_this()](const beast::error_code& e) {
            if (e) return self->fail("TLS handshake", e);
            self->handshake();
        });
        return;
    }
    handshake();
}

void ws_link::handshake()
{
    with_stream([&](auto& ws) {
        beast::get_lowest_layer(ws).expires_never(); // the WebSocket stream keeps its own timeouts
        ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
        ws.set_option(websocket::stream_base::decorator([origin = origin_](websocket::request_type& req) {
            req.set(beast::http::field::user_agent, "quarto-smoke");
            if (!origin.empty()) req.set(beast::http::field::origin, origin);
        }));
        const bool default_port = url_.port == (url_.tls ? "443" : "80");
        const std::string host = (url_.host.find(':') != std::string::npos ? "[" + url_.host + "]" : url_.host) +
                                 (default_port ? "" : ":" + url_.port);
        ws.async_handshake(host, url_.target, [self = shared_from_this()](const beast::error_code& e) {
            if (e) return self->fail("WebSocket handshake", e);
            self->open_ = true;
            self->with_stream([](auto& s) { s.text(true); });
            self->on_open_({});
            self->do_read();
        });
    });
}

void ws_link::do_read()
{
    with_stream([&](auto& ws) {
        ws.async_read(buffer_, [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
            if (ec) {
                self->open_ = false;
                if (self->finished_) return;
                self->finished_ = true;
                close_info info;
                info.error = ec.message();
                self->with_stream([&](auto& s) {
                    if (s.reason().code != websocket::close_code::none) {
                        info.code = static_cast<int>(s.reason().code);
                        info.reason = std::string{s.reason().reason.data(), s.reason().reason.size()};
                    }
                });
                return self->on_close_(info);
            }
            const std::string text = beast::buffers_to_string(self->buffer_.data());
            self->buffer_.consume(self->buffer_.size());
            self->on_message_(text);
            self->do_read();
        });
    });
}

void ws_link::send(std::string text)
{
    if (!open_) return;
    outbox_.push_back(std::move(text));
    if (outbox_.size() == 1) do_write();
}

void ws_link::do_write()
{
    with_stream([&](auto& ws) {
        ws.async_write(net::buffer(outbox_.front()), [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
            if (ec) return; // the read side reports the end of the connection
            self->outbox_.pop_front();
            if (!self->outbox_.empty()) self->do_write();
        });
    });
}

void ws_link::close()
{
    if (!open_) return;
    open_ = false;
    with_stream([&](auto& ws) {
        ws.async_close(websocket::close_code::normal, [self = shared_from_this()](const beast::error_code&) {});
    });
}

void ws_link::fail(const std::string& what, const beast::error_code& ec)
{
    if (finished_) return;
    finished_ = true;
    on_open_(what + ": " + ec.message());
}

} // namespace quarto::smoke
