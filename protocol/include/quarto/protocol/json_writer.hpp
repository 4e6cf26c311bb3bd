// Appends JSON text to a string with the commas and nesting kept for the caller: for the
// messages written now and then (snapshots, replies, lobby lines). It writes through a
// json_text, like the game's events, so a field encoder (fields.hpp) serves both.
//
// The string is trimmed to what was written when the outermost object or array closes (or
// when the writer goes away); read it only then.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "quarto/protocol/json_text.hpp"

namespace quarto::protocol {

class json_writer {
public:
    explicit json_writer(std::string& out) : text_{out} {}

    json_writer& begin_object() { return open('{'); }
    json_writer& end_object() { return close('}'); }
    json_writer& begin_array() { return open('['); }
    json_writer& end_array() { return close(']'); }

    // `name` is written as is: member names are the protocol's own words, never client text.
    template <std::size_t N>
    json_writer& key(const char (&name)[N])
    {
        separate();
        text_.name(name);
        after_key_ = true;
        return *this;
    }
    json_writer& key(std::string_view name)
    {
        separate();
        text_.name(name);
        after_key_ = true;
        return *this;
    }

    json_writer& value(std::string_view text)
    {
        separate();
        text_.str(text);
        return *this;
    }
    json_writer& value(const char* text) { return value(std::string_view{text}); }
    json_writer& value(bool flag)
    {
        separate();
        text_.boolean(flag);
        return *this;
    }
    template <class Integer>
        requires(std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>)
    json_writer& value(Integer number)
    {
        separate();
        text_.number(number);
        return *this;
    }
    json_writer& null()
    {
        separate();
        text_.null();
        return *this;
    }
    // A value that is already JSON text (a nested document, an echoed "req"), written as is.
    json_writer& raw(std::string_view json_text)
    {
        separate();
        text_.raw(json_text);
        return *this;
    }
    // A value written by `write(json_text&)`: one of the field encoders of fields.hpp.
    template <class Write>
    json_writer& value_with(Write write)
    {
        separate();
        write(text_);
        return *this;
    }

private:
    static constexpr std::size_t max_depth = 32;

    // The comma before an array element or a member, unless it is the first.
    void separate()
    {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (depth_ == 0) return;
        const std::uint32_t bit = 1u << (depth_ - 1);
        if (has_items_ & bit) text_.put(',');
        has_items_ |= bit;
    }
    json_writer& open(char bracket)
    {
        separate();
        assert(depth_ < max_depth);
        text_.put(bracket);
        has_items_ &= ~(1u << depth_);
        ++depth_;
        return *this;
    }
    json_writer& close(char bracket)
    {
        assert(depth_ > 0 && !after_key_);
        text_.put(bracket);
        if (--depth_ == 0) text_.finish();
        return *this;
    }

    json_text text_;
    std::uint32_t has_items_ = 0; // bit d: the container at depth d has an item already
    std::uint32_t depth_ = 0;
    bool after_key_ = false;
};

} // namespace quarto::protocol
