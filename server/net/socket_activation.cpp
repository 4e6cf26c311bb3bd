#include "net/socket_activation.hpp"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace quarto::server::net {

namespace {
constexpr int first_passed_fd = 3; // SD_LISTEN_FDS_START

std::optional<long> number(const char* text)
{
    if (!text) return std::nullopt;
    const std::string_view s{text};
    long value = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (error != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return value;
}

int option(int fd, int name)
{
    int value = 0;
    socklen_t size = sizeof value;
    return ::getsockopt(fd, SOL_SOCKET, name, &value, &size) == 0 ? value : -1;
}
} // namespace

activation inherited_listener()
{
    const auto pid = number(std::getenv("LISTEN_PID"));
    const auto count = number(std::getenv("LISTEN_FDS"));
    ::unsetenv("LISTEN_PID");
    ::unsetenv("LISTEN_FDS");
    ::unsetenv("LISTEN_FDNAMES");
    if (!pid || *pid != ::getpid() || !count || *count == 0) return {};
    if (*count != 1)
        return {std::nullopt, "LISTEN_FDS=" + std::to_string(*count) + ": one listening socket is expected"};
    const int fd = first_passed_fd;
    if (option(fd, SO_TYPE) != SOCK_STREAM || option(fd, SO_ACCEPTCONN) != 1)
        return {std::nullopt, "fd 3 is not a listening stream socket"};
    const int domain = option(fd, SO_DOMAIN);
    if (domain != AF_INET && domain != AF_INET6) return {std::nullopt, "fd 3 is not a TCP/IP socket"};
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    return {fd, {}};
}

} // namespace quarto::server::net
