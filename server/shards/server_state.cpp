#include "shards/server_state.hpp"

#include "shards/shard.hpp"

namespace quarto::server::shards {

server_state::server_state(config c)
    : settings{std::move(c)},
      connections_per_address{std::make_shared<net::address_limiter>(settings.max_connections_per_address)},
      rooms_per_address{std::make_shared<net::address_limiter>(settings.max_rooms_per_address)},
      tournaments_per_address{std::make_shared<net::address_limiter>(settings.max_tournaments_per_address)},
      tournaments_per_director{std::make_shared<net::address_limiter>(settings.max_tournaments_per_player)}
{
    players.set_guests_per_address(settings.max_guests_per_address);
}

server_state::~server_state() = default;

} // namespace quarto::server::shards
