// The query strings of the /api routes: key=value pairs with %-escapes, and the paging
// parameters the lists share (offset, limit).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "quarto/protocol/messages.hpp"

namespace quarto::server::http {

// %XX escapes; in a query, '+' is a space too. nullopt on a malformed escape.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

struct query_param {
    std::string key;
    std::string value;
};
// nullopt on a malformed escape.
std::optional<std::vector<query_param>> parse_query(std::string_view query);
// The first value given for `key`.
const std::string* find(const std::vector<query_param>& params, std::string_view key);

// ?offset=N&limit=M as list_rooms and list_tournaments take them, or why not (a sentence).
std::variant<protocol::page_request, std::string> page_of(std::string_view query);

} // namespace quarto::server::http
