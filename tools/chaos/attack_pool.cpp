#include "attack_pool.hpp"

#include <vector>

namespace quarto::chaos {

namespace {

std::discrete_distribution<std::size_t> by_weight()
{
    std::vector<double> weights;
    for (const auto& k : attack_kinds) weights.push_back(k.weight);
    return {weights.begin(), weights.end()};
}

} // namespace

attack_pool::attack_pool(attack_context& context) : context_{context}, pick_{by_weight()}
{
    // Let go of a finished attacker later, never inside its own call stack.
    context_.finished = [this](attacker& a) {
        const attacker* key = &a;
        net::post(context_.io, [this, key] { live_.erase(key); });
    };
}

void attack_pool::spawn(attack_kind kind)
{
    auto a = make_attacker(kind, context_);
    if (!a) return;
    live_.emplace(a.get(), a);
    a->start();
}

void attack_pool::top_up(std::size_t target, std::size_t at_most)
{
    for (std::size_t i = 0; i < at_most && live_.size() < target; ++i)
        spawn(static_cast<attack_kind>(pick_(context_.random)));
}

void attack_pool::storm(double share, std::size_t resumes)
{
    ++context_.stats.storms;
    std::vector<std::shared_ptr<attacker>> hit;
    for (const auto& [key, a] : live_)
        if (!a->finished() && std::bernoulli_distribution{share}(context_.random)) hit.push_back(a);
    for (auto& a : hit) a->drop();
    for (std::size_t i = 0; i < resumes; ++i) spawn(attack_kind::resume);
}

void attack_pool::retire_older_than(std::chrono::seconds limit)
{
    const auto now = clock_type::now();
    std::vector<std::shared_ptr<attacker>> old;
    for (const auto& [key, a] : live_)
        if (!a->finished() && now - a->born() > limit) old.push_back(a);
    // Asked to stop, an attacker closes politely; one still there 15 s later is reset.
    for (auto& a : old) {
        if (now - a->born() > limit + std::chrono::seconds{15}) a->drop();
        else a->stop();
    }
}

void attack_pool::stop_all()
{
    std::vector<std::shared_ptr<attacker>> all;
    for (const auto& [key, a] : live_) all.push_back(a);
    for (auto& a : all) a->stop();
}

} // namespace quarto::chaos
