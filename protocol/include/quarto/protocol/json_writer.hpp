// Appends JSON text to a string, with no document in between: for the messages the server
// writes on every move, where building an nlohmann::json first (a map node and often a string
// per field) cost more than the rest of the move's handling (bench/RESULTS.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace quarto::protocol {

class json_writer {
public:
    explicit json_writer(std::string& out) : out_{out} {}

    json_writer& begin_object() { return open('{'); }
    json_writer& end_object() { return close('}'); }
    json_writer& begin_array() { return open('['); }
    json_writer& end_array() { return close(']'); }
    // `name` is written as is: member names are the protocol's own words, never client text.
    json_writer& key(std::string_view name);
    json_writer& value(std::string_view text);
    json_writer& value(const char* text) { return value(std::string_view{text}); }
    json_writer& value(std::int64_t number);
    json_writer& value(std::uint64_t number);
    json_writer& value(bool flag);
    json_writer& null();
    // A value that is already JSON text (a nested document, an echoed "req"), written as is.
    json_writer& raw(std::string_view json_text);

    template <class Integer>
        requires(std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>)
    json_writer& value(Integer number)
    {
        if constexpr (std::is_signed_v<Integer>) return value(static_cast<std::int64_t>(number));
        else return value(static_cast<std::uint64_t>(number));
    }

private:
    json_writer& open(char bracket);
    json_writer& close(char bracket);
    // Writes the comma before an array element or a member, unless it is the first.
    void separate();

    static constexpr std::size_t max_depth = 16;
    std::string& out_;
    std::array<bool, max_depth> has_items_{};
    std::size_t depth_ = 0;
    bool after_key_ = false;
};

} // namespace quarto::protocol
