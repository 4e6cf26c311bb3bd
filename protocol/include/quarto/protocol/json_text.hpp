// Appends JSON text to a string through a cursor, with no structure of its own: the caller
// writes the punctuation (literals such as `,"seq":`). The game's events, written on every
// move, and the fields they share with the snapshot are written this way; json_writer adds
// commas and nesting on top of it for the rest.
//
// The string is grown ahead by a chunk and written into; it is trimmed to what was written by
// finish() (or when the json_text goes away). Between the two, the string holds unwritten
// bytes at its end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace quarto::protocol {

class json_text {
public:
    explicit json_text(std::string& out) : out_{out} {}
    ~json_text() { finish(); }
    json_text(const json_text&) = delete;
    json_text& operator=(const json_text&) = delete;
    json_text(json_text&& other) noexcept : out_{other.out_}, cursor_{other.cursor_}, end_{other.end_}
    {
        other.cursor_ = other.end_ = nullptr;
    }

    // JSON text written as is: punctuation, member names, literals. A literal's length is known
    // at compile time, so its copy is a few moves.
    template <std::size_t N>
    json_text& lit(const char (&text)[N])
    {
        reserve(N - 1);
        std::memcpy(cursor_, text, N - 1);
        cursor_ += N - 1;
        return *this;
    }
    json_text& raw(std::string_view text)
    {
        reserve(text.size());
        std::memcpy(cursor_, text.data(), text.size());
        cursor_ += text.size();
        return *this;
    }
    // A string value, quoted and escaped.
    json_text& str(std::string_view text)
    {
        reserve(text.size() + 2);
        *cursor_++ = '"';
        for (const char c : text) {
            if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\') return escaped(text);
        }
        std::memcpy(cursor_, text.data(), text.size()); // ids, names, words: the usual case
        cursor_ += text.size();
        *cursor_++ = '"';
        return *this;
    }
    template <class Integer>
        requires(std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>)
    json_text& number(Integer n)
    {
        reserve(21); // 20 digits and a sign at most
        if constexpr (std::is_signed_v<Integer>) {
            if (n < 0) {
                *cursor_++ = '-';
                // INT64_MIN's magnitude fits only unsigned.
                return digits(0 - static_cast<std::uint64_t>(static_cast<std::int64_t>(n)));
            }
        }
        const auto u = static_cast<std::uint64_t>(n);
        if (u < 10) { // seats, pieces, squares: most numbers of a move's event
            *cursor_++ = static_cast<char>('0' + u);
            return *this;
        }
        return digits(u);
    }
    // `"name":` (a member's name: the protocol's own words, never client text).
    template <std::size_t N>
    json_text& name(const char (&text)[N])
    {
        reserve(N + 2);
        *cursor_++ = '"';
        std::memcpy(cursor_, text, N - 1);
        cursor_ += N - 1;
        *cursor_++ = '"';
        *cursor_++ = ':';
        return *this;
    }
    json_text& name(std::string_view text)
    {
        reserve(text.size() + 3);
        *cursor_++ = '"';
        std::memcpy(cursor_, text.data(), text.size());
        cursor_ += text.size();
        *cursor_++ = '"';
        *cursor_++ = ':';
        return *this;
    }
    // One character of punctuation.
    json_text& put(char c)
    {
        reserve(1);
        *cursor_++ = c;
        return *this;
    }
    json_text& boolean(bool flag) { return flag ? lit("true") : lit("false"); }
    json_text& null() { return lit("null"); }

    // Trims the string to what has been written; writing may go on afterwards.
    void finish()
    {
        if (!cursor_) return;
        out_.resize(static_cast<std::size_t>(cursor_ - out_.data()));
        cursor_ = end_ = nullptr;
    }

private:
    static constexpr std::size_t chunk = 256;

    // Room for `bytes` more at the cursor.
    void reserve(std::size_t bytes)
    {
        if (static_cast<std::size_t>(end_ - cursor_) >= bytes) return;
        const std::size_t written = cursor_ ? static_cast<std::size_t>(cursor_ - out_.data()) : out_.size();
        // A chunk ahead, but within the capacity the string has when that is enough: a reused
        // buffer is not reallocated.
        const std::size_t wanted = written + bytes;
        out_.resize(out_.capacity() >= wanted ? std::min(out_.capacity(), wanted + chunk) : wanted + chunk);
        cursor_ = out_.data() + written;
        end_ = out_.data() + out_.size();
    }

    // The decimal digits of `n` (room reserved), two at a time from a table.
    json_text& digits(std::uint64_t n)
    {
        static constexpr char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                        "8081828384858687888990919293949596979899";
        char buffer[20];
        char* const end = buffer + sizeof buffer;
        char* p = end;
        while (n >= 100) {
            const auto pair = static_cast<std::size_t>(n % 100) * 2;
            n /= 100;
            *--p = pairs[pair + 1];
            *--p = pairs[pair];
        }
        if (n >= 10) {
            const auto pair = static_cast<std::size_t>(n) * 2;
            *--p = pairs[pair + 1];
            *--p = pairs[pair];
        } else {
            *--p = static_cast<char>('0' + n);
        }
        while (p != end) *cursor_++ = *p++;
        return *this;
    }

    // The rest of a string that needs escapes, after its opening quote.
    json_text& escaped(std::string_view text);

    std::string& out_;
    char* cursor_ = nullptr; // where the next byte goes; null before the first write and once finished
    char* end_ = nullptr;    // the end of the room reserved ahead
};

} // namespace quarto::protocol
