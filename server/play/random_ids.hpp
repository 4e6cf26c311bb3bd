// Unguessable identifiers: player tokens (128 bits) and short ids for rooms and players.
#pragma once

#include <string>

namespace quarto::server::play {

// 32 hex digits from the operating system's random source: a secret that resumes a player.
std::string new_token();
// `length` characters of lowercase base32, e.g. "k3x9abqz": room ids that can go in a link.
std::string new_short_id(std::size_t length = 8);

} // namespace quarto::server::play
