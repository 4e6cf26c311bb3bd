// Apart from the other tests: <linux/tcp.h> has tcpi_data_segs_out, glibc's <netinet/tcp.h>
// (which Asio includes) does not, and the two cannot share a translation unit.
#include "tcp_segments.hpp"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace quarto::server::net::test {

std::uint32_t data_segments_out(int fd)
{
    tcp_info info{};
    socklen_t size = sizeof info;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return 0;
    return info.tcpi_data_segs_out;
}

} // namespace quarto::server::net::test
