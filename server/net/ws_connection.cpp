#include "net/ws_connection.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace quarto::server::net {

namespace {
// Frames per gathered send: two pieces each (header, payload).
constexpr std::size_t frames_per_send = 64;

// Whether a peer may send this close code (RFC 6455 section 7.4): 1004-1006 and 1015 are
// reserved (1005 and 1006 only name the absence of a code), and nothing below 1000, from 1016
// to 2999 or above 4999 is assigned. Echoed, such a code would go on the wire from us.
bool valid_close_code(std::uint16_t code)
{
    if (code >= 3000) return code <= 4999;
    return code >= 1000 && code <= 1014 && (code < 1004 || code > 1006);
}
} // namespace

ws_connection::ws_connection(event_loop& loop, flusher& flush, int fd, events& owner, const limits& l,
                             std::string remote)
    : loop_{loop}, flusher_{flush}, fd_{fd}, owner_{owner}, limits_{l}, remote_{std::move(remote)},
      last_heard_{loop.turn_time()}
{
}

ws_connection::ws_connection(event_loop& loop, flusher& flush, handover&& moved, events& owner, const limits& l,
                             std::string remote)
    : loop_{loop}, flusher_{flush}, fd_{moved.fd}, owner_{owner}, limits_{l}, remote_{std::move(remote)},
      last_heard_{moved.last_heard}
{
    partial_ = std::move(moved.partial_message);
    partial_op_ = moved.partial_op;
    in_message_ = moved.in_message;
    text_ = moved.partial_text;
    ping_sent_ = moved.ping_sent;
    for (auto& f : moved.queue) push(std::move(f));
    first_offset_ = moved.first_offset;
}

ws_connection::~ws_connection()
{
    if (state_ != state::closed && state_ != state::released && fd_ >= 0) {
        loop_.remove(fd_);
        ::close(fd_);
    }
}

void ws_connection::start(std::string_view already_read)
{
    if (state_ != state::open) return;
    if (fd_ < 0 || !loop_.add(fd_, *this, EPOLLIN | EPOLLRDHUP)) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        state_ = state::closed; // never started
        owner_told_ = true;
        owner_.on_closed();
        return;
    }
    if (!already_read.empty()) {
        reserve_read(already_read.size());
        std::memcpy(buffer_, already_read.data(), already_read.size());
        filled_ = already_read.size();
        if (!take_frames()) return;
    }
    if (queue_size_ > 0 && !flush_requested_) {
        flush_requested_ = true;
        flusher_.needs_flush(*this);
    }
}

// ---- reading and readiness ----------------------------------------------------------------

void ws_connection::on_ready(std::uint32_t ready)
{
    if (state_ == state::closed || state_ == state::released) return; // ended earlier in this turn
    if (lingering_) return drain();
    if (ready & EPOLLOUT) write_queued();
    if (state_ == state::closed || state_ == state::released) return;
    if (reading_) {
        if (ready & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) read();
    } else if (ready & (EPOLLHUP | EPOLLERR)) {
        finish(); // gone while its close frame waited to be written
    }
}

// One read per readiness: the loop is level-triggered, so what a full buffer leaves behind is
// reported again at the next turn.
void ws_connection::read()
{
    // take_frames() leaves room for the rest of any frame it waits for; a full buffer would
    // make recv return 0, which means the end of the stream.
    if (filled_ == capacity_) return protocol_error("no room for the frame");
    const ssize_t n = ::recv(fd_, buffer_ + filled_, capacity_ - filled_, MSG_DONTWAIT);
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
        return finish(); // reset, or another failure: the peer is gone
    }
    if (n == 0) return finish(); // end of stream
    filled_ += static_cast<std::size_t>(n);
    last_heard_ = loop_.turn_time();
    ping_sent_ = false;
    take_frames();
}

bool ws_connection::take_frames()
{
    taken_ = 0;
    std::size_t needed = 0; // the size of an incomplete frame at the front, once known
    while ((state_ == state::open || state_ == state::closing) && reading_) {
        frame_header h;
        const header_status status = read_header(buffer_ + taken_, filled_ - taken_, h);
        if (status == header_status::incomplete) break;
        if (status == header_status::invalid) {
            protocol_error("malformed frame");
            return false;
        }
        if (!h.masked) {
            protocol_error("frames from a client must be masked");
            return false;
        }
        if (!is_control(h.op)) {
            const std::uint64_t so_far = h.op == opcode::continuation ? partial_.size() : 0;
            if (so_far + h.payload_size > limits_.max_message_bytes) {
                if (state_ == state::open) fail(close_code::message_too_big, "message too big");
                else finish(); // closing already: no more patience
                return false;
            }
        }
        const std::size_t frame_size = h.size + static_cast<std::size_t>(h.payload_size);
        if (filled_ - taken_ < frame_size) {
            needed = frame_size;
            break;
        }
        std::uint8_t* payload = buffer_ + taken_ + h.size;
        unmask(payload, static_cast<std::size_t>(h.payload_size), h.mask);
        taken_ += frame_size;
        if (!handle_frame(h, payload)) return false;
    }
    if (state_ == state::closed || state_ == state::released) return false;

    const std::size_t rest = filled_ - taken_;
    if (taken_ > 0 && rest > 0) std::memmove(buffer_, buffer_ + taken_, rest);
    filled_ = rest;
    taken_ = 0;
    if (needed > capacity_) {
        reserve_read(needed);
    } else if (large_buffer_ && std::max(rest, needed) <= inline_read) { // back to the small buffer
        std::memcpy(inline_buffer_.data(), buffer_, rest);
        buffer_ = inline_buffer_.data();
        capacity_ = inline_read;
        large_buffer_.reset();
    }
    return true;
}

bool ws_connection::handle_frame(const frame_header& h, std::uint8_t* payload)
{
    const std::string_view data{reinterpret_cast<const char*>(payload), static_cast<std::size_t>(h.payload_size)};
    switch (h.op) {
    case opcode::text:
    case opcode::binary:
        if (in_message_) {
            protocol_error("a new message began before the last one ended");
            return false;
        }
        text_.reset();
        if (h.op == opcode::text && !check_text(data, h.fin)) return false;
        if (!h.fin) {
            in_message_ = true;
            partial_op_ = h.op;
            partial_.assign(data);
            return true;
        }
        if (state_ == state::open) deliver(h.op, data); // after our close frame, data is ignored
        return true;
    case opcode::continuation: {
        if (!in_message_) {
            protocol_error("a continuation frame without a message");
            return false;
        }
        if (partial_op_ == opcode::text && !check_text(data, h.fin)) return false;
        partial_.append(data);
        if (!h.fin) return true;
        in_message_ = false;
        const std::string message = std::move(partial_);
        partial_.clear();
        partial_.shrink_to_fit();
        if (state_ == state::open) deliver(partial_op_, message);
        return true;
    }
    case opcode::ping:
        if (state_ == state::open) send(make_control_frame(opcode::pong, data));
        return true;
    case opcode::pong: return true;
    case opcode::close:
        peer_closed_ = true;
        stop_reading(); // nothing follows a close frame: what is left is to write ours
        if (data.size() == 1) {
            protocol_error("malformed close frame");
            return false;
        }
        if (close_queued_) { // the answer to ours: done once ours is out
            if (queue_size_ == 0) finish();
            return false;
        }
        { // the peer closes: answer with its code, then end
            const std::uint16_t code = data.size() >= 2
                                           ? static_cast<std::uint16_t>((static_cast<std::uint8_t>(data[0]) << 8) |
                                                                        static_cast<std::uint8_t>(data[1]))
                                           : static_cast<std::uint16_t>(close_code::normal);
            if (!valid_close_code(code)) {
                protocol_error("invalid close code");
                return false;
            }
            if (data.size() > 2 && !valid_utf8(data.substr(2))) {
                fail(close_code::invalid_payload, "invalid UTF-8");
                return false;
            }
            close(static_cast<close_code>(code), {}, false);
        }
        return false;
    }
    return false;
}

bool ws_connection::check_text(std::string_view fragment, bool last)
{
    if (state_ != state::open) return true; // after our close frame, data is ignored
    if (text_.feed(fragment) && (!last || text_.complete())) return true;
    fail(close_code::invalid_payload, "invalid UTF-8");
    return false;
}

void ws_connection::deliver(opcode op, std::string_view message)
{
    if (op == opcode::text) owner_.on_text(message);
    else owner_.on_binary();
}

void ws_connection::protocol_error(std::string_view why) { fail(close_code::protocol_error, why); }

void ws_connection::fail(close_code code, std::string_view reason)
{
    peer_closed_ = true; // nothing more is read: the connection ends once the close frame is out
    linger_after_close_ = true;
    stop_reading();
    close(code, reason, true);
}

void ws_connection::stop_reading()
{
    if (!reading_) return;
    reading_ = false;
    watch(waiting_writable_);
}

void ws_connection::reserve_read(std::size_t bytes)
{
    if (bytes <= capacity_) return;
    auto larger = std::make_unique<std::uint8_t[]>(bytes);
    std::memcpy(larger.get(), buffer_, filled_);
    large_buffer_ = std::move(larger);
    buffer_ = large_buffer_.get();
    capacity_ = bytes;
}

// ---- writing -----------------------------------------------------------------------------

void ws_connection::send(const frame_ptr& f, bool flush_at_turn_end)
{
    if (state_ != state::open) return;
    if (queue_size_ + 1 > limits_.max_queued_messages || queued_bytes_ + f->wire_size() > limits_.max_queued_bytes) {
        fail(close_code::policy_violation, "not reading");
        return;
    }
    push(f);
    if (flush_at_turn_end && !flush_requested_) {
        flush_requested_ = true;
        flusher_.needs_flush(*this);
    }
}

void ws_connection::push(frame_ptr f)
{
    if (queue_size_ == queue_capacity_) {
        const std::size_t capacity = std::max<std::size_t>(8, queue_capacity_ * 2);
        auto larger = std::make_unique<frame_ptr[]>(capacity);
        for (std::size_t i = 0; i < queue_size_; ++i)
            larger[i] = std::move(queue_[(queue_head_ + i) % queue_capacity_]);
        queue_ = std::move(larger);
        queue_capacity_ = capacity;
        queue_head_ = 0;
    }
    queued_bytes_ += f->wire_size();
    queue_[(queue_head_ + queue_size_) % queue_capacity_] = std::move(f);
    ++queue_size_;
}

void ws_connection::pop_front()
{
    frame_ptr& front = queue_[queue_head_];
    queued_bytes_ -= front->wire_size();
    front = frame_ptr{};
    queue_head_ = (queue_head_ + 1) % queue_capacity_;
    --queue_size_;
    first_offset_ = 0;
}

void ws_connection::flush()
{
    flush_requested_ = false;
    write_queued();
}

void ws_connection::write_queued()
{
    if (state_ == state::closed || state_ == state::released) return;
    while (queue_size_ > 0) {
        std::array<iovec, 2 * frames_per_send> pieces;
        std::size_t count = 0, attempted = 0;
        for (std::size_t i = 0; i < queue_size_ && i < frames_per_send; ++i) {
            const frame& f = *queue_[(queue_head_ + i) % queue_capacity_];
            std::size_t skip = i == 0 ? first_offset_ : 0;
            for (const std::string_view part : {f.header(), f.payload()}) {
                if (skip >= part.size()) {
                    skip -= part.size();
                    continue;
                }
                pieces[count++] = iovec{const_cast<char*>(part.data() + skip), part.size() - skip};
                attempted += part.size() - skip;
                skip = 0;
            }
        }
        msghdr message{};
        message.msg_iov = pieces.data();
        message.msg_iovlen = count;
        const ssize_t sent = ::sendmsg(fd_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return watch_writable(true);
            return finish();
        }
        for (std::size_t left = static_cast<std::size_t>(sent); left > 0;) {
            const std::size_t rest = queue_[queue_head_]->wire_size() - first_offset_;
            if (left < rest) {
                first_offset_ += left;
                break;
            }
            left -= rest;
            pop_front();
        }
        if (static_cast<std::size_t>(sent) < attempted) return watch_writable(true);
    }
    watch_writable(false);
    if (close_queued_) close_sent();
}

void ws_connection::watch_writable(bool on)
{
    if (waiting_writable_ == on) return;
    waiting_writable_ = on;
    watch(on);
}

void ws_connection::watch(bool writable)
{
    std::uint32_t interest = writable ? static_cast<std::uint32_t>(EPOLLOUT) : 0u;
    if (reading_) interest |= EPOLLIN | EPOLLRDHUP;
    if (!loop_.modify(fd_, *this, interest)) finish();
}

// ---- closing -----------------------------------------------------------------------------

void ws_connection::close(close_code code, std::string_view reason, bool drop_unsent)
{
    if (state_ != state::open) return;
    state_ = state::closing;
    if (drop_unsent) { // keep only a frame already partly written: the peer must get it whole
        const std::size_t keep = first_offset_ > 0 ? 1 : 0;
        while (queue_size_ > keep) {
            const std::size_t last = (queue_head_ + queue_size_ - 1) % queue_capacity_;
            queued_bytes_ -= queue_[last]->wire_size();
            queue_[last] = frame_ptr{};
            --queue_size_;
        }
    }
    std::string payload(2, '\0');
    payload[0] = static_cast<char>(static_cast<std::uint16_t>(code) >> 8);
    payload[1] = static_cast<char>(static_cast<std::uint16_t>(code) & 0xFF);
    payload.append(reason.substr(0, max_control_payload - 2));
    push(make_control_frame(opcode::close, payload));
    close_queued_ = true;
    close_deadline_ = clock::now() + close_timeout;
    if (!flush_requested_) {
        flush_requested_ = true;
        flusher_.needs_flush(*this);
    }
}

void ws_connection::close_sent()
{
    // The peer has closed already (or broke the protocol): nothing more to wait for. Otherwise
    // the read loop goes on until its close frame arrives, or tick() gives up on it.
    if (!peer_closed_) return;
    if (linger_after_close_) linger();
    else finish();
}

void ws_connection::linger()
{
    lingering_ = true;
    close_deadline_ = clock::now() + linger_timeout;
    if (::shutdown(fd_, SHUT_WR) != 0 || !loop_.modify(fd_, *this, EPOLLIN | EPOLLRDHUP)) return finish();
    drain();
}

void ws_connection::drain()
{
    std::array<std::uint8_t, 4096> dropped;
    for (int reads = 0; reads < 16; ++reads) { // the loop is level-triggered: more comes next turn
        const ssize_t n = ::recv(fd_, dropped.data(), dropped.size(), MSG_DONTWAIT);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        return finish(); // the peer has ended its side, or is gone
    }
}

void ws_connection::finish()
{
    if (state_ == state::closed || state_ == state::released) return;
    state_ = state::closed;
    loop_.remove(fd_);
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    fd_ = -1;
    while (queue_size_ > 0) pop_front();
    queue_.reset();
    queue_capacity_ = 0;
    large_buffer_.reset();
    buffer_ = inline_buffer_.data();
    capacity_ = inline_read;
    filled_ = 0;
    partial_ = std::string{};
    if (!owner_told_) {
        owner_told_ = true;
        owner_.on_closed();
    }
}

void ws_connection::tick(clock::time_point now)
{
    if (state_ == state::closed || state_ == state::released) return;
    if (close_deadline_ && now >= *close_deadline_) return finish();
    if (state_ != state::open) return;
    const auto silent = now - last_heard_;
    if (silent >= idle_timeout) return finish();
    if (silent >= ping_after && !ping_sent_) {
        ping_sent_ = true;
        send(make_control_frame(opcode::ping, {}));
    }
}

// ---- moving to another loop --------------------------------------------------------------

ws_connection::handover ws_connection::release()
{
    handover h;
    h.unread.assign(reinterpret_cast<const char*>(buffer_ + taken_), filled_ - taken_);
    h.partial_message = std::move(partial_);
    h.partial_op = partial_op_;
    h.in_message = in_message_;
    h.partial_text = text_;
    h.queue.reserve(queue_size_);
    for (std::size_t i = 0; i < queue_size_; ++i)
        h.queue.push_back(std::move(queue_[(queue_head_ + i) % queue_capacity_]));
    h.first_offset = first_offset_;
    h.last_heard = last_heard_;
    h.ping_sent = ping_sent_;
    queue_.reset();
    queue_capacity_ = queue_head_ = queue_size_ = queued_bytes_ = first_offset_ = 0;
    filled_ = taken_ = 0;
    loop_.remove(fd_);
    h.fd = std::exchange(fd_, -1);
    state_ = state::released;
    return h;
}

} // namespace quarto::server::net
