// What is stored of a player's secret token: its SHA-256, as 64 lowercase hex digits. A token
// is 128 random bits, so a plain hash (no salt, no stretching) is enough to keep a copy of the
// archive, a journal or a log from letting anyone resume as that player.
#pragma once

#include <string>
#include <string_view>

namespace quarto::archive {

std::string token_hash(std::string_view token);

} // namespace quarto::archive
