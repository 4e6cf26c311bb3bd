// Client messages the attackers send, as JSON text (quarto-load's writers cover the honest
// game messages; these are the lobby's, with the odd values attackers choose).
#pragma once

#include <random>
#include <string>
#include <string_view>

namespace quarto::chaos {

std::string quoted(std::string_view s); // a JSON string
std::string hello_named(std::string_view name);
std::string hello_token(std::string_view token);
std::string join_room(std::string_view room, bool as_spectator);
std::string room_message(std::string_view type, std::string_view room); // leave, resign, rematch, ...
std::string sync_room(std::string_view room, long long since);
std::string list_rooms(int offset, int limit);
// A valid create_room with random rules, clock and privacy.
std::string random_create_room(std::mt19937_64& random, std::string_view name);
// A valid create_tournament with short clocks, so its offline players lose on time quickly.
std::string random_create_tournament(std::mt19937_64& random, std::string_view name);
std::string tournament_message(std::string_view type, std::string_view tournament);

} // namespace quarto::chaos
