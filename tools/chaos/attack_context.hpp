// What every attacker shares: where to connect, the random source, the counters, and the ids
// and tokens seen so far (to aim at things that exist). One thread touches it.
#pragma once

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "chaos_stats.hpp"
#include "net.hpp"
#include "recent.hpp"
#include "ws_client.hpp"

namespace quarto::chaos {

class attacker;

struct attack_context {
    attack_context(net::io_context& io_context, std::uint64_t seed) : io{io_context}, random{seed} {}

    net::io_context& io;
    endpoint_settings attackers; // the spam comes from one address, so it meets the per-address caps
    endpoint_settings pairs;     // the drop/resume pairs from another: they need rooms of their own
    std::mt19937_64 random;
    chaos_stats stats;
    std::size_t max_message_bytes = 4096;

    std::vector<std::string> honest_rooms;
    recent<std::string> rooms{4096};
    recent<std::string> tournaments{512};
    recent<std::string> tokens{4096};

    // An attacker is done; the pool lets go of it (later, not inside the attacker's own call).
    std::function<void(attacker&)> finished;
};

} // namespace quarto::chaos
