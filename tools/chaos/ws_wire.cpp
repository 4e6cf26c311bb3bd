#include "ws_wire.hpp"

#include <cctype>
#include <cstring>

namespace quarto::chaos {

namespace {

// RFC 6455 section 1.3's own example key, and its accept value.
constexpr std::string_view fixed_key = "dGhlIHNhbXBsZSBub25jZQ==";
constexpr std::string_view fixed_accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

bool equal_ignoring_case(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
        if (std::tolower(x) != std::tolower(y)) return false;
    }
    return true;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

} // namespace

std::string upgrade_request(std::string_view host_header, std::string_view path)
{
    std::string out;
    out.reserve(200);
    out += "GET ";
    out += path;
    out += " HTTP/1.1\r\nHost: ";
    out += host_header;
    out += "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ";
    out += fixed_key;
    out += "\r\nSec-WebSocket-Version: 13\r\n\r\n";
    return out;
}

upgrade_status check_upgrade_response(std::string_view received, std::size_t& header_bytes, std::string& status_line)
{
    const auto end = received.find("\r\n\r\n");
    if (end == std::string_view::npos) return upgrade_status::incomplete;
    header_bytes = end + 4;
    const std::string_view head = received.substr(0, end);
    const auto first_end = head.find("\r\n");
    status_line = std::string{head.substr(0, first_end)};
    if (status_line.rfind("HTTP/1.1 101", 0) != 0) return upgrade_status::refused;
    // A 101 must carry the accept value of our key; anything else is not a WebSocket.
    std::size_t at = first_end;
    while (at != std::string_view::npos && at < head.size()) {
        const auto next = head.find("\r\n", at + 2);
        const auto line = head.substr(at + 2, next == std::string_view::npos ? std::string_view::npos : next - at - 2);
        const auto colon = line.find(':');
        if (colon != std::string_view::npos && equal_ignoring_case(trim(line.substr(0, colon)), "Sec-WebSocket-Accept"))
            return trim(line.substr(colon + 1)) == fixed_accept ? upgrade_status::accepted : upgrade_status::refused;
        at = next;
    }
    status_line += " (no Sec-WebSocket-Accept)";
    return upgrade_status::refused;
}

std::string encode_frame(const frame_spec& spec, std::string_view payload, std::mt19937_64& random)
{
    std::string out;
    out.reserve(payload.size() + 14);
    const std::uint8_t code = spec.raw_opcode ? *spec.raw_opcode : static_cast<std::uint8_t>(spec.op);
    out += static_cast<char>((spec.fin ? 0x80 : 0x00) | ((spec.rsv & 0x7) << 4) | (code & 0x0F));
    const std::uint8_t mask_bit = spec.masked ? 0x80 : 0x00;
    const std::uint64_t n = payload.size();
    if (n < 126) {
        out += static_cast<char>(mask_bit | n);
    } else if (n <= 0xFFFF) {
        out += static_cast<char>(mask_bit | 126);
        out += static_cast<char>(n >> 8);
        out += static_cast<char>(n & 0xFF);
    } else {
        out += static_cast<char>(mask_bit | 127);
        for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((n >> shift) & 0xFF);
    }
    if (!spec.masked) {
        out += payload;
        return out;
    }
    const auto key = static_cast<std::uint32_t>(random());
    char mask[4];
    std::memcpy(mask, &key, 4);
    out.append(mask, 4);
    const std::size_t start = out.size();
    out += payload;
    for (std::size_t i = 0; i < n; ++i) out[start + i] = static_cast<char>(out[start + i] ^ mask[i % 4]);
    return out;
}

std::string close_payload(std::uint16_t code, std::string_view reason)
{
    std::string out;
    out += static_cast<char>(code >> 8);
    out += static_cast<char>(code & 0xFF);
    out += reason;
    return out;
}

std::size_t decode_frame(std::string_view buffer, server_frame& out, bool& too_large, std::size_t max_payload)
{
    too_large = false;
    if (buffer.size() < 2) return 0;
    const auto b0 = static_cast<std::uint8_t>(buffer[0]);
    const auto b1 = static_cast<std::uint8_t>(buffer[1]);
    std::size_t at = 2;
    std::uint64_t n = b1 & 0x7F;
    if (n == 126) {
        if (buffer.size() < 4) return 0;
        n = (std::uint64_t{static_cast<std::uint8_t>(buffer[2])} << 8) | static_cast<std::uint8_t>(buffer[3]);
        at = 4;
    } else if (n == 127) {
        if (buffer.size() < 10) return 0;
        n = 0;
        for (int i = 0; i < 8; ++i) n = (n << 8) | static_cast<std::uint8_t>(buffer[2 + static_cast<std::size_t>(i)]);
        at = 10;
    }
    out.fin = (b0 & 0x80) != 0;
    out.opcode = b0 & 0x0F;
    out.masked = (b1 & 0x80) != 0;
    const std::size_t mask_bytes = out.masked ? 4 : 0;
    if (n > max_payload) {
        too_large = true;
        return buffer.size(); // drop what we have; the connection is not worth reading further
    }
    if (buffer.size() < at + mask_bytes + n) return 0;
    out.payload = buffer.substr(at + mask_bytes, static_cast<std::size_t>(n));
    return at + mask_bytes + static_cast<std::size_t>(n);
}

} // namespace quarto::chaos
