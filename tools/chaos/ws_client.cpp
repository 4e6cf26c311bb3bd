#include "ws_client.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

namespace quarto::chaos {

namespace {

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

constexpr std::size_t chunk_bytes = 8192;
// The server's largest message is a page of the lobby (under 256 KB, PROTOCOL.md 14).
constexpr std::size_t max_frame_payload = 1 << 20;
// What we let pile up unsent before dropping: a flood must not grow this process.
constexpr std::size_t max_outbox_bytes = 4 << 20;
constexpr std::chrono::seconds connect_timeout{10};
constexpr std::chrono::seconds close_timeout{5};

} // namespace

std::string ws_client::ending::describe() const
{
    std::string out;
    if (close_code) {
        out = "close " + std::to_string(*close_code);
        if (!close_reason.empty()) out += " " + close_reason;
    } else {
        out = transport;
    }
    if (!ours.empty()) out = "ours (" + ours + ") -> " + out;
    return out;
}

ws_client::ws_client(net::io_context& io, const endpoint_settings& where, listener* owner, std::mt19937_64& random)
    : socket_{io}, deadline_{io}, where_{where}, owner_{owner}, random_{random}, chunk_{new char[chunk_bytes]}
{
}

ws_client::~ws_client() = default;

void ws_client::start(bool upgrade)
{
    upgrade_ = upgrade;
    started_ = clock_type::now();
    error_code ec;
    socket_.open(where_.server.protocol(), ec);
    if (ec) return on_failure(ec, "open");
    socket_.set_option(tcp::no_delay{true}, ec);
    if (receive_buffer_ > 0) socket_.set_option(net::socket_base::receive_buffer_size{receive_buffer_}, ec);
    if (where_.source) {
        // The port is chosen at connect time, per 4-tuple: each source address has its own
        // ephemeral range.
        const int one = 1;
        (void)::setsockopt(socket_.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        socket_.bind(tcp::endpoint{*where_.source, 0}, ec);
        if (ec) return on_failure(ec, "bind");
    }
    arm_deadline(std::chrono::duration_cast<std::chrono::milliseconds>(connect_timeout), "connect: timeout");
    socket_.async_connect(where_.server, [self = shared_from_this()](const error_code& e) { self->on_connect(e); });
}

void ws_client::on_connect(const error_code& ec)
{
    if (ended_) return;
    if (ec) return on_failure(ec, "connect");
    deadline_.cancel();
    connected_ = true;
    read_more();
    if (!upgrade_) {
        write_next(); // what the owner queued while connecting
        if (owner_) owner_->on_open(*this);
        return;
    }
    // The request goes first; frames queued meanwhile wait for the server's 101.
    const auto request = upgrade_request(where_.host_header, where_.path);
    queued_bytes_ += request.size();
    outbox_.push_front(request);
    write_next();
}

void ws_client::resume_reading()
{
    paused_ = false;
    read_more();
}

void ws_client::read_more()
{
    if (reading_ || paused_ || ended_) return;
    reading_ = true;
    socket_.async_read_some(net::buffer(chunk_.get(), chunk_bytes),
                            [self = shared_from_this()](const error_code& ec, std::size_t n) { self->on_read(ec, n); });
}

void ws_client::on_read(const error_code& ec, std::size_t n)
{
    reading_ = false;
    if (ended_) return;
    if (ec) return on_failure(ec, "read");
    received_.append(chunk_.get(), n);
    if (!upgrade_) {
        const std::string bytes = std::exchange(received_, {});
        if (owner_) owner_->on_message(*this, message_kind::raw, bytes);
    } else if (!opened_) {
        std::size_t head = 0;
        std::string status;
        switch (check_upgrade_response(received_, head, status)) {
        case upgrade_status::incomplete: break;
        case upgrade_status::refused: return finish("refused: " + status);
        case upgrade_status::accepted:
            received_.erase(0, head);
            opened_ = true;
            if (!writing_) write_next();
            if (owner_) owner_->on_open(*this);
            if (ended_) return;
            break;
        }
    }
    if (opened_) take_frames();
    if (!ended_) read_more();
}

void ws_client::take_frames()
{
    std::size_t used = 0;
    while (!ended_) {
        server_frame f;
        bool too_large = false;
        const std::size_t n = decode_frame(std::string_view{received_}.substr(used), f, too_large, max_frame_payload);
        if (too_large) return finish("frame too large");
        if (n == 0) break;
        used += n;
        ++frames_in_;
        switch (f.opcode) {
        case 0x1:
        case 0x2:
            if (owner_) owner_->on_message(*this, f.opcode == 0x1 ? message_kind::text : message_kind::binary, f.payload);
            break;
        case 0x9:
            if (auto_pong_ && !close_sent_) send_frame(opcode::pong, f.payload);
            break;
        case 0xA: break;
        case 0x8:
            if (f.payload.size() >= 2) {
                close_code_ = (static_cast<std::uint8_t>(f.payload[0]) << 8) | static_cast<std::uint8_t>(f.payload[1]);
                close_reason_ = std::string{f.payload.substr(2)};
            } else {
                close_code_ = 1005; // no status
            }
            // Echo the close as RFC 6455 asks, then wait for the server to drop the TCP connection.
            if (!close_sent_) {
                send_frame(opcode::close, f.payload.substr(0, 2));
                close_sent_ = true;
            }
            arm_deadline(std::chrono::duration_cast<std::chrono::milliseconds>(close_timeout),
                         "no TCP close after close frames");
            break;
        default:
            if (owner_) owner_->on_message(*this, message_kind::binary, f.payload); // a continuation or worse: count it
            break;
        }
    }
    if (!ended_) received_.erase(0, used);
}

void ws_client::send_raw(std::string bytes)
{
    if (ended_ || fin_sent_) return;
    if (queued_bytes_ + bytes.size() > max_outbox_bytes) return; // the server is not reading us: drop
    queued_bytes_ += bytes.size();
    outbox_.push_back(std::move(bytes));
    if (!writing_ && connected_ && (opened_ || !upgrade_)) write_next();
}

void ws_client::write_next()
{
    if (outbox_.empty() || ended_) return;
    writing_ = true;
    net::async_write(socket_, net::buffer(outbox_.front()), [self = shared_from_this()](const error_code& ec, std::size_t) {
        self->writing_ = false;
        if (self->ended_) return;
        if (ec) return self->on_failure(ec, "write");
        self->queued_bytes_ -= self->outbox_.front().size();
        self->outbox_.pop_front();
        if (self->opened_ || !self->upgrade_) self->write_next();
    });
}

void ws_client::close(std::uint16_t code, std::string_view reason)
{
    if (ended_ || !ours_.empty()) return; // already on its way out
    if (ours_.empty()) ours_ = "close";
    if (!opened_) return abort();
    if (!close_sent_) {
        send_frame(opcode::close, close_payload(code, reason));
        close_sent_ = true;
    }
    arm_deadline(std::chrono::duration_cast<std::chrono::milliseconds>(close_timeout), "no close from the server");
}

void ws_client::abort()
{
    if (ended_) return;
    if (ours_.empty()) ours_ = "abort";
    error_code ec;
    socket_.set_option(net::socket_base::linger{true, 0}, ec);
    finish("reset by us");
}

void ws_client::half_close()
{
    if (ended_ || !ours_.empty()) return;
    if (ours_.empty()) ours_ = "fin";
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    fin_sent_ = true;
    arm_deadline(std::chrono::duration_cast<std::chrono::milliseconds>(close_timeout), "no close after our FIN");
}

void ws_client::detach()
{
    owner_ = nullptr;
    if (!ended_) abort();
}

void ws_client::on_failure(const error_code& ec, const char* during)
{
    if (ec == net::error::eof) return finish("eof");
    if (ec == net::error::connection_reset) return finish("reset");
    if (ec == net::error::broken_pipe) return finish("broken pipe");
    finish(std::string{during} + ": " + ec.message());
}

void ws_client::arm_deadline(std::chrono::milliseconds after, const char* what)
{
    deadline_.expires_after(after);
    deadline_.async_wait([self = shared_from_this(), what](const error_code& ec) {
        if (ec || self->ended_) return;
        error_code ignored;
        self->socket_.set_option(net::socket_base::linger{true, 0}, ignored);
        self->finish(what);
    });
}

void ws_client::finish(std::string transport)
{
    if (ended_) return;
    ended_ = true;
    deadline_.cancel();
    error_code ignored;
    socket_.close(ignored);
    outbox_.clear();
    queued_bytes_ = 0;
    ending e;
    e.opened = opened_;
    e.ours = ours_;
    e.close_code = close_code_;
    e.close_reason = close_reason_;
    e.transport = std::move(transport);
    e.seconds = std::chrono::duration<double>(clock_type::now() - started_).count();
    if (auto* owner = std::exchange(owner_, nullptr)) owner->on_end(*this, e);
}

} // namespace quarto::chaos
