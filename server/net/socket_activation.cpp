#include "net/socket_activation.hpp"

#include <cstring>

#include <sys/socket.h>
#include <systemd/sd-daemon.h>

namespace quarto::server::net {

activation inherited_listener()
{
    // Unsets LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES, checks LISTEN_PID against this process,
    // and makes the sockets close-on-exec.
    const int count = ::sd_listen_fds(1);
    if (count < 0) return {std::nullopt, std::string{"LISTEN_FDS: "} + std::strerror(-count)};
    if (count == 0) return {};
    if (count != 1) return {std::nullopt, "LISTEN_FDS=" + std::to_string(count) + ": one listening socket is expected"};
    const int fd = SD_LISTEN_FDS_START;
    if (::sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1) <= 0) return {std::nullopt, "fd 3 is not a listening stream socket"};
    if (::sd_is_socket_inet(fd, AF_UNSPEC, SOCK_STREAM, 1, 0) <= 0) return {std::nullopt, "fd 3 is not a TCP/IP socket"};
    return {fd, {}};
}

} // namespace quarto::server::net
