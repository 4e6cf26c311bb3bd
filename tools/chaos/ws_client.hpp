// One client TCP connection that speaks (or pretends to speak) WebSocket, on the soak's single
// io_context. Its owner decides everything a well-behaved client would not: whether to finish
// the upgrade, when to stop reading, whether to answer pings, and how to end (a close frame, a
// bare FIN, or a reset). It reports every message and, once, how the connection ended.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "net.hpp"
#include "ws_wire.hpp"

namespace quarto::chaos {

struct endpoint_settings {
    tcp::endpoint server;
    std::string host_header; // "127.0.0.1:PORT"
    std::string path = "/ws";
    std::optional<net::ip::address> source; // bind the client side to this loopback address
};

class ws_client : public std::enable_shared_from_this<ws_client> {
public:
    enum class message_kind { text, binary, raw /* bytes before (or instead of) an upgrade */ };

    struct ending {
        bool opened = false;              // the upgrade completed
        std::string ours;                 // how we ended it ("close", "abort", "fin"); empty if we did not
        std::optional<int> close_code;    // the server's close frame, if one came
        std::string close_reason;
        std::string transport;            // "eof", "reset", "refused: HTTP/1.1 403 ...", "connect: ...", ...
        double seconds = 0;               // from start() to the end
        std::string describe() const;     // one stable key for counting: "close 1008 not reading", ...
    };

    class listener {
    public:
        virtual void on_open(ws_client& c) = 0; // upgraded (or, without an upgrade, connected)
        virtual void on_message(ws_client& c, message_kind kind, std::string_view payload) = 0;
        virtual void on_end(ws_client& c, const ending& e) = 0;

    protected:
        ~listener() = default;
    };

    ws_client(net::io_context& io, const endpoint_settings& where, listener* owner, std::mt19937_64& random);
    ~ws_client();

    // Before start(): a small receive buffer, so a reader that stops reading fills the server's
    // queue instead of the kernel's.
    void set_receive_buffer(int bytes) { receive_buffer_ = bytes; }
    void set_auto_pong(bool on) { auto_pong_ = on; }
    void start(bool upgrade = true);

    void send_text(std::string_view message) { send_frame(opcode::text, message); }
    void send_frame(opcode op, std::string_view payload) { send_raw(encode_frame(op, payload, random_)); }
    void send_frame(const frame_spec& spec, std::string_view payload) { send_raw(encode_frame(spec, payload, random_)); }
    void send_raw(std::string bytes);

    void pause_reading() { paused_ = true; }
    void resume_reading();

    void close(std::uint16_t code = 1000, std::string_view reason = {}); // close frame, then wait for the server's
    void abort();      // SO_LINGER 0: the server sees a reset
    void half_close(); // FIN without a close frame, then wait for the server to close
    // The owner goes away: no more callbacks; the connection is reset if still open.
    void detach();

    bool opened() const { return opened_; }
    bool ended() const { return ended_; }
    std::size_t queued_bytes() const { return queued_bytes_; }
    std::uint64_t frames_in() const { return frames_in_; }

private:
    void on_connect(const error_code& ec);
    void read_more();
    void on_read(const error_code& ec, std::size_t n);
    void take_frames();
    void write_next();
    void on_failure(const error_code& ec, const char* during);
    void arm_deadline(std::chrono::milliseconds after, const char* what);
    void finish(std::string transport);

    tcp::socket socket_;
    net::steady_timer deadline_;
    endpoint_settings where_;
    listener* owner_;
    std::mt19937_64& random_;
    clock_type::time_point started_{};
    int receive_buffer_ = 0;
    bool auto_pong_ = true;
    bool upgrade_ = true;
    bool connected_ = false;
    bool opened_ = false;
    bool paused_ = false;
    bool reading_ = false;
    bool writing_ = false;
    bool close_sent_ = false;
    bool fin_sent_ = false;
    bool ended_ = false;
    std::string ours_;
    std::optional<int> close_code_;
    std::string close_reason_;
    std::unique_ptr<char[]> chunk_;
    std::string received_;
    std::deque<std::string> outbox_;
    std::size_t queued_bytes_ = 0;
    std::uint64_t frames_in_ = 0;
};

} // namespace quarto::chaos
