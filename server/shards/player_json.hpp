// A player as nodes tell each other of one (in relay records, and the token records in Redis):
// {"id":…,"name":…,"token_hash":…}. The hash lets the node of a tournament store its players
// as a node that saw their hello does, so that their tokens work after any restart. A guest who
// has made an account is published once more under its old token with "account": true, so that
// no node resumes the account by that token.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "play/player_registry.hpp"

namespace quarto::server::shards {

inline std::string player_json(const play::player_record& p)
{
    nlohmann::json j{{"id", p.info.id}, {"name", p.info.name}, {"token_hash", p.token_hash}};
    if (p.account) j["account"] = true;
    return j.dump();
}

// Nullopt when `text` is not such an object (the hash may be missing: empty then).
inline std::optional<play::player_record> player_from_json(std::string_view text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("name") || !j["name"].is_string())
        return std::nullopt;
    play::player_record p{{j["id"].get<std::string>(), j["name"].get<std::string>()}, {}};
    if (const auto hash = j.find("token_hash"); hash != j.end() && hash->is_string()) p.token_hash = hash->get<std::string>();
    if (const auto account = j.find("account"); account != j.end() && account->is_boolean()) p.account = account->get<bool>();
    return p;
}

} // namespace quarto::server::shards
