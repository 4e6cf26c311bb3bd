// ws_codec: frame headers read and written, and unmasking, on bytes built by hand.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frame/ws_codec.hpp"
#include "net_support.hpp"

using namespace quarto::server::net;
using namespace quarto::server::net::test;

namespace {

header_status read(const std::string& bytes, frame_header& out)
{
    return read_header(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), out);
}

// Where two buffers first differ, or -1: a failure names the byte instead of two dumps.
long first_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b)
{
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (a[i] != b[i]) return static_cast<long>(i);
    return a.size() == b.size() ? -1 : static_cast<long>(std::min(a.size(), b.size()));
}

header_status read(const std::string& bytes)
{
    frame_header ignored;
    return read(bytes, ignored);
}

struct length_case {
    std::uint64_t length;
    int form;               // 7, 16 or 64: the length field the header uses
    std::size_t header_size; // unmasked
};

const length_case length_cases[] = {
    {0, 7, 2},          {1, 7, 2},         {125, 7, 2},
    {126, 16, 4},       {127, 16, 4},      {1000, 16, 4},  {65535, 16, 4},
    {65536, 64, 10},    {1ULL << 32, 64, 10}, {(1ULL << 63) - 1, 64, 10},
};

} // namespace

TEST_CASE("ws_codec: read_header reads every length form, masked and not")
{
    for (const auto& c : length_cases) {
        for (const bool masked : {false, true}) {
            CAPTURE(c.length);
            CAPTURE(masked);
            const std::array<std::uint8_t, 4> key{0xA1, 0x00, 0xFF, 0x5C};
            const std::string bytes = client_header(0x82, c.length, masked, key);
            REQUIRE(bytes.size() == c.header_size + (masked ? 4 : 0));
            frame_header h;
            REQUIRE(read(bytes, h) == header_status::complete);
            CHECK(h.fin);
            CHECK(h.op == opcode::binary);
            CHECK(h.masked == masked);
            CHECK(h.payload_size == c.length);
            CHECK(h.size == bytes.size());
            if (masked) CHECK(h.mask == key);
        }
    }
}

TEST_CASE("ws_codec: read_header accepts a longer length form than needed")
{
    // RFC 6455 asks for the minimal form, but a lenient reader loses nothing by taking others.
    frame_header h;
    REQUIRE(read(client_header(0x81, 5, true, default_key, 16), h) == header_status::complete);
    CHECK(h.payload_size == 5);
    CHECK(h.size == 8);
    REQUIRE(read(client_header(0x81, 5, true, default_key, 64), h) == header_status::complete);
    CHECK(h.payload_size == 5);
    CHECK(h.size == 14);
}

TEST_CASE("ws_codec: read_header reads FIN and every opcode")
{
    const std::pair<std::uint8_t, opcode> ops[] = {
        {0x0, opcode::continuation}, {0x1, opcode::text}, {0x2, opcode::binary},
        {0x8, opcode::close},        {0x9, opcode::ping}, {0xA, opcode::pong},
    };
    for (const auto& [bits, op] : ops) {
        CAPTURE(op);
        frame_header h;
        REQUIRE(read(client_header(static_cast<std::uint8_t>(0x80 | bits), 3), h) == header_status::complete);
        CHECK(h.fin);
        CHECK(h.op == op);
        if (!is_control(op)) {
            REQUIRE(read(client_header(bits, 3), h) == header_status::complete);
            CHECK_FALSE(h.fin);
            CHECK(h.op == op);
        }
    }
}

TEST_CASE("ws_codec: read_header wants more at every byte boundary of a header")
{
    for (const auto& c : length_cases) {
        for (const bool masked : {false, true}) {
            const std::string bytes = client_header(0x81, c.length, masked);
            for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
                CAPTURE(c.length);
                CAPTURE(masked);
                CAPTURE(cut);
                CHECK(read(bytes.substr(0, cut)) == header_status::incomplete);
            }
            // The payload (or the next frame) may follow: the header still ends where it did.
            frame_header h;
            REQUIRE(read(bytes + "payload", h) == header_status::complete);
            CHECK(h.size == bytes.size());
        }
    }
}

TEST_CASE("ws_codec: read_header refuses reserved bits")
{
    for (const int rsv : {0x40, 0x20, 0x10, 0x70}) {
        CAPTURE(rsv);
        CHECK(read(client_header(static_cast<std::uint8_t>(0x81 | rsv), 3)) == header_status::invalid);
        CHECK(read(client_header(static_cast<std::uint8_t>(0x89 | rsv), 0)) == header_status::invalid);
    }
    // With two bytes the verdict is already known.
    CHECK(read(client_header(0xC1, 3).substr(0, 2)) == header_status::invalid);
}

TEST_CASE("ws_codec: read_header refuses unknown opcodes")
{
    for (const int op : {0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF}) {
        CAPTURE(op);
        CHECK(read(client_header(static_cast<std::uint8_t>(0x80 | op), 0)) == header_status::invalid);
        CHECK(read(client_header(static_cast<std::uint8_t>(op), 0, false)) == header_status::invalid);
    }
}

TEST_CASE("ws_codec: read_header refuses fragmented control frames and control payloads over 125 bytes")
{
    for (const int op : {0x8, 0x9, 0xA}) {
        CAPTURE(op);
        const auto fragment_op = static_cast<std::uint8_t>(op);
        CHECK(read(client_header(fragment_op, 0)) == header_status::invalid); // FIN clear
        CHECK(read(client_header(fragment_op, 10)) == header_status::invalid);
        const auto final_op = static_cast<std::uint8_t>(0x80 | op);
        CHECK(read(client_header(final_op, 125)) == header_status::complete);
        CHECK(read(client_header(final_op, 126)) == header_status::invalid);
        CHECK(read(client_header(final_op, 70000)) == header_status::invalid);
        // A small length in a longer form is judged by its value.
        CHECK(read(client_header(final_op, 125, true, default_key, 16)) == header_status::complete);
        CHECK(read(client_header(final_op, 126, true, default_key, 16)) == header_status::invalid);
    }
}

TEST_CASE("ws_codec: read_header refuses a 64-bit length with its most significant bit set")
{
    CHECK(read(client_header(0x82, 1ULL << 63, true, default_key, 64)) == header_status::invalid);
    CHECK(read(client_header(0x82, ~0ULL, false, default_key, 64)) == header_status::invalid);
    frame_header h;
    CHECK(read(client_header(0x82, (1ULL << 63) - 1, true, default_key, 64), h) == header_status::complete);
}

TEST_CASE("ws_codec: unmask matches a byte-by-byte XOR for every length and alignment")
{
    const std::array<std::array<std::uint8_t, 4>, 3> keys{{{0x00, 0x00, 0x00, 0x00},
                                                           {0x37, 0xFA, 0x21, 0x3D},
                                                           {0xFF, 0x01, 0x80, 0x7F}}};
    constexpr std::size_t guard = 8;
    for (const auto& key : keys) {
        for (std::size_t length = 0; length <= 40; ++length) {
            for (std::size_t offset = 0; offset < 8; ++offset) {
                std::vector<std::uint8_t> buffer(offset + length + guard);
                for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<std::uint8_t>(i * 37 + 11);
                std::vector<std::uint8_t> expected = buffer;
                for (std::size_t i = 0; i < length; ++i) expected[offset + i] ^= key[i % 4];

                unmask(buffer.data() + offset, length, key);
                CAPTURE(length);
                CAPTURE(offset);
                CAPTURE(int{key[1]});
                CHECK(first_difference(buffer, expected) == -1); // bytes around the payload untouched too
                unmask(buffer.data() + offset, length, key);
                for (std::size_t i = 0; i < length; ++i) expected[offset + i] ^= key[i % 4];
                CHECK(first_difference(buffer, expected) == -1); // masking twice gives the original back
            }
        }
    }
}

TEST_CASE("ws_codec: write_header uses the shortest length form, and read_header reads it back")
{
    const std::pair<std::uint64_t, std::size_t> sizes[] = {
        {0, 2},     {1, 2},     {125, 2},     {126, 4},          {127, 4},
        {65535, 4}, {65536, 10}, {1ULL << 32, 10}, {(1ULL << 63) - 1, 10},
    };
    for (const opcode op : {opcode::text, opcode::binary, opcode::close, opcode::ping, opcode::pong}) {
        for (const auto& [size, header_size] : sizes) {
            if (is_control(op) && size > max_control_payload) continue;
            CAPTURE(op);
            CAPTURE(size);
            std::array<std::uint8_t, max_header_size + 4> out{};
            out.fill(0xEE);
            const std::size_t n = write_header(out.data(), op, size);
            CHECK(n == header_size);
            CHECK(out[n] == 0xEE); // nothing written past the header
            CHECK(out[0] == (0x80 | static_cast<std::uint8_t>(op)));
            CHECK((out[1] & 0x80) == 0); // a server never masks

            frame_header h;
            REQUIRE(read_header(out.data(), n, h) == header_status::complete);
            CHECK(h.fin);
            CHECK(h.op == op);
            CHECK_FALSE(h.masked);
            CHECK(h.payload_size == size);
            CHECK(h.size == n);
            for (std::size_t cut = 0; cut < n; ++cut) CHECK(read_header(out.data(), cut, h) == header_status::incomplete);
        }
    }
}

TEST_CASE("ws_codec: write_header writes big-endian lengths")
{
    std::array<std::uint8_t, max_header_size> out{};
    REQUIRE(write_header(out.data(), opcode::text, 0x1234) == 4);
    CHECK(out[1] == 126);
    CHECK(out[2] == 0x12);
    CHECK(out[3] == 0x34);
    REQUIRE(write_header(out.data(), opcode::text, 0x0102030405060708ULL) == 10);
    CHECK(out[1] == 127);
    for (std::size_t i = 0; i < 8; ++i) CHECK(out[2 + i] == i + 1);
}
