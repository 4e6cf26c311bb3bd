// How rooms and tournaments name a client connection: the shard it lives on, its slot there,
// and the slot's generation. A handle, not an owner: a message for a connection that has gone
// (its slot freed or reused) is dropped by the shard.
#pragma once

#include <cstdint>
#include <functional>

namespace quarto::server::play {

struct client_ref {
    std::uint16_t shard = 0;
    std::uint32_t slot = 0;
    std::uint32_t generation = 0;
    friend bool operator==(const client_ref&, const client_ref&) = default;
};

} // namespace quarto::server::play
