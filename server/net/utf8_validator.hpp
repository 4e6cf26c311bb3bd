// Incremental UTF-8 validation (RFC 3629) for WebSocket text messages, which RFC 6455 section
// 8.1 requires to be UTF-8: fed one fragment at a time, it says no at the first byte that no
// valid text can continue with (an overlong form, a surrogate, past U+10FFFF, C0, C1, F5..FF,
// a stray continuation byte), so a bad message fails at its first bad fragment.
//
// Ours rather than Beast's websocket::detail::utf8_checker: that one is in a detail namespace
// (no promise between Boost versions), and it keeps a pointer into itself, so a copy, as a
// connection's handover to another loop makes, would point into the object it came from. This
// one is a byte of state and two small tables: nothing allocated, trivially copied, and ASCII
// (nearly all of a JSON message) checked eight bytes at a time.
#pragma once

#include <cstdint>
#include <string_view>

namespace quarto::server::net {

class utf8_validator {
public:
    // Takes the next bytes of a text. False as soon as they cannot be part of valid UTF-8, and
    // from then on until reset().
    bool feed(std::string_view bytes);
    // Whether the text so far ends with a whole character: a message must.
    bool complete() const { return state_ == 0; }
    void reset() { state_ = 0; }

private:
    std::uint8_t state_ = 0; // 0: between characters
};

// Whether `text` is whole, valid UTF-8.
bool valid_utf8(std::string_view text);

} // namespace quarto::server::net
