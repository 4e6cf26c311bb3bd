#include "shards/server_state.hpp"

#include "play/room_change.hpp"
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

std::uint16_t server_state::place_restored_room(const std::string& id, std::span<const archive::journal_entry> entries)
{
    const std::uint16_t own = shard_of(id, shards.size());
    // The latest summary says whose game the room holds (a room's first entry is one). Only
    // that one is decoded: a restart reads every live room's entries.
    for (auto e = entries.rbegin(); e != entries.rend(); ++e) {
        if (!e->change.starts_with("room ")) continue;
        const auto change = play::decode(e->change);
        const auto* summary = change ? std::get_if<play::change::summary>(&*change) : nullptr;
        if (!summary) continue;
        if (!summary->tournament) return own;
        const std::uint16_t with_tournament = shard_of_tournament(*summary->tournament);
        if (with_tournament != own) relocated_rooms.place(id, with_tournament);
        return with_tournament;
    }
    return own;
}

} // namespace quarto::server::shards
