// One WebSocket client connection over ws:// or wss:// (TLS with certificate and host name
// verification), driven by callbacks on a single-threaded io_context.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <deque>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast.hpp>
#include <boost/beast/ssl.hpp>

namespace quarto::smoke {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

struct ws_url {
    bool tls = false;
    std::string host;
    std::string port;
    std::string target; // path and query
};
// "wss://localhost:8443/ws" -> {true, "localhost", "8443", "/ws"}; nullopt unless ws:// or wss://.
std::optional<ws_url> parse_ws_url(std::string_view text);

class ws_link : public std::enable_shared_from_this<ws_link> {
public:
    struct close_info {
        std::optional<int> code; // from the server's close frame
        std::string reason;
        std::string error; // how reading ended
    };
    using open_handler = std::function<void(const std::string& error)>; // empty error: open
    using message_handler = std::function<void(const std::string& text)>;
    using close_handler = std::function<void(const close_info&)>;

    // `tls_context` is used for wss:// URLs only; `origin`, when not empty, is sent as Origin.
    ws_link(net::io_context& ioc, ssl::context& tls_context, ws_url url, std::string origin);
    void start(open_handler on_open, message_handler on_message, close_handler on_close);
    void send(std::string text);
    void close(); // a normal close (1000) from our side
    bool open() const { return open_; }

private:
    using plain_stream = websocket::stream<beast::tcp_stream>;
    using tls_stream = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

    void on_resolved(const beast::error_code& ec, const tcp::resolver::results_type& results);
    void on_connected(const beast::error_code& ec);
    void handshake();
    void do_read();
    void do_write();
    void fail(const std::string& what, const beast::error_code& ec);

    template <class F>
    decltype(auto) with_stream(F&& f)
    {
        return std::visit([&](auto& stream) -> decltype(auto) { return f(*stream); }, stream_);
    }

    ws_url url_;
    std::string origin_;
    tcp::resolver resolver_;
    std::variant<std::unique_ptr<plain_stream>, std::unique_ptr<tls_stream>> stream_;
    beast::flat_buffer buffer_;
    std::deque<std::string> outbox_; // the front is being written
    open_handler on_open_;
    message_handler on_message_;
    close_handler on_close_;
    bool open_ = false;
    bool finished_ = false; // on_open_ failed or on_close_ called
};

} // namespace quarto::smoke
