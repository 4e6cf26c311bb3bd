// "req" is echoed unchanged (PROTOCOL.md section 3). A JSON number that a double would not give
// back as written (1.50, 1e3, 123456789012345678901234567890) is kept as its text, in a json
// value of the binary kind that only this header makes and reads.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace quarto::protocol {

// `parsed`: the "req" of `message` as nlohmann read it (a string or a number). A float comes
// back holding the text the client wrote; anything else as it is.
nlohmann::json exact_req(const nlohmann::json& parsed, std::string_view message);
// The JSON text that echoes `req` (not null).
std::string req_text(const nlohmann::json& req);
// `document` (a JSON object's text) with "req" added last, when `req` is not null.
std::string with_req(std::string document, const nlohmann::json& req);

} // namespace quarto::protocol
