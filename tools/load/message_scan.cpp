// One pass over the top-level members on the protocol's JSON cursor, which the server's reader
// of moves uses too: strings, numbers, literals, and nested objects and arrays taken whole. It
// validates only what it reads.
#include "message_scan.hpp"

#include "quarto/protocol/json_cursor.hpp"

namespace quarto::load {

namespace {

// Any value: integers in `number` (with `is_int`), strings and nested values as raw text.
bool read_value(protocol::json_cursor& in, std::string_view& text, std::int64_t& number, bool& is_int)
{
    is_int = false;
    const char c = in.peek();
    if (c == '"') return in.raw_string(text);
    if (c == '{' || c == '[') return in.nested(text);
    if (c == '-' || (c >= '0' && c <= '9')) return in.number(number, is_int);
    return in.literal("null") || in.literal("true") || in.literal("false");
}

int small_int(bool is_int, std::int64_t n) { return is_int && n >= 0 && n <= 1'000'000 ? static_cast<int>(n) : -1; }

} // namespace

bool scan_message(std::string_view text, server_message& out)
{
    out = server_message{};
    protocol::json_cursor in{text};
    if (!in.eat('{')) return false;
    if (in.eat('}')) return in.at_end();
    for (;;) {
        std::string_view key;
        if (!in.raw_string(key) || !in.eat(':')) return false;
        std::string_view text_value;
        std::int64_t number = 0;
        bool is_int = false;
        if (!read_value(in, text_value, number, is_int)) return false;
        if (key == "type") out.type = text_value;
        else if (key == "room") out.room = text_value;
        else if (key == "code") out.code = text_value;
        else if (key == "reason") out.reason = text_value;
        else if (key == "token") out.token = text_value;
        else if (key == "status") out.status = text_value;
        else if (key == "game" && !text_value.empty() && text_value.front() == '{') out.game = text_value;
        else if (key == "seat") out.seat = small_int(is_int, number);
        else if (key == "piece") out.piece = small_int(is_int, number);
        else if (key == "square") out.square = small_int(is_int, number);
        else if (key == "first") out.first = small_int(is_int, number);
        else if (key == "seq") out.seq = is_int ? number : -1;
        else if (key == "req") out.req = small_int(is_int, number);
        else if (key == "you" && !text_value.empty() && text_value.front() == '{') {
            server_message you;
            if (scan_message(text_value, you)) out.you_seat = you.seat;
        }
        if (in.eat(',')) continue;
        if (in.eat('}')) return in.at_end();
        return false;
    }
}

} // namespace quarto::load
