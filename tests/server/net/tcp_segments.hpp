// How many TCP segments carrying data a socket has sent (Linux's tcpi_data_segs_out): one
// gathered send of a few small frames on loopback is one segment.
#pragma once

#include <cstdint>

namespace quarto::server::net::test {
std::uint32_t data_segments_out(int fd);
}
