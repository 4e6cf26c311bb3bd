// A small Beast WebSocket client for the tests: every wait has a deadline (the client's own
// io_context runs until the awaited thing happens or time is up), and everything received is
// kept so tests can check order afterwards. Beast stays in the .cpp to keep test builds quick.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace quarto_test {

using json = nlohmann::json;
using steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a test waits for something the server should do "at once". Only a failing test
// waits this long, so it is sized for a sanitizer build on a loaded 2-core machine (ctest -j2
// beside other builds), not for how quickly the answer usually comes.
inline constexpr milliseconds default_wait{10000};
inline steady::time_point in(milliseconds d) { return steady::now() + d; }

// Extra request header fields, e.g. {{"Origin", "https://example.org"}}.
using header_list = std::vector<std::pair<std::string, std::string>>;

class ws_client {
public:
    // Connects to ws://127.0.0.1:PORT/ws; throws if that fails before the deadline.
    explicit ws_client(unsigned short port, const std::string& target = "/ws",
                       steady::time_point deadline = in(default_wait));
    // The same with extra handshake header fields.
    ws_client(unsigned short port, const header_list& headers, steady::time_point deadline = in(default_wait));
    ~ws_client();
    ws_client(const ws_client&) = delete;
    ws_client& operator=(const ws_client&) = delete;

    // Sends one text frame; false if the write failed (e.g. the server has closed).
    bool send(const json& message);
    bool send_text(std::string text);
    // One binary frame.
    bool send_binary(std::string bytes);

    // The next message not yet consumed, or nullopt at the deadline or when closed.
    std::optional<json> next(steady::time_point deadline = in(default_wait));
    // Consumes messages until one satisfies `pred` and returns it; nullopt at the deadline.
    std::optional<json> wait_for(const std::function<bool(const json&)>& pred,
                                 steady::time_point deadline = in(default_wait));
    // wait_for a message of this type.
    std::optional<json> wait_type(const std::string& type, steady::time_point deadline = in(default_wait));
    // Reads whatever arrives within `d` without consuming it (pending() shows it).
    void pump(milliseconds d);
    // Reads what has arrived already, without waiting (pending() shows it).
    void poll();

    // Waits until the server has closed the connection; false at the deadline.
    bool wait_closed(steady::time_point deadline = in(default_wait));
    bool closed() const;
    // The close code the server sent, if it closed with a close frame.
    std::optional<std::uint16_t> close_code() const;
    // The reason the server gave with its close frame.
    std::string close_reason() const;
    // Why reading stopped ("" while open): e.g. "The WebSocket stream was gracefully closed".
    std::string close_error() const;

    // Closes from our side (close code 1000) and waits briefly for the handshake to finish.
    void close();
    // Drops the TCP connection without a close frame (a vanished peer).
    void drop();

    // Everything received, in order, including consumed messages.
    const std::vector<json>& history() const;
    // The same, as the text the server sent.
    const std::vector<std::string>& raw_history() const;
    const std::deque<json>& pending() const;

private:
    bool send_frame(std::string payload, bool binary);
    struct impl;
    std::unique_ptr<impl> impl_;
};

// A WebSocket client that writes but never reads: its receive window fills up and the
// server's writes to it stall (a stuck browser tab, a client on a dead network).
class silent_client {
public:
    // Connects with a small receive buffer; throws on failure.
    explicit silent_client(unsigned short port);
    ~silent_client();
    silent_client(const silent_client&) = delete;
    silent_client& operator=(const silent_client&) = delete;
    // Blocking write of one text frame; false on failure.
    bool send(const json& message);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// A plain HTTP/1.1 GET to 127.0.0.1:PORT.
struct http_response {
    unsigned status = 0;
    std::string content_type;
    std::string body;
    header_list headers;        // every header field, as received
    std::size_t wire_bytes = 0; // the response's size on the wire, headers included
    // The first value of `name` (case-insensitive), empty if none.
    std::string header(std::string_view name) const;
};
http_response http_get(unsigned short port, const std::string& target,
                       steady::time_point deadline = in(default_wait));
// The same with extra header fields (e.g. a hand-made WebSocket upgrade).
http_response http_get(unsigned short port, const std::string& target, const header_list& headers,
                       steady::time_point deadline = in(default_wait));

// Any method on its own connection (POST, DELETE), with a JSON body when `body` is not empty.
http_response http_request(unsigned short port, const std::string& method, const std::string& target,
                           const std::string& body, const header_list& headers = {},
                           steady::time_point deadline = in(default_wait));

// One kept-alive HTTP/1.1 connection to 127.0.0.1:PORT for several requests.
class http_connection {
public:
    explicit http_connection(unsigned short port); // throws if the connection fails
    ~http_connection();
    http_connection(const http_connection&) = delete;
    http_connection& operator=(const http_connection&) = delete;
    http_response get(const std::string& target, const header_list& headers = {},
                      steady::time_point deadline = in(default_wait));
    // Any method, with a JSON body when `body` is not empty.
    http_response request(const std::string& method, const std::string& target, const std::string& body,
                          const header_list& headers = {}, steady::time_point deadline = in(default_wait));

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// Whether a TCP connection to 127.0.0.1:PORT is accepted.
bool tcp_connects(unsigned short port);

} // namespace quarto_test
