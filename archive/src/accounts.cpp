// Account names' keys, the pools' stored names, and an account's data as JSON.
#include "quarto/archive/accounts.hpp"

#include "account_rows.hpp"

namespace quarto::archive {

std::string account_name_key(std::string_view name)
{
    std::string key{name};
    for (char& c : key)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return key;
}

nlohmann::json account_export_json(const account_export& e)
{
    nlohmann::json sessions = nlohmann::json::array();
    for (const auto& s : e.sessions) sessions.push_back({{"created_ms", s.created_ms}, {"last_seen_ms", s.last_seen_ms}});
    nlohmann::json ratings = nlohmann::json::array();
    for (const auto& r : e.ratings)
        ratings.push_back({{"pool", std::string{rating::name(r.pool)}},
                           {"rating", r.rating},
                           {"deviation", r.deviation},
                           {"volatility", r.volatility},
                           {"games", r.games},
                           {"last_game_ms", r.last_game_ms}});
    return {{"player_id", e.player_id}, {"name", e.name},       {"created_ms", e.created_ms}, {"deleted", e.deleted},
            {"sessions", sessions},     {"ratings", ratings},   {"games", e.games}};
}

namespace detail {

std::optional<rating::pool> pool_named(std::string_view text)
{
    for (const rating::pool p : {rating::pool::standard, rating::pool::advanced})
        if (rating::name(p) == text) return p;
    return std::nullopt;
}

} // namespace detail
} // namespace quarto::archive
