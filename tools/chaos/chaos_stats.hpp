// What the attackers did and saw, by kind. "outcomes" are what a kind expects the server to do
// (a 1009 for an oversize message, a pong with the req as written); "surprises" are everything
// else it can check, kept with a few examples for the report.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attack_kind.hpp"

namespace quarto::chaos {

using counter_map = std::map<std::string, std::uint64_t, std::less<>>;

struct kind_stats {
    std::uint64_t started = 0;     // attackers of this kind
    std::uint64_t connections = 0; // TCP connections they opened
    std::uint64_t opened = 0;      // of which upgraded
    std::uint64_t messages_out = 0;
    std::uint64_t messages_in = 0;
    counter_map errors;    // error replies by code
    counter_map endings;   // how connections ended (ws_client::ending::describe)
    counter_map outcomes;  // expected behaviour, seen
    counter_map surprises; // unexpected behaviour, seen
};

struct chaos_stats {
    std::array<kind_stats, attack_kind_count> kinds;
    std::vector<std::string> surprise_examples; // the first few, for the report
    std::uint64_t storms = 0;

    kind_stats& of(attack_kind k) { return kinds[static_cast<std::size_t>(k)]; }
    void surprise(attack_kind k, const std::string& key, const std::string& detail);
    std::uint64_t total_surprises() const;
    nlohmann::json to_json() const;
};

} // namespace quarto::chaos
