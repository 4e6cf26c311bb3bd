// Clients of other nodes in this shard's rooms. Each is given a client_ref of this shard's own,
// marked remote (see is_remote), that the rooms use as they use any client's; what they send it
// goes to its node as relay records (cluster/relay_record.hpp). An entry lasts while its client
// is in a place here, and a little after, so that a reply still waiting for the journal finds it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cluster/relay_record.hpp"
#include "play/client_ref.hpp"

namespace quarto::server::shards {

// The shard index of a remote member's ref has this bit set (no server has 32768 shards).
inline constexpr std::uint16_t remote_shard_bit = 0x8000;
inline bool is_remote(const play::client_ref& ref) { return (ref.shard & remote_shard_bit) != 0; }

class remote_members {
public:
    using clock = std::chrono::steady_clock;
    // How long an entry in no place is kept (replies held by the journal still reach it).
    static constexpr std::chrono::seconds linger{30};

    struct member {
        std::string node;
        cluster::client_address client;
        std::uint32_t generation = 0;
        std::size_t places = 0;
        clock::time_point idle_since;
        bool used = false;
    };

    explicit remote_members(std::uint16_t shard) : shard_{shard} {}

    // The ref of `client` of `node`, made on first use.
    play::client_ref ref_for(const std::string& node, const cluster::client_address& client, clock::time_point now);
    // Null for a ref that is not (or no longer) a member's.
    member* find(const play::client_ref& ref);
    void entered(const play::client_ref& ref);
    void left(const play::client_ref& ref, clock::time_point now);
    // Frees the entries in no place for longer than `linger`.
    void sweep(clock::time_point now);
    std::size_t size() const { return by_client_.size(); }

private:
    const std::uint16_t shard_;
    std::vector<member> slots_;
    std::vector<std::uint32_t> free_;
    std::map<std::tuple<std::string, std::uint16_t, std::uint32_t, std::uint32_t>, std::uint32_t> by_client_;
};

} // namespace quarto::server::shards
