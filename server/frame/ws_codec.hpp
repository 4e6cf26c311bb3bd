// WebSocket frames (RFC 6455 section 5) as the server reads and writes them: the header of a
// client's frame, unmasking its payload, and the header of a server frame (never masked).
// Pure functions on bytes, no I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace quarto::server::net {

enum class opcode : std::uint8_t {
    continuation = 0x0,
    text = 0x1,
    binary = 0x2,
    close = 0x8,
    ping = 0x9,
    pong = 0xA,
};

inline constexpr bool is_control(opcode op) { return (static_cast<std::uint8_t>(op) & 0x8) != 0; }

// 2 bytes, then 8 for a 64-bit length (a server frame carries no mask).
inline constexpr std::size_t max_header_size = 10;
// Control frames carry at most this much (section 5.5).
inline constexpr std::size_t max_control_payload = 125;

struct frame_header {
    bool fin = false;
    opcode op = opcode::text;
    bool masked = false;
    std::uint64_t payload_size = 0;
    std::array<std::uint8_t, 4> mask{};
    std::size_t size = 0; // bytes of the header itself
};

enum class header_status {
    incomplete, // more bytes are needed
    complete,   // `out` holds the header
    invalid,    // reserved bits, an unknown opcode, or a fragmented or oversized control frame
};

// Reads the header at the start of `data`.
header_status read_header(const std::uint8_t* data, std::size_t size, frame_header& out);

// XORs `size` bytes with the 4-byte key, the first byte with key[0].
void unmask(std::uint8_t* data, std::size_t size, const std::array<std::uint8_t, 4>& key);

// Writes the header of an unmasked, final frame to `out` (max_header_size bytes of room);
// returns its length.
std::size_t write_header(std::uint8_t* out, opcode op, std::uint64_t payload_size);

} // namespace quarto::server::net
