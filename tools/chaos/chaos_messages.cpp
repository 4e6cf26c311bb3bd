#include "chaos_messages.hpp"

#include <cstdio>

namespace quarto::chaos {

namespace {

int pick(std::mt19937_64& random, int low, int high) { return std::uniform_int_distribution<int>{low, high}(random); }

std::string random_rules(std::mt19937_64& random)
{
    static constexpr std::string_view attributes[] = {"color", "height", "shape", "fill"};
    std::string out = R"({"squares":)";
    out += pick(random, 0, 1) ? "true" : "false";
    out += R"(,"attributes":[)";
    const int mask = pick(random, 1, 15); // a non-empty subset
    bool first = true;
    for (int a = 0; a < 4; ++a) {
        if (!(mask & (1 << a))) continue;
        if (!first) out += ',';
        first = false;
        out += quoted(attributes[a]);
    }
    out += R"(],"false_claim":)";
    out += pick(random, 0, 1) ? R"("lose"})" : R"("reject"})";
    return out;
}

} // namespace

std::string quoted(std::string_view s)
{
    std::string out = "\"";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
            out += escaped;
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

std::string hello_named(std::string_view name) { return R"({"type":"hello","name":)" + quoted(name) + "}"; }

std::string hello_token(std::string_view token) { return R"({"type":"hello","token":)" + quoted(token) + "}"; }

std::string join_room(std::string_view room, bool as_spectator)
{
    return R"({"type":"join","room":)" + quoted(room) + (as_spectator ? R"(,"as":"spectator"})" : R"(,"as":"player"})");
}

std::string room_message(std::string_view type, std::string_view room)
{
    return R"({"type":)" + quoted(type) + R"(,"room":)" + quoted(room) + "}";
}

std::string sync_room(std::string_view room, long long since)
{
    return R"({"type":"sync","room":)" + quoted(room) + R"(,"since":)" + std::to_string(since) + "}";
}

std::string list_rooms(int offset, int limit)
{
    return R"({"type":"list_rooms","offset":)" + std::to_string(offset) + R"(,"limit":)" + std::to_string(limit) + "}";
}

std::string random_create_room(std::mt19937_64& random, std::string_view name)
{
    std::string out = R"({"type":"create_room","name":)" + quoted(name);
    if (pick(random, 0, 2) > 0) out += R"(,"rules":)" + random_rules(random);
    out += R"(,"clock":{"move_ms":)";
    out += pick(random, 0, 3) == 0 ? "null" : std::to_string(pick(random, 100, 3'600'000));
    out += R"(,"claim_ms":)" + std::to_string(pick(random, 100, 600'000)) + "}";
    out += pick(random, 0, 3) == 0 ? R"(,"private":true})" : R"(,"private":false})";
    return out;
}

std::string random_create_tournament(std::mt19937_64& random, std::string_view name)
{
    std::string out = R"({"type":"create_tournament","name":)" + quoted(name);
    out += pick(random, 0, 1) ? R"(,"format":"swiss","rounds":)" + std::to_string(pick(random, 1, 3))
                              : std::string{R"(,"format":"round_robin")"};
    out += R"(,"games_per_pairing":)" + std::to_string(pick(random, 1, 2));
    out += R"(,"max_players":)" + std::to_string(pick(random, 2, 6));
    out += R"(,"clock":{"move_ms":)" + std::to_string(pick(random, 500, 3000)) + R"(,"claim_ms":500})";
    if (pick(random, 0, 2) == 0) out += R"(,"rules":)" + random_rules(random);
    out += "}";
    return out;
}

std::string tournament_message(std::string_view type, std::string_view tournament)
{
    return R"({"type":)" + quoted(type) + R"(,"tournament":)" + quoted(tournament) + "}";
}

} // namespace quarto::chaos
