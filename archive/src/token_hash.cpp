#include "quarto/archive/token_hash.hpp"

#include <array>

#include <openssl/sha.h>

namespace quarto::archive {

std::string token_hash(std::string_view token)
{
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), digest.data());
    static constexpr char hex[] = "0123456789abcdef";
    std::string text;
    text.reserve(2 * digest.size());
    for (const unsigned char byte : digest) {
        text.push_back(hex[byte >> 4]);
        text.push_back(hex[byte & 0xF]);
    }
    return text;
}

} // namespace quarto::archive
