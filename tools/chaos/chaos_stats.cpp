#include "chaos_stats.hpp"

namespace quarto::chaos {

namespace {
constexpr std::size_t examples_kept = 40;
}

void chaos_stats::surprise(attack_kind k, const std::string& key, const std::string& detail)
{
    ++of(k).surprises[key];
    if (surprise_examples.size() < examples_kept)
        surprise_examples.push_back(std::string{name_of(k)} + ": " + key + (detail.empty() ? "" : " | " + detail));
}

std::uint64_t chaos_stats::total_surprises() const
{
    std::uint64_t n = 0;
    for (const auto& k : kinds)
        for (const auto& [key, count] : k.surprises) n += count;
    return n;
}

nlohmann::json chaos_stats::to_json() const
{
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t i = 0; i < attack_kind_count; ++i) {
        const auto& k = kinds[i];
        out[std::string{attack_kinds[i].name}] = {
            {"started", k.started},          {"connections", k.connections}, {"opened", k.opened},
            {"messages_out", k.messages_out}, {"messages_in", k.messages_in}, {"errors", k.errors},
            {"endings", k.endings},          {"outcomes", k.outcomes},       {"surprises", k.surprises},
        };
    }
    return out;
}

} // namespace quarto::chaos
