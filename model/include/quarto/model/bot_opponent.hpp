// The computer as a player: in a room created against it (`opponent`), or an entrant a
// tournament's director adds (`add_bot`).
#pragma once

#include <cstdint>

namespace quarto::model {

// On the wire: `{"bot": LEVEL, "delay_ms": N}`.
struct bot_opponent {
    int level = 1; // 1..5 (quarto::solver::min_bot_level..max_bot_level)
    // How long it waits from the start of its turn before moving, thinking included: a person
    // does not answer in a millisecond.
    std::int64_t delay_ms = 600;
    friend bool operator==(const bot_opponent&, const bot_opponent&) = default;
};

// Bounds of `delay_ms`.
inline constexpr std::int64_t max_bot_delay_ms = 5'000;

} // namespace quarto::model
