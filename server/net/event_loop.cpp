#include "net/event_loop.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace quarto::server::net {

namespace {
// Descriptors taken per turn: enough to amortize epoll_wait under load, few enough that a turn
// stays short.
constexpr int batch = 256;
} // namespace

event_loop::event_loop()
{
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0 || !add(wake_fd_, waker_, EPOLLIN))
        throw std::runtime_error{std::string{"event loop: "} + std::strerror(errno)};
}

event_loop::~event_loop()
{
    if (wake_fd_ >= 0) ::close(wake_fd_);
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

bool event_loop::add(int fd, handler& h, std::uint32_t events)
{
    epoll_event ev{};
    ev.events = events;
    ev.data.ptr = &h;
    return ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) == 0;
}

bool event_loop::modify(int fd, handler& h, std::uint32_t events)
{
    epoll_event ev{};
    ev.events = events;
    ev.data.ptr = &h;
    return ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &ev) == 0;
}

void event_loop::remove(int fd) { ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr); }

void event_loop::wake()
{
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wake_fd_, &one, sizeof one); // EAGAIN: already awake
}

void event_loop::stop()
{
    stopping_.store(true);
    wake();
}

void event_loop::wake_handler::on_ready(std::uint32_t)
{
    std::uint64_t count;
    [[maybe_unused]] const auto read = ::read(loop.wake_fd_, &count, sizeof count);
    if (to_tell) to_tell->on_wake();
}

void event_loop::run(owner& o)
{
    waker_.to_tell = &o;
    std::array<epoll_event, batch> events;
    while (!stopping_.load(std::memory_order_relaxed)) {
        int timeout = -1;
        if (const auto next = timers_.next()) {
            const auto wait = std::chrono::ceil<std::chrono::milliseconds>(*next - clock::now()).count();
            timeout = wait <= 0 ? 0 : static_cast<int>(std::min<std::int64_t>(wait, 60'000));
        }
        int n;
        if (idle_wanted_ && timeout != 0) {
            n = ::epoll_wait(epoll_fd_, events.data(), batch, 0);
            if (n == 0) {
                idle_wanted_ = false;
                o.on_idle();
                n = ::epoll_wait(epoll_fd_, events.data(), batch, timeout);
            }
        } else {
            n = ::epoll_wait(epoll_fd_, events.data(), batch, timeout);
        }
        turn_time_ = clock::now();
        for (int i = 0; i < n; ++i) static_cast<handler*>(events[i].data.ptr)->on_ready(events[i].events);
        timers_.run_due(turn_time_);
        o.end_of_turn();
    }
    waker_.to_tell = nullptr;
}

} // namespace quarto::server::net
