// A minimal JSON walker: strings, numbers, literals, and balanced skipping of nested objects and
// arrays (brackets inside strings are ignored). It validates only what it reads.
#include "message_scan.hpp"

#include <charconv>

namespace quarto::load {

namespace {

class cursor {
public:
    explicit cursor(std::string_view text) : p_{text.data()}, end_{text.data() + text.size()} {}

    void skip_space()
    {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }
    bool eat(char c)
    {
        skip_space();
        if (p_ == end_ || *p_ != c) return false;
        ++p_;
        return true;
    }
    bool peek(char c)
    {
        skip_space();
        return p_ != end_ && *p_ == c;
    }
    bool at_end()
    {
        skip_space();
        return p_ == end_;
    }

    // A string's raw contents (between the quotes).
    bool string(std::string_view& out)
    {
        if (!eat('"')) return false;
        const char* start = p_;
        while (p_ != end_ && *p_ != '"') {
            if (*p_ == '\\') {
                ++p_;
                if (p_ == end_) return false;
            }
            ++p_;
        }
        if (p_ == end_) return false;
        out = std::string_view{start, static_cast<std::size_t>(p_ - start)};
        ++p_;
        return true;
    }

    // Any value; integers are returned in `number` (with `is_int`), strings in `text`.
    bool value(std::string_view& text, std::int64_t& number, bool& is_int)
    {
        is_int = false;
        skip_space();
        if (p_ == end_) return false;
        const char c = *p_;
        if (c == '"') return string(text);
        if (c == '{' || c == '[') {
            const char* start = p_;
            if (!skip_nested()) return false;
            text = std::string_view{start, static_cast<std::size_t>(p_ - start)}; // the nested value, raw
            return true;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            const auto [ptr, ec] = std::from_chars(p_, end_, number);
            if (ec != std::errc{}) return false;
            p_ = ptr;
            is_int = p_ == end_ || (*p_ != '.' && *p_ != 'e' && *p_ != 'E');
            while (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || *p_ == '+' || *p_ == '-' ||
                                  (*p_ >= '0' && *p_ <= '9')))
                ++p_;
            return true;
        }
        for (std::string_view literal : {std::string_view{"null"}, std::string_view{"true"}, std::string_view{"false"}}) {
            if (static_cast<std::size_t>(end_ - p_) >= literal.size() &&
                std::string_view{p_, literal.size()} == literal) {
                p_ += literal.size();
                return true;
            }
        }
        return false;
    }

private:
    bool skip_nested()
    {
        int depth = 0;
        while (p_ != end_) {
            const char c = *p_;
            if (c == '"') {
                std::string_view ignored;
                if (!string(ignored)) return false;
                continue;
            }
            ++p_;
            if (c == '{' || c == '[') ++depth;
            else if (c == '}' || c == ']') {
                if (--depth == 0) return true;
            }
        }
        return false;
    }

    const char* p_;
    const char* end_;
};

int small_int(bool is_int, std::int64_t n) { return is_int && n >= 0 && n <= 1'000'000 ? static_cast<int>(n) : -1; }

} // namespace

bool scan_message(std::string_view text, server_message& out)
{
    out = server_message{};
    cursor in{text};
    if (!in.eat('{')) return false;
    if (in.eat('}')) return in.at_end();
    for (;;) {
        std::string_view key;
        if (!in.string(key) || !in.eat(':')) return false;
        std::string_view text_value;
        std::int64_t number = 0;
        bool is_int = false;
        if (!in.value(text_value, number, is_int)) return false;
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
