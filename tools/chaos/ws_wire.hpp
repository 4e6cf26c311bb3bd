// The client side of RFC 6455 written by hand, byte for byte, so that an attacker can break it
// on purpose: the upgrade request, frames with any opcode, bits, mask or fragmentation, and a
// decoder for what the server sends back. Beast's client would refuse to send most of these.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace quarto::chaos {

enum class opcode : std::uint8_t {
    continuation = 0x0,
    text = 0x1,
    binary = 0x2,
    close = 0x8,
    ping = 0x9,
    pong = 0xA,
};

// The opening handshake: always the same key, so the accept value is a constant to compare.
std::string upgrade_request(std::string_view host_header, std::string_view path);
enum class upgrade_status { incomplete, accepted, refused };
// Looks at the bytes received so far. On `accepted` or `refused`, `header_bytes` is the length
// of the response head and `status_line` its first line.
upgrade_status check_upgrade_response(std::string_view received, std::size_t& header_bytes, std::string& status_line);

struct frame_spec {
    opcode op = opcode::text;
    bool fin = true;
    std::uint8_t rsv = 0;    // RSV1..3 as bits 4..6 of the first byte: must be 0
    bool masked = true;      // clients must mask
    std::optional<std::uint8_t> raw_opcode = std::nullopt; // an opcode RFC 6455 does not define
};
std::string encode_frame(const frame_spec& spec, std::string_view payload, std::mt19937_64& random);
inline std::string encode_frame(opcode op, std::string_view payload, std::mt19937_64& random)
{
    return encode_frame(frame_spec{.op = op}, payload, random);
}
// A close frame's payload: the code (big-endian) and the reason.
std::string close_payload(std::uint16_t code, std::string_view reason);

// One frame from the server. The server never fragments and never masks (PROTOCOL.md 1).
struct server_frame {
    bool fin = true;
    std::uint8_t opcode = 0;
    bool masked = false;
    std::string_view payload; // points into the decoder's input
};

// Takes one frame off the front of `buffer` if it is complete: returns the bytes consumed
// (0: need more). Payloads larger than `max_payload` are reported as consumed with
// `too_large` set (a defect worth counting, never a crash).
std::size_t decode_frame(std::string_view buffer, server_frame& out, bool& too_large, std::size_t max_payload);

} // namespace quarto::chaos
