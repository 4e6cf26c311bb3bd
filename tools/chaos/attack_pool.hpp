// Keeps N attackers alive: as each finishes, a new one of a kind drawn by weight takes its
// place, at a bounded rate of new arrivals. Storms come on top: a share of the live attackers
// reset at once, and a burst of resumes with tokens at the same moment.
#pragma once

#include <memory>
#include <random>
#include <unordered_map>

#include "attacks.hpp"

namespace quarto::chaos {

class attack_pool {
public:
    explicit attack_pool(attack_context& context);

    // Starts new attackers, at most `at_most` now, until `target` are alive.
    void top_up(std::size_t target, std::size_t at_most);
    // Resets `share` of the live attackers and starts `resumes` resume attackers, all at once.
    void storm(double share, std::size_t resumes);
    // Attackers older than `limit` are told to stop (their kinds end on their own before).
    void retire_older_than(std::chrono::seconds limit);
    // The run is over: every attacker ends its connections.
    void stop_all();
    std::size_t alive() const { return live_.size(); }

private:
    void spawn(attack_kind kind);

    attack_context& context_;
    std::discrete_distribution<std::size_t> pick_;
    std::unordered_map<const attacker*, std::shared_ptr<attacker>> live_;
};

} // namespace quarto::chaos
