#include "quarto/protocol/json_text.hpp"

namespace quarto::protocol {

// The rest of a string value that needs escapes, after its opening quote.
json_text& json_text::escaped(std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    reserve(text.size() * 6 + 1);
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '"': *cursor_++ = '\\'; *cursor_++ = '"'; break;
        case '\\': *cursor_++ = '\\'; *cursor_++ = '\\'; break;
        case '\n': *cursor_++ = '\\'; *cursor_++ = 'n'; break;
        case '\r': *cursor_++ = '\\'; *cursor_++ = 'r'; break;
        case '\t': *cursor_++ = '\\'; *cursor_++ = 't'; break;
        case '\b': *cursor_++ = '\\'; *cursor_++ = 'b'; break;
        case '\f': *cursor_++ = '\\'; *cursor_++ = 'f'; break;
        default:
            if (byte < 0x20) {
                std::memcpy(cursor_, "\\u00", 4);
                cursor_ += 4;
                *cursor_++ = hex[byte >> 4];
                *cursor_++ = hex[byte & 0xf];
            } else {
                *cursor_++ = c; // UTF-8 passes through: the server only writes valid UTF-8
            }
        }
    }
    *cursor_++ = '"';
    return *this;
}

} // namespace quarto::protocol
