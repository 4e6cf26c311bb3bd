#include "shards/remote_members.hpp"

namespace quarto::server::shards {

play::client_ref remote_members::ref_for(const std::string& node, const cluster::client_address& client, clock::time_point now)
{
    const auto key = std::make_tuple(node, client.shard, client.slot, client.generation);
    if (const auto it = by_client_.find(key); it != by_client_.end())
        return {static_cast<std::uint16_t>(shard_ | remote_shard_bit), it->second, slots_[it->second].generation};
    std::uint32_t index;
    if (!free_.empty()) {
        index = free_.back();
        free_.pop_back();
    } else {
        index = static_cast<std::uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    member& m = slots_[index];
    m.node = node;
    m.client = client;
    m.places = 0;
    m.idle_since = now;
    m.used = true;
    by_client_.emplace(key, index);
    return {static_cast<std::uint16_t>(shard_ | remote_shard_bit), index, m.generation};
}

remote_members::member* remote_members::find(const play::client_ref& ref)
{
    if (!is_remote(ref) || ref.slot >= slots_.size()) return nullptr;
    member& m = slots_[ref.slot];
    return m.used && m.generation == ref.generation ? &m : nullptr;
}

void remote_members::entered(const play::client_ref& ref)
{
    if (member* m = find(ref)) ++m->places;
}

void remote_members::left(const play::client_ref& ref, clock::time_point now)
{
    member* m = find(ref);
    if (!m || m->places == 0) return;
    if (--m->places == 0) m->idle_since = now;
}

void remote_members::sweep(clock::time_point now)
{
    for (std::uint32_t i = 0; i < slots_.size(); ++i) {
        member& m = slots_[i];
        if (!m.used || m.places > 0 || now - m.idle_since < linger) continue;
        by_client_.erase(std::make_tuple(m.node, m.client.shard, m.client.slot, m.client.generation));
        m.used = false;
        ++m.generation;
        free_.push_back(i);
    }
}

} // namespace quarto::server::shards
