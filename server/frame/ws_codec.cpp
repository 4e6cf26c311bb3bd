#include "frame/ws_codec.hpp"

#include <cstring>

namespace quarto::server::net {

header_status read_header(const std::uint8_t* data, std::size_t size, frame_header& out)
{
    if (size < 2) return header_status::incomplete;
    const std::uint8_t first = data[0], second = data[1];
    if (first & 0x70) return header_status::invalid; // RSV1-3: no extension was negotiated
    const auto op = static_cast<opcode>(first & 0x0F);
    switch (op) {
    case opcode::continuation:
    case opcode::text:
    case opcode::binary:
    case opcode::close:
    case opcode::ping:
    case opcode::pong: break;
    default: return header_status::invalid;
    }
    out.fin = (first & 0x80) != 0;
    out.op = op;
    out.masked = (second & 0x80) != 0;
    std::size_t at = 2;
    std::uint64_t length = second & 0x7F;
    if (length == 126) {
        if (size < at + 2) return header_status::incomplete;
        length = (std::uint64_t{data[2]} << 8) | data[3];
        at += 2;
    } else if (length == 127) {
        if (size < at + 8) return header_status::incomplete;
        length = 0;
        for (int i = 0; i < 8; ++i) length = (length << 8) | data[at + static_cast<std::size_t>(i)];
        if (length >> 63) return header_status::invalid; // the most significant bit must be 0
        at += 8;
    }
    if (is_control(op) && (!out.fin || length > max_control_payload)) return header_status::invalid;
    if (out.masked) {
        if (size < at + 4) return header_status::incomplete;
        std::memcpy(out.mask.data(), data + at, 4);
        at += 4;
    }
    out.payload_size = length;
    out.size = at;
    return header_status::complete;
}

void unmask(std::uint8_t* data, std::size_t size, const std::array<std::uint8_t, 4>& key)
{
    // Eight bytes at a time: the key repeated twice is the XOR word for every aligned group.
    std::uint64_t word_key;
    std::uint8_t repeated[8];
    for (int i = 0; i < 8; ++i) repeated[i] = key[static_cast<std::size_t>(i) % 4];
    std::memcpy(&word_key, repeated, 8);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, data + i, 8);
        word ^= word_key;
        std::memcpy(data + i, &word, 8);
    }
    for (; i < size; ++i) data[i] ^= key[i % 4];
}

std::size_t write_header(std::uint8_t* out, opcode op, std::uint64_t payload_size)
{
    out[0] = static_cast<std::uint8_t>(0x80 | static_cast<std::uint8_t>(op));
    if (payload_size < 126) {
        out[1] = static_cast<std::uint8_t>(payload_size);
        return 2;
    }
    if (payload_size <= 0xFFFF) {
        out[1] = 126;
        out[2] = static_cast<std::uint8_t>(payload_size >> 8);
        out[3] = static_cast<std::uint8_t>(payload_size);
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<std::uint8_t>(payload_size >> (56 - 8 * i));
    return 10;
}

} // namespace quarto::server::net
