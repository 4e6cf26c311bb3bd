// A cursor over JSON text, for the readers that take a few members out of a message without
// building a document: the server's reader of moves (src/move_reader.cpp) and the load
// generator's reader of events (tools/load/message_scan.cpp). It reads one token at a time and
// validates only what it reads; each reader decides what it accepts. In a header so that both
// readers, each on the path of every move, inline it.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace quarto::protocol {

class json_cursor {
public:
    explicit json_cursor(std::string_view text) : p_{text.data()}, end_{text.data() + text.size()} {}

    void skip_space()
    {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }
    // Skips whitespace, then takes `c` if it is next.
    bool eat(char c)
    {
        skip_space();
        if (p_ == end_ || *p_ != c) return false;
        ++p_;
        return true;
    }
    bool at_end()
    {
        skip_space();
        return p_ == end_;
    }
    // The next character after whitespace, '\0' at the end.
    char peek()
    {
        skip_space();
        return p_ == end_ ? '\0' : *p_;
    }
    // Skips whitespace, then takes `word` (null, true, false) if it is next.
    bool literal(std::string_view word)
    {
        skip_space();
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view{p_, word.size()} != word) return false;
        p_ += word.size();
        return true;
    }

    // A string of printable ASCII without escapes, its opening quote next: its contents.
    bool plain_string(std::string_view& out)
    {
        if (!eat('"')) return false;
        const char* start = p_;
        for (;; ++p_) {
            if (p_ == end_) return false;
            const char c = *p_;
            if (c == '"') break;
            // Printable ASCII is 0x20..0x7e: one unsigned comparison, and the backslash.
            if (static_cast<unsigned char>(c - 0x20) > 0x5e || c == '\\') return false;
        }
        out = {start, static_cast<std::size_t>(p_ - start)};
        ++p_;
        return true;
    }
    // Any string, its opening quote next: its contents as they stand, escapes left in place.
    bool raw_string(std::string_view& out)
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

    // A non-negative integer of at most 18 digits, no leading zero, no fraction or exponent.
    // When it fails, the digits it has read are gone: the caller gives up on the text.
    bool plain_integer(std::uint64_t& out)
    {
        skip_space();
        if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
        const char* start = p_;
        std::uint64_t n = 0;
        while (p_ != end_ && *p_ >= '0' && *p_ <= '9') n = n * 10 + static_cast<std::uint64_t>(*p_++ - '0');
        const auto digits = p_ - start;
        if (digits > 18 || (*start == '0' && digits > 1)) return false;
        if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
        out = n;
        return true;
    }
    // Any number, its first character next: its integer part in `out`, and `is_int` when it
    // has no fraction or exponent.
    bool number(std::int64_t& out, bool& is_int)
    {
        const auto [ptr, ec] = std::from_chars(p_, end_, out);
        if (ec != std::errc{}) return false;
        p_ = ptr;
        is_int = p_ == end_ || (*p_ != '.' && *p_ != 'e' && *p_ != 'E');
        while (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || *p_ == '+' || *p_ == '-' ||
                              (*p_ >= '0' && *p_ <= '9')))
            ++p_;
        return true;
    }
    // An object or an array, its opening bracket next: its text, brackets included (brackets
    // inside its strings do not count).
    bool nested(std::string_view& out)
    {
        const char* start = p_;
        int depth = 0;
        while (p_ != end_) {
            const char c = *p_;
            if (c == '"') {
                std::string_view ignored;
                if (!raw_string(ignored)) return false;
                continue;
            }
            ++p_;
            if (c == '{' || c == '[') ++depth;
            else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    out = std::string_view{start, static_cast<std::size_t>(p_ - start)};
                    return true;
                }
            }
        }
        return false;
    }

private:
    const char* p_;
    const char* end_;
};

} // namespace quarto::protocol
