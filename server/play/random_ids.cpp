#include "play/random_ids.hpp"

#include <array>
#include <cstdint>
#include <random>

namespace quarto::server::play {

// One per thread: no lock, and constructed once.
std::uint32_t random_word()
{
    thread_local std::random_device source;
    return source();
}

std::string new_token()
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string token;
    token.reserve(32);
    for (int word = 0; word < 4; ++word) {
        std::uint32_t bits = random_word();
        for (int nibble = 0; nibble < 8; ++nibble, bits >>= 4) token.push_back(hex[bits & 0xF]);
    }
    return token;
}

std::string new_short_id(std::size_t length)
{
    static constexpr char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789"; // no l, o, 0, 1
    std::string id;
    id.reserve(length);
    while (id.size() < length) {
        std::uint32_t bits = random_word();
        for (int i = 0; i < 6 && id.size() < length; ++i, bits >>= 5) id.push_back(alphabet[bits & 31]);
    }
    return id;
}

} // namespace quarto::server::play
