// The test WebSocket and HTTP clients; see ws_client.hpp.
#include "ws_client.hpp"

#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace quarto_test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

tcp::endpoint local(unsigned short port)
{
    return {net::ip::make_address("127.0.0.1"), port};
}

// Runs `ioc` until `done()` or the deadline; false at the deadline or when nothing is left to run.
bool run_ioc_until(net::io_context& ioc, const std::function<bool()>& done, steady::time_point deadline)
{
    while (!done()) {
        if (steady::now() >= deadline) return false;
        if (ioc.stopped()) ioc.restart();
        if (ioc.run_one_until(deadline) == 0 && ioc.stopped() && !done() && steady::now() < deadline) {
            // No work left at all: nothing more can happen.
            return done();
        }
    }
    return true;
}

} // namespace

struct ws_client::impl {
    net::io_context ioc_;
    // A bare socket: run_until() keeps every deadline, so the stream needs no timers of its own.
    websocket::stream<tcp::socket> ws_{ioc_};
    beast::flat_buffer buffer_;
    bool reading_ = false;
    bool closed_ = false;
    std::optional<std::uint16_t> close_code_;
    std::string close_reason_;
    std::string close_error_;
    std::deque<json> pending_;
    std::vector<json> history_;
    std::vector<std::string> raw_history_;

    void connect(unsigned short port, const std::string& target, const header_list& headers,
                 steady::time_point deadline);
    void start_read();
    bool run_until(const std::function<bool()>& done, steady::time_point deadline)
    {
        return run_ioc_until(ioc_, done, deadline);
    }
};

bool ws_client::closed() const { return impl_->closed_; }
std::optional<std::uint16_t> ws_client::close_code() const { return impl_->close_code_; }
std::string ws_client::close_reason() const { return impl_->close_reason_; }
std::string ws_client::close_error() const { return impl_->close_error_; }
const std::vector<json>& ws_client::history() const { return impl_->history_; }
const std::vector<std::string>& ws_client::raw_history() const { return impl_->raw_history_; }
const std::deque<json>& ws_client::pending() const { return impl_->pending_; }

ws_client::ws_client(unsigned short port, const std::string& target, steady::time_point deadline)
    : impl_{std::make_unique<impl>()}
{
    impl_->connect(port, target, {}, deadline);
}

ws_client::ws_client(unsigned short port, const header_list& headers, steady::time_point deadline)
    : impl_{std::make_unique<impl>()}
{
    impl_->connect(port, "/ws", headers, deadline);
}

void ws_client::impl::connect(unsigned short port, const std::string& target, const header_list& headers,
                              steady::time_point deadline)
{
    if (!headers.empty())
        ws_.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
            for (const auto& [name, value] : headers) req.set(name, value);
        }));
    beast::error_code result = net::error::would_block;
    bool finished = false;
    ws_.next_layer().async_connect(local(port), [&](beast::error_code ec) {
        if (ec) {
            result = ec;
            finished = true;
            return;
        }
        ws_.async_handshake("127.0.0.1:" + std::to_string(port), target, [&](beast::error_code ec2) {
            result = ec2;
            finished = true;
        });
    });
    if (!run_until([&] { return finished; }, deadline) || result)
        throw std::runtime_error("websocket connect to port " + std::to_string(port) + " failed: " +
                                 (finished ? result.message() : std::string{"timed out"}));
    ws_.text(true);
    ws_.auto_fragment(false);         // one frame per message, so frame size == message size
    ws_.read_message_max(16u << 20); // the client accepts anything the server sends
    start_read();
}

ws_client::~ws_client()
{
    beast::error_code ec;
    impl_->ws_.next_layer().close(ec);
}

void ws_client::impl::start_read()
{
    if (reading_ || closed_) return;
    reading_ = true;
    ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
        reading_ = false;
        if (ec) {
            closed_ = true;
            close_error_ = ec.message();
            // The server's close frame may have arrived even if the handshake then failed
            // (e.g. a reset while our own large frame was still being written).
            if (ec == websocket::error::closed || ws_.reason().code != websocket::close_code::none) {
                close_code_ = static_cast<std::uint16_t>(ws_.reason().code);
                close_reason_ = std::string{ws_.reason().reason.data(), ws_.reason().reason.size()};
            }
            return;
        }
        std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        json message = json::parse(text, nullptr, false);
        if (message.is_discarded()) message = json{{"type", "<not json>"}, {"raw", text}};
        history_.push_back(message);
        raw_history_.push_back(std::move(text));
        pending_.push_back(std::move(message));
        start_read();
    });
}

bool ws_client::send(const json& message)
{
    return send_text(message.dump());
}

bool ws_client::send_text(std::string text) { return send_frame(std::move(text), false); }

bool ws_client::send_binary(std::string bytes) { return send_frame(std::move(bytes), true); }

bool ws_client::send_frame(std::string payload_bytes, bool binary)
{
    auto& ws_ = impl_->ws_;
    if (impl_->closed_) return false;
    ws_.binary(binary);
    auto payload = std::make_shared<std::string>(std::move(payload_bytes));
    bool finished = false;
    beast::error_code result;
    ws_.async_write(net::buffer(*payload), [&, payload](beast::error_code ec, std::size_t) {
        result = ec;
        finished = true;
    });
    // A write to a live local server completes at once; the deadline only guards a hang.
    if (!impl_->run_until([&] { return finished; }, in(default_wait))) return false;
    return !result;
}

std::optional<json> ws_client::next(steady::time_point deadline)
{
    auto& pending_ = impl_->pending_;
    impl_->run_until([&] { return !pending_.empty() || impl_->closed_; }, deadline);
    if (pending_.empty()) return std::nullopt;
    json message = std::move(pending_.front());
    pending_.pop_front();
    return message;
}

std::optional<json> ws_client::wait_for(const std::function<bool(const json&)>& pred, steady::time_point deadline)
{
    for (;;) {
        std::optional<json> message = next(deadline);
        if (!message) return std::nullopt;
        if (pred(*message)) return message;
    }
}

std::optional<json> ws_client::wait_type(const std::string& type, steady::time_point deadline)
{
    return wait_for([&](const json& m) { return m.value("type", "") == type; }, deadline);
}

void ws_client::poll()
{
    auto& ioc = impl_->ioc_;
    if (ioc.stopped()) ioc.restart();
    ioc.poll();
}

void ws_client::pump(milliseconds d)
{
    impl_->run_until([] { return false; }, in(d));
}

bool ws_client::wait_closed(steady::time_point deadline)
{
    return impl_->run_until([&] { return impl_->closed_; }, deadline);
}

void ws_client::close()
{
    impl& i = *impl_;
    if (i.closed_) return;
    bool finished = false;
    i.ws_.async_close(websocket::close_code::normal, [&](beast::error_code) { finished = true; });
    i.run_until([&] { return finished && !i.reading_; }, in(milliseconds{1000}));
    i.closed_ = true;
}

void ws_client::drop()
{
    impl& i = *impl_;
    beast::error_code ec;
    i.ws_.next_layer().shutdown(tcp::socket::shutdown_both, ec);
    i.ws_.next_layer().close(ec);
    i.run_until([&] { return !i.reading_; }, in(milliseconds{1000}));
    i.closed_ = true;
}

struct silent_client::impl {
    net::io_context ioc_;
    websocket::stream<tcp::socket> ws_{ioc_};
};

silent_client::silent_client(unsigned short port) : impl_{std::make_unique<impl>()}
{
    auto& socket = impl_->ws_.next_layer();
    socket.open(tcp::v4());
    // Set before connecting, so that the advertised window stays this small.
    socket.set_option(net::socket_base::receive_buffer_size(4096));
    socket.connect(local(port));
    impl_->ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
    impl_->ws_.text(true);
}

silent_client::~silent_client()
{
    beast::error_code ec;
    impl_->ws_.next_layer().close(ec);
}

bool silent_client::send(const json& message)
{
    beast::error_code ec;
    impl_->ws_.write(net::buffer(message.dump()), ec);
    return !ec;
}

bool tcp_connects(unsigned short port)
{
    net::io_context ioc;
    tcp::socket socket{ioc};
    beast::error_code ec;
    socket.connect(local(port), ec); // loopback: refused or accepted at once
    return !ec;
}

struct http_connection::impl {
    net::io_context ioc_;
    tcp::socket stream_{ioc_};
    beast::flat_buffer buffer_;
    unsigned short port_ = 0;
};

http_connection::http_connection(unsigned short port) : impl_{std::make_unique<impl>()}
{
    impl_->port_ = port;
    impl_->stream_.connect(local(port));
}

http_connection::~http_connection()
{
    beast::error_code ec;
    impl_->stream_.close(ec);
}

http_response http_connection::get(const std::string& target, const header_list& headers, steady::time_point deadline)
{
    return request("GET", target, {}, headers, deadline);
}

http_response http_connection::request(const std::string& method, const std::string& target, const std::string& body,
                                       const header_list& headers, steady::time_point deadline)
{
    auto& i = *impl_;
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1:" + std::to_string(i.port_));
    for (const auto& [name, value] : headers) req.set(name, value);
    if (!body.empty()) {
        req.set(http::field::content_type, "application/json");
        req.body() = body;
    }
    if (!body.empty() || req.method() == http::verb::post) req.prepare_payload();
    http::response<http::string_body> res;
    beast::error_code result = net::error::would_block;
    bool finished = false;
    std::size_t wire_bytes = 0;
    http::async_write(i.stream_, req, [&](beast::error_code ec, std::size_t) {
        if (ec) {
            result = ec;
            finished = true;
            return;
        }
        http::async_read(i.stream_, i.buffer_, res, [&](beast::error_code ec2, std::size_t bytes) {
            result = ec2;
            wire_bytes = bytes;
            finished = true;
        });
    });
    if (!run_ioc_until(i.ioc_, [&] { return finished; }, deadline) || result)
        throw std::runtime_error(method + " " + target + " failed: " +
                                 (finished ? result.message() : std::string{"timed out"}));
    header_list fields;
    for (const auto& f : res) fields.emplace_back(std::string{f.name_string()}, std::string{f.value()});
    return {res.result_int(), std::string{res[http::field::content_type]}, std::move(res.body()), std::move(fields),
            wire_bytes};
}

std::string http_response::header(std::string_view name) const
{
    for (const auto& [key, value] : headers)
        if (beast::iequals(key, name)) return value;
    return {};
}

http_response http_get(unsigned short port, const std::string& target, steady::time_point deadline)
{
    return http_get(port, target, header_list{}, deadline);
}

http_response http_get(unsigned short port, const std::string& target, const header_list& headers,
                       steady::time_point deadline)
{
    // One request on its own connection: the same code path as http_connection, so that
    // Beast's HTTP read and write are compiled once for the harness.
    // Connection: close first, so that a test's own Connection header replaces it.
    header_list with_close{{"Connection", "close"}};
    with_close.insert(with_close.end(), headers.begin(), headers.end());
    try {
        return http_connection{port}.get(target, with_close, deadline);
    } catch (const boost::system::system_error& e) {
        throw std::runtime_error("GET " + target + " failed: " + e.code().message());
    }
}

http_response http_request(unsigned short port, const std::string& method, const std::string& target,
                           const std::string& body, const header_list& headers, steady::time_point deadline)
{
    header_list with_close{{"Connection", "close"}};
    with_close.insert(with_close.end(), headers.begin(), headers.end());
    try {
        return http_connection{port}.request(method, target, body, with_close, deadline);
    } catch (const boost::system::system_error& e) {
        throw std::runtime_error(method + " " + target + " failed: " + e.code().message());
    }
}

} // namespace quarto_test
