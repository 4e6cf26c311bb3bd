// One WebSocket connection after its opening handshake: transport only. It reads frames,
// answers pings, reassembles fragmented messages and hands complete ones to its owner; it
// queues outgoing frames (bounded by count and bytes) and writes everything queued during one
// turn of the loop in one gathered send; it runs the close handshake and the idle timeouts.
// What a message means is the owner's business (shards/client).
//
// Single-threaded: every call happens on the event loop the socket is registered with (a
// level-triggered epoll: one read per readiness, no read that fails with EAGAIN). A connection
// can move to another loop (release(), then a new connection from the handover) without the
// peer noticing.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frame/frame.hpp"
#include "net/event_loop.hpp"
#include "net/utf8_validator.hpp"

namespace quarto::server::net {

// Close codes the server sends (RFC 6455 section 7.4.1).
enum class close_code : std::uint16_t {
    normal = 1000,
    going_away = 1001,
    protocol_error = 1002,
    invalid_payload = 1007, // a text message, or a close reason, that is not UTF-8
    policy_violation = 1008,
    message_too_big = 1009,
    service_restart = 1012,
    // Application codes (4000..4999, RFC 6455 7.4.2).
    session_ended = 4001, // the account's sessions were ended: log out everywhere, a new password, deletion
};

class ws_connection final : public event_loop::handler {
public:
    using clock = std::chrono::steady_clock;

    // Silence after which the server pings, and after which it gives the peer up.
    static constexpr std::chrono::seconds ping_after{10};
    static constexpr std::chrono::seconds idle_timeout{20};
    // How long a close handshake the server started may wait for the peer's close frame.
    static constexpr std::chrono::seconds close_timeout{5};
    static constexpr std::chrono::seconds linger_timeout{2};

    // The owner: what the connection's messages are for.
    class events {
    public:
        // A complete text message, unmasked and reassembled; valid during the call only.
        virtual void on_text(std::string_view message) = 0;
        virtual void on_binary() = 0;
        // The connection has ended (closed, failed or timed out). Called once; nothing is
        // sent or received after it.
        virtual void on_closed() = 0;

    protected:
        ~events() = default;
    };

    // Who writes queued frames at the end of the loop's turn: a connection with frames to
    // write asks once per turn, and its flush() is called then.
    class flusher {
    public:
        virtual void needs_flush(ws_connection& c) = 0;

    protected:
        ~flusher() = default;
    };

    struct limits {
        std::size_t max_message_bytes = 4096;
        std::size_t max_queued_messages = 1024;
        std::size_t max_queued_bytes = 8 << 20;
    };

    // Everything a connection carries to another loop.
    struct handover {
        int fd = -1;
        std::string unread;          // bytes received but not yet taken apart into frames
        std::string partial_message; // the first fragments of a message in progress
        opcode partial_op = opcode::text;
        bool in_message = false;
        utf8_validator partial_text; // where a text message in progress stands
        std::vector<frame_ptr> queue; // frames not yet (wholly) written; the first may be started
        std::size_t first_offset = 0; // bytes of queue.front() already written
        clock::time_point last_heard{};
        bool ping_sent = false;
    };

    // Takes a connected socket (non-blocking) whose handshake is done.
    ws_connection(event_loop& loop, flusher& flush, int fd, events& owner, const limits& limits,
                  std::string remote);
    // Resumes a connection released by another loop.
    ws_connection(event_loop& loop, flusher& flush, handover&& moved, events& owner, const limits& limits,
                  std::string remote);
    ~ws_connection();
    ws_connection(const ws_connection&) = delete;
    ws_connection& operator=(const ws_connection&) = delete;

    // Registers with the loop and starts reading; first takes apart whatever was carried over
    // or already read.
    void start(std::string_view already_read = {});
    // The loop: the socket is readable, writable, or has failed.
    void on_ready(std::uint32_t ready) override;

    // Queues a frame (a text message, or a control frame). Over the queue's bounds the
    // connection is closed with 1008 "not reading" instead. Ignored once closing. With
    // `flush_at_turn_end` false the frame waits for the next flush, whenever the owner asks.
    void send(const frame_ptr& f, bool flush_at_turn_end = true);
    // Writes what is queued (the loop calls this at the end of the turn).
    void flush();
    // Starts the close handshake: the close frame goes out after what is queued (or, with
    // `drop_unsent`, after the frame being written), then the peer's close frame is awaited.
    void close(close_code code, std::string_view reason, bool drop_unsent);
    // Pings after `ping_after` of silence; drops the peer after `idle_timeout`, or a close
    // handshake that has waited `close_timeout`.
    void tick(clock::time_point now);

    // Stops using the socket here and hands it over, with every buffer; no events follow.
    // Precondition: open (not closing).
    handover release();

    bool open() const { return state_ == state::open; }
    // Closed or released: nothing more will happen to it (the loop may still hold an event for
    // it until the end of the turn, which it ignores).
    bool finished() const { return state_ == state::closed || state_ == state::released; }
    const std::string& remote() const { return remote_; }
    std::size_t queued_messages() const { return queue_size_; }

private:
    enum class state : std::uint8_t { open, closing, closed, released };

    void read();
    // Takes complete frames off the read buffer; returns false when reading must stop.
    bool take_frames();
    bool handle_frame(const frame_header& h, std::uint8_t* payload);
    // A text message's next fragment (`last`: its final one) is UTF-8 so far, or the
    // connection fails with 1007 (RFC 6455 section 8.1) and false is returned.
    bool check_text(std::string_view fragment, bool last);
    void deliver(opcode op, std::string_view message);
    void protocol_error(std::string_view why);
    // Closes without awaiting the peer's close frame: the close frame goes out after the frame
    // being written, then the TCP connection ends. For a peer that broke the rules or stopped
    // reading.
    void fail(close_code code, std::string_view reason);
    // Grows the read buffer to hold `bytes` (the whole frame being received).
    void reserve_read(std::size_t bytes);

    void push(frame_ptr f);
    void pop_front();
    void write_queued();
    // Asks the loop for writability (when a write would block) or no longer.
    void watch_writable(bool on);
    // Tells the loop what this connection waits for: reading (unless stopped) and writability.
    void watch(bool writable);
    // After a failure or the peer's close frame: nothing more is read.
    void stop_reading();
    // The close frame has been written.
    void close_sent();
    // After fail(): our side of the stream ends, and what the peer still sends is read and
    // dropped until it ends its side (or `linger_timeout`). Closing a socket with unread data
    // makes the kernel send a reset, which can destroy the close frame before the peer reads it.
    void linger();
    void drain();
    // Ends the connection: closes the socket, tells the owner.
    void finish();

    event_loop& loop_;
    flusher& flusher_;
    int fd_ = -1;
    events& owner_;
    const limits limits_;
    const std::string remote_;
    state state_ = state::open;

    // Reading. Small messages (every move) fit the inline buffer; a larger frame moves to the
    // heap until it has been taken.
    static constexpr std::size_t inline_read = 512;
    std::array<std::uint8_t, inline_read> inline_buffer_{};
    std::unique_ptr<std::uint8_t[]> large_buffer_;
    std::uint8_t* buffer_ = inline_buffer_.data();
    std::size_t capacity_ = inline_read;
    std::size_t filled_ = 0;
    std::size_t taken_ = 0; // bytes at the front of the buffer already handled
    std::string partial_;   // a fragmented message so far
    opcode partial_op_ = opcode::text;
    bool in_message_ = false;
    utf8_validator text_; // the text message being received, fragment by fragment
    clock::time_point last_heard_;
    bool ping_sent_ = false;

    // Writing: a ring of frames, written from queue_[head_] on; the front one may be partly out.
    std::unique_ptr<frame_ptr[]> queue_;
    std::size_t queue_capacity_ = 0;
    std::size_t queue_head_ = 0;
    std::size_t queue_size_ = 0;
    std::size_t queued_bytes_ = 0;
    std::size_t first_offset_ = 0;
    bool flush_requested_ = false;
    bool waiting_writable_ = false;
    bool reading_ = true; // false once nothing more is to be read (see stop_reading)
    bool close_queued_ = false;
    bool peer_closed_ = false;
    bool linger_after_close_ = false; // set by fail(): the peer may still be sending
    bool lingering_ = false;
    std::optional<clock::time_point> close_deadline_;
    bool owner_told_ = false;
};

} // namespace quarto::server::net
