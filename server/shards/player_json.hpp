// A player as nodes tell each other of one (in relay records, and the token records in Redis):
// {"id":…,"name":…}.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "quarto/protocol/encode.hpp"

namespace quarto::server::shards {

inline std::string player_json(const protocol::player_info& p)
{
    return nlohmann::json{{"id", p.id}, {"name", p.name}}.dump();
}

// Nullopt when `text` is not such an object.
inline std::optional<protocol::player_info> player_from_json(std::string_view text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("name") || !j["name"].is_string())
        return std::nullopt;
    return protocol::player_info{j["id"].get<std::string>(), j["name"].get<std::string>()};
}

} // namespace quarto::server::shards
