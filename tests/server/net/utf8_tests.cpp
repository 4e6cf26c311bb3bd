// The incremental UTF-8 validator: what RFC 3629 allows and refuses, fed whole or in pieces,
// refusing at the first byte that shows a text bad; and against a plain decoder written from
// the RFC's table, over every string of up to two bytes and many longer ones.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "net/utf8_validator.hpp"
#include "net_support.hpp"

using quarto::server::net::utf8_validator;
using quarto::server::net::valid_utf8;

namespace {

std::string hex_of(std::string_view bytes)
{
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : bytes) {
        const auto b = static_cast<std::uint8_t>(c);
        if (!out.empty()) out += ' ';
        out += digits[b >> 4];
        out += digits[b & 0xF];
    }
    return out;
}

// RFC 3629 section 3, decoded the slow way: each character's length from its first byte, its
// bits gathered, then the ranges checked.
bool reference_valid(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto b = static_cast<std::uint8_t>(text[i]);
        std::size_t length = 0;
        std::uint32_t cp = 0;
        if (b < 0x80) length = 1, cp = b;
        else if ((b & 0xE0) == 0xC0) length = 2, cp = b & 0x1Fu;
        else if ((b & 0xF0) == 0xE0) length = 3, cp = b & 0x0Fu;
        else if ((b & 0xF8) == 0xF0) length = 4, cp = b & 0x07u;
        else return false;
        if (i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k) {
            const auto c = static_cast<std::uint8_t>(text[i + k]);
            if ((c & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (c & 0x3Fu);
        }
        static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < smallest[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += length;
    }
    return true;
}

struct text_case {
    const char* what;
    std::string bytes;
};

// Valid, among them the edges of each length and what is valid although unusual.
const std::vector<text_case> valid_cases = {
    {"empty", ""},
    {"ASCII", R"({"type":"ping","req":"p1"})"},
    {"Greek (Autobahn 6.2.1)", "\xCE\xBA\xE1\xBD\xB9\xCF\x83\xCE\xBC\xCE\xB5"},
    {"U+0000", std::string(1, '\0')},
    {"U+0080, the first two-byte character", "\xC2\x80"},
    {"U+07FF, the last", "\xDF\xBF"},
    {"U+0800, the first three-byte character", "\xE0\xA0\x80"},
    {"U+D7FF, just below the surrogates", "\xED\x9F\xBF"},
    {"U+E000, just above them", "\xEE\x80\x80"},
    {"U+FFFE, a noncharacter but valid UTF-8", "\xEF\xBF\xBE"},
    {"U+FFFF", "\xEF\xBF\xBF"},
    {"U+10000, the first four-byte character", "\xF0\x90\x80\x80"},
    {"U+10FFFF, the last character", "\xF4\x8F\xBF\xBF"},
    {"an emoji inside ASCII", "name: \xF0\x9F\x98\x80!"},
};

// Invalid: each of RFC 6455's fail-the-connection cases that Autobahn's section 6 sends.
const std::vector<text_case> invalid_cases = {
    {"overlong '/' in two bytes", "\xC0\xAF"},
    {"overlong '/' in three bytes", "\xE0\x80\xAF"},
    {"overlong '/' in four bytes", "\xF0\x80\x80\xAF"},
    {"overlong NUL", "\xC0\x80"},
    {"the largest overlong two-byte form", "\xC1\xBF"},
    {"the largest overlong three-byte form", "\xE0\x9F\xBF"},
    {"the largest overlong four-byte form", "\xF0\x8F\xBF\xBF"},
    {"a high surrogate U+D800", "\xED\xA0\x80"},
    {"a low surrogate U+DFFF", "\xED\xBF\xBF"},
    {"a surrogate pair written as two characters", "\xED\xA0\x80\xED\xB0\x80"},
    {"U+110000, past the last character", "\xF4\x90\x80\x80"},
    {"F5, a lead byte only for past U+10FFFF", "\xF5\x80\x80\x80"},
    {"F7 BF BF BF", "\xF7\xBF\xBF\xBF"},
    {"a five-byte form", "\xF8\x88\x80\x80\x80"},
    {"a six-byte form", "\xFC\x84\x80\x80\x80\x80"},
    {"FE", "\xFE"},
    {"FF", "\xFF"},
    {"FE FE FF FF", "\xFE\xFE\xFF\xFF"},
    {"a lone continuation byte", "\x80"},
    {"a continuation byte inside ASCII", "ab\xBF" "cd"},
    {"a truncated two-byte character", "\xC2"},
    {"a truncated three-byte character", "\xE2\x82"},
    {"a truncated four-byte character", "\xF0\x9F\x98"},
    {"valid text cut inside its last character", "\xCE\xBA\xE1\xBD\xB9\xCF\x83\xCE\xBC\xCE"},
    {"a lead byte followed by ASCII", "\xC2" "A"},
    {"a three-byte lead with one continuation, then ASCII", "\xE1\x80" "A"},
    {"every lead byte alone, C0 to FF", [] {
         std::string s;
         for (int b = 0xC0; b <= 0xFF; ++b) s += static_cast<char>(b), s += ' ';
         return s;
     }()},
};

} // namespace

TEST_CASE("utf8: valid text is accepted, whole and split at every byte")
{
    for (const auto& c : valid_cases) {
        CAPTURE(c.what);
        REQUIRE(reference_valid(c.bytes)); // the case itself is right
        CHECK(valid_utf8(c.bytes));
        for (std::size_t cut = 0; cut <= c.bytes.size(); ++cut) {
            CAPTURE(cut);
            utf8_validator v;
            CHECK(v.feed(std::string_view{c.bytes}.substr(0, cut)));
            CHECK(v.feed(std::string_view{c.bytes}.substr(cut)));
            CHECK(v.complete());
        }
    }
}

TEST_CASE("utf8: invalid text is refused, whole and split at every byte")
{
    for (const auto& c : invalid_cases) {
        CAPTURE(c.what);
        REQUIRE_FALSE(reference_valid(c.bytes));
        CHECK_FALSE(valid_utf8(c.bytes));
        for (std::size_t cut = 0; cut <= c.bytes.size(); ++cut) {
            CAPTURE(cut);
            utf8_validator v;
            const bool ok = v.feed(std::string_view{c.bytes}.substr(0, cut)) &&
                            v.feed(std::string_view{c.bytes}.substr(cut)) && v.complete();
            CHECK_FALSE(ok);
        }
    }
}

TEST_CASE("utf8: a text is refused at the first byte no valid text continues with")
{
    // Fed one byte at a time, feed() says no exactly at the byte that makes the text bad, not at
    // the end of the character or of the text.
    struct early {
        std::string bytes;
        std::size_t refused_at; // index of the first byte refused
    };
    const early cases[] = {
        {"\xC0", 0},           {"\xC1", 0},           {"\xF5", 0},         {"\xFE", 0},
        {"\x80", 0},           {"\xE0\x80", 1},       {"\xE0\x9F", 1},     {"\xED\xA0", 1},
        {"\xF0\x80", 1},       {"\xF0\x8F", 1},       {"\xF4\x90", 1},     {"ok\xF4\x90\x80\x80", 3},
        {"\xC2" "A", 1},       {"\xE1\x80" "A", 2},   {"\xF1\x80\x80" "A", 3},
    };
    for (const auto& c : cases) {
        CAPTURE(hex_of(c.bytes));
        utf8_validator v;
        std::size_t i = 0;
        while (i < c.bytes.size() && v.feed(std::string_view{c.bytes}.substr(i, 1))) ++i;
        CHECK(i == c.refused_at);
        CHECK_FALSE(v.feed("a")); // and stays refused
    }
    // A character begun but not finished is not refused: more may come.
    for (const std::string begun : {"\xC2", "\xE0\xA0", "\xED\x9F", "\xF0\x90", "\xF4\x8F\xBF"}) {
        utf8_validator v;
        CHECK(v.feed(begun));
        CHECK_FALSE(v.complete());
    }
}

TEST_CASE("utf8: a bad byte anywhere in a long ASCII run is found")
{
    // ASCII is read eight bytes at a time: a bad byte at every offset of a word, and after it.
    for (std::size_t before = 0; before < 24; ++before) {
        for (std::size_t after = 0; after < 10; ++after) {
            CAPTURE(before);
            CAPTURE(after);
            const std::string ascii_before(before, 'a'), ascii_after(after, 'z');
            CHECK_FALSE(valid_utf8(ascii_before + "\xFF" + ascii_after));
            CHECK_FALSE(valid_utf8(ascii_before + "\x80" + ascii_after));
            CHECK(valid_utf8(ascii_before + "\xC3\xA9" + ascii_after));
            CHECK_FALSE(valid_utf8(ascii_before + "\xC3"));
        }
    }
}

TEST_CASE("utf8: the same answer as the RFC's table for every string of one or two bytes")
{
    int mismatches = 0;
    for (int a = 0; a < 256; ++a) {
        for (int b = -1; b < 256; ++b) {
            std::string s(1, static_cast<char>(a));
            if (b >= 0) s += static_cast<char>(b);
            if (valid_utf8(s) != reference_valid(s) && ++mismatches <= 5) FAIL_CHECK("differs on " << hex_of(s));
        }
    }
    CHECK(mismatches == 0);
}

TEST_CASE("utf8: the same answer as the RFC's table for random texts, whole and in pieces")
{
    std::mt19937 random{20240601};
    // Bytes drawn mostly from where the rules are: leads E0..F4, continuations, some ASCII.
    const std::string alphabet = "a\x7F\x80\x8F\x90\x9F\xA0\xBF\xC0\xC1\xC2\xDF\xE0\xE1\xEC\xED\xEE\xEF\xF0\xF1\xF3\xF4\xF5\xFF";
    int mismatches = 0;
    for (int round = 0; round < 200000; ++round) {
        std::string s(1 + random() % 12, '\0');
        for (auto& ch : s) ch = alphabet[random() % alphabet.size()];
        const bool expected = reference_valid(s);
        utf8_validator pieces;
        const std::size_t cut = random() % (s.size() + 1);
        const bool split = pieces.feed(std::string_view{s}.substr(0, cut)) && pieces.feed(std::string_view{s}.substr(cut)) &&
                           pieces.complete();
        if ((valid_utf8(s) != expected || split != expected) && ++mismatches <= 5)
            FAIL_CHECK("differs on " << hex_of(s) << " (cut at " << cut << ")");
    }
    CHECK(mismatches == 0);
}
