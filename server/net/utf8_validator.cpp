#include "net/utf8_validator.hpp"

#include <array>
#include <cstring>

namespace quarto::server::net {

namespace utf8_tables { // named: the library's unity build puts other files beside this one

// Where a character stands after the bytes read so far: which bytes may come next.
enum utf8_state : std::uint8_t {
    between,  // a whole character (or nothing) so far
    need1,    // one more byte 80..BF
    need2,    // two more
    need3,    // three more
    after_e0, // A0..BF: below it, an overlong three-byte form
    after_ed, // 80..9F: above it, a surrogate (U+D800..U+DFFF)
    after_f0, // 90..BF: below it, an overlong four-byte form
    after_f4, // 80..8F: above it, past U+10FFFF
    rejected,
    state_count
};

// The bytes, by what they may be (RFC 3629 section 4).
enum utf8_class : std::uint8_t {
    ascii,      // 00..7F
    cont_80_8f, // continuation bytes, split where the limits above fall
    cont_90_9f,
    cont_a0_bf,
    lead2,    // C2..DF
    lead_e0,  // E0
    lead3,    // E1..EC, EE..EF
    lead_ed,  // ED
    lead_f0,  // F0
    lead4,    // F1..F3
    lead_f4,  // F4
    invalid,  // C0, C1 (only overlong forms), F5..FF
    class_count
};

constexpr std::array<std::uint8_t, 256> byte_classes = [] {
    std::array<std::uint8_t, 256> c{};
    for (unsigned b = 0; b < 256; ++b) {
        c[b] = b < 0x80   ? ascii
               : b < 0x90 ? cont_80_8f
               : b < 0xA0 ? cont_90_9f
               : b < 0xC0 ? cont_a0_bf
               : b < 0xC2 ? invalid
               : b < 0xE0 ? lead2
               : b == 0xE0 ? lead_e0
               : b == 0xED ? lead_ed
               : b < 0xF0 ? lead3
               : b == 0xF0 ? lead_f0
               : b < 0xF4 ? lead4
               : b == 0xF4 ? lead_f4
                           : invalid;
    }
    return c;
}();

constexpr std::array<std::array<std::uint8_t, class_count>, state_count> utf8_transitions = [] {
    std::array<std::array<std::uint8_t, class_count>, state_count> t{};
    for (auto& row : t) row.fill(rejected);
    t[between][ascii] = between;
    t[between][lead2] = need1;
    t[between][lead_e0] = after_e0;
    t[between][lead3] = need2;
    t[between][lead_ed] = after_ed;
    t[between][lead_f0] = after_f0;
    t[between][lead4] = need3;
    t[between][lead_f4] = after_f4;
    for (const auto c : {cont_80_8f, cont_90_9f, cont_a0_bf}) {
        t[need1][c] = between;
        t[need2][c] = need1;
        t[need3][c] = need2;
    }
    t[after_e0][cont_a0_bf] = need1;
    t[after_ed][cont_80_8f] = need1;
    t[after_ed][cont_90_9f] = need1;
    t[after_f0][cont_90_9f] = need2;
    t[after_f0][cont_a0_bf] = need2;
    t[after_f4][cont_80_8f] = need2;
    return t;
}();

constexpr std::uint64_t ascii_mask = 0x8080808080808080ULL;

} // namespace utf8_tables

bool utf8_validator::feed(std::string_view bytes)
{
    using namespace utf8_tables;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const auto* const end = p + bytes.size();
    std::uint8_t s = state_;
    while (p != end && s != rejected) {
        if (s == between) { // ASCII runs, a word at a time
            std::uint64_t word;
            while (end - p >= 8 && (std::memcpy(&word, p, 8), (word & ascii_mask) == 0)) p += 8;
            if (p == end) break;
        }
        s = utf8_transitions[s][byte_classes[*p++]];
    }
    state_ = s;
    return s != rejected;
}

bool valid_utf8(std::string_view text)
{
    utf8_validator v;
    return v.feed(text) && v.complete();
}

} // namespace quarto::server::net
