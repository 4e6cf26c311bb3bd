// A top-level field's value exactly as the server wrote it: a string's contents (escapes left
// in place) or a number's digits. quarto-load's scanner parses numbers; the req checks need
// them as text, since the server must echo `1.50` as `1.50` (PROTOCOL.md section 3).
#pragma once

#include <optional>
#include <string_view>

namespace quarto::chaos {

struct raw_value {
    std::string_view text;
    bool is_string = false;
};

// Looks for "key": at the top level of a JSON object (nested objects are skipped).
std::optional<raw_value> raw_field(std::string_view object, std::string_view key);

} // namespace quarto::chaos
