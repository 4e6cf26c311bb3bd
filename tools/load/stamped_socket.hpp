// The load generator's TCP socket under Beast's websocket stream: each read also notes when the
// kernel received the bytes it returns (SO_TIMESTAMPNS). A player's latency ends when the
// opponent's event reaches their machine. This process plays two thousand players on a core it
// shares with the server, so the moment it gets round to a message also holds the time it spent
// on the messages before it: both are reported, as `latency_us` and `arrival_latency_us`.
#pragma once

#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <optional>
#include <utility>

#include "net.hpp"

namespace quarto::load {

class stamped_socket {
public:
    using executor_type = net::io_context::executor_type;
    using socket_type = net::basic_stream_socket<tcp, executor_type>;

    explicit stamped_socket(const executor_type& ex) : socket_{ex} {}

    executor_type get_executor() noexcept { return socket_.get_executor(); }
    socket_type& socket() { return socket_; }

    // Once the socket is open: the kernel then stamps every segment it receives.
    void enable_stamps(beast::error_code& ec)
    {
        const int one = 1;
        if (::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) != 0)
            ec.assign(errno, beast::system_category());
    }

    // When the kernel received the last bytes a read returned, on the steady clock; none before
    // the first stamped read.
    std::optional<std::chrono::steady_clock::time_point> last_arrival() const { return last_arrival_; }

    template <class MutableBuffers, class Handler>
    auto async_read_some(const MutableBuffers& buffers, Handler&& handler)
    {
        return net::async_initiate<Handler, void(beast::error_code, std::size_t)>(
            [this](auto h, const MutableBuffers& b) { start_read(b, std::move(h)); }, handler, buffers);
    }

    template <class ConstBuffers, class Handler>
    auto async_write_some(const ConstBuffers& buffers, Handler&& handler)
    {
        return socket_.async_write_some(buffers, std::forward<Handler>(handler));
    }

    // Beast's customization points, found by argument-dependent lookup.
    friend void beast_close_socket(stamped_socket& s)
    {
        beast::error_code ignored;
        s.socket_.close(ignored);
    }
    friend void teardown(beast::role_type role, stamped_socket& s, beast::error_code& ec)
    {
        websocket::teardown(role, s.socket_, ec);
    }
    template <class TeardownHandler>
    friend void async_teardown(beast::role_type role, stamped_socket& s, TeardownHandler&& handler)
    {
        websocket::async_teardown(role, s.socket_, std::forward<TeardownHandler>(handler));
    }

private:
    // A read tried at once; if nothing is there, after the socket is readable. Each worker runs
    // its io_context on one thread, so no readiness can be reported between the failed try and
    // the wait being queued.
    template <class MutableBuffers, class Handler>
    void start_read(const MutableBuffers& buffers, Handler handler)
    {
        beast::error_code ec;
        const std::size_t n = receive(buffers, ec);
        if (ec != net::error::would_block) {
            // Never complete inside the initiating call.
            net::post(socket_.get_executor(), [h = std::move(handler), ec, n]() mutable { std::move(h)(ec, n); });
            return;
        }
        socket_.async_wait(socket_type::wait_read, [this, buffers, h = std::move(handler)](beast::error_code e) mutable {
            if (e) return std::move(h)(e, std::size_t{0});
            const std::size_t got = receive(buffers, e);
            if (e == net::error::would_block) return start_read(buffers, std::move(h));
            std::move(h)(e, got);
        });
    }

    template <class MutableBuffers>
    std::size_t receive(const MutableBuffers& buffers, beast::error_code& ec)
    {
        std::array<iovec, 16> iov{};
        std::size_t count = 0;
        for (auto it = net::buffer_sequence_begin(buffers); it != net::buffer_sequence_end(buffers) && count < iov.size(); ++it) {
            const net::mutable_buffer b{*it};
            if (b.size() == 0) continue;
            iov[count++] = {b.data(), b.size()};
        }
        if (count == 0) return 0;
        alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(timespec))> control{};
        msghdr msg{};
        msg.msg_iov = iov.data();
        msg.msg_iovlen = count;
        msg.msg_control = control.data();
        msg.msg_controllen = control.size();
        const ssize_t n = ::recvmsg(socket_.native_handle(), &msg, MSG_DONTWAIT);
        if (n < 0) {
            ec = errno == EAGAIN || errno == EWOULDBLOCK ? beast::error_code{net::error::would_block}
                                                          : beast::error_code{errno, beast::system_category()};
            return 0;
        }
        if (n == 0) {
            ec = net::error::eof;
            return 0;
        }
        for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS) continue;
            timespec stamp{};
            std::memcpy(&stamp, CMSG_DATA(c), sizeof stamp);
            note_arrival(stamp);
        }
        return static_cast<std::size_t>(n);
    }

    // The stamp is on the wall clock; the moves' send times are on the steady clock.
    void note_arrival(const timespec& stamp)
    {
        timespec wall{};
        ::clock_gettime(CLOCK_REALTIME, &wall);
        const auto steady_now = std::chrono::steady_clock::now();
        const auto age = std::chrono::seconds{wall.tv_sec - stamp.tv_sec} + std::chrono::nanoseconds{wall.tv_nsec - stamp.tv_nsec};
        last_arrival_ = steady_now - std::max(age, std::chrono::nanoseconds::zero());
    }

    socket_type socket_;
    std::optional<std::chrono::steady_clock::time_point> last_arrival_;
};

} // namespace quarto::load
