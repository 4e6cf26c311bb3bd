// Reads a message that is one flat JSON object of plain values, the form every move a client
// sends takes, without building a document: the full parser cost as much as the rest of a
// move's handling (bench/RESULTS.md). It accepts only a strict subset of JSON and leaves
// everything else (nesting, escapes, fractions, negative or long numbers, non-ASCII text,
// repeated or too many members) to the full parser, which also words every error.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace quarto::protocol::detail {

struct flat_value {
    enum class kind : std::uint8_t { string, integer, boolean, null };
    kind type = kind::null;
    std::string_view text;     // a string's contents (no escapes in it)
    std::uint64_t integer = 0; // 0 to 10^18 - 1
    bool flag = false;
};

class flat_object {
public:
    static constexpr std::size_t max_members = 8;

    // nullopt: not in the subset (which says nothing of whether it is valid JSON).
    static std::optional<flat_object> scan(std::string_view text);

    const flat_value* find(std::string_view key) const;

private:
    struct member {
        std::string_view key;
        flat_value value;
    };
    std::array<member, max_members> members_{};
    std::size_t size_ = 0;
};

} // namespace quarto::protocol::detail
