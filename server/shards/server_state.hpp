// What every shard shares: the settings, the players, the archive, the tournaments' views and
// the list of shards itself. Each part is either read-only once the shards run or guarded for
// the rare calls that touch it (hello, creating a tournament, the lobby), never per move; the
// relocated rooms, read per message, are one atomic load while there are none.
#pragma once

#include <atomic>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "bots/bot_pool.hpp"
#include "cluster/node.hpp"
#include "config/config.hpp"
#include "metrics/metrics.hpp"
#include "net/address_limiter.hpp"
#include "play/lobby.hpp"
#include "play/place.hpp"
#include "play/player_registry.hpp"
#include "play/server_clock.hpp"
#include "quarto/archive/game_archive.hpp"
#include "quarto/archive/journal.hpp"
#include "shards/room_placement.hpp"
#include "shards/shard_of.hpp"
#include "shards/tournament_directory.hpp"

namespace quarto::server::shards {

class shard;

struct server_state {
    explicit server_state(config c);
    ~server_state();

    const config settings;
    const play::server_clock clock; // one epoch for every shard's instants
    play::player_registry players;
    // Opened before the shards run; closed (every queued game written) after they have stopped.
    std::unique_ptr<archive::game_archive> archive;
    // The live rooms' journal (with --journal on): opened and read before the shards run.
    std::unique_ptr<archive::journal> journal;
    metrics::shared_counters shared_counters;
    // Counted at accept, or with --trust-proxy at the WebSocket upgrade (the TCP peer is then
    // the proxy, the client is named by X-Forwarded-For).
    std::shared_ptr<net::address_limiter> connections_per_address;
    // What one address or one player holds (config's caps): a room or tournament keeps its
    // ticket while open.
    std::shared_ptr<net::address_limiter> rooms_per_address;
    std::shared_ptr<net::address_limiter> tournaments_per_address;
    std::shared_ptr<net::address_limiter> tournaments_per_director;
    tournament_directory tournaments;
    // The computer opponents' thinking (server/bots): stopped before the shards are, so that no
    // answer is posted to a shard being torn down.
    std::unique_ptr<bots::bot_pool> bots;
    // Set once on SIGTERM/SIGINT: upgrades are refused from then on.
    std::atomic<bool> shutting_down{false};
    // Open WebSocket connections on every shard, for the shutdown to wait on.
    std::atomic<std::size_t> live_connections{0};
    // This server's node of a cluster (--redis), or null: set before the rooms are restored.
    cluster::node* cluster = nullptr;
    // The other nodes' rooms, for the lobby and room summaries (refreshed by the node's thread).
    play::remote_lobby other_nodes_rooms;
    // Made before any shard's thread starts and unchanged after: any thread may index it.
    std::vector<std::unique_ptr<shard>> shards;
    // The rooms restored away from the shard their id hashes to (see room_placement).
    room_placement relocated_rooms;

    // The shard that owns a room, a tournament, a place: its id's hash, but for the rooms in
    // relocated_rooms. Any thread.
    std::uint16_t shard_of_room(std::string_view id) const
    {
        if (const auto placed = relocated_rooms.find(id)) return *placed;
        return shard_of(id, shards.size());
    }
    std::uint16_t shard_of_tournament(std::string_view id) const { return shard_of(id, shards.size()); }
    std::uint16_t shard_of_place(const play::place& where) const
    {
        return where.what == play::place::kind::room ? shard_of_room(where.id) : shard_of_tournament(where.id);
    }
    // The shard a room restored from `entries` (its journal) goes to: its tournament's, for a
    // tournament's game (listed in relocated_rooms when that is not the shard its id hashes
    // to), else its own. Before the room is restored, on the restoring thread.
    std::uint16_t place_restored_room(const std::string& id, std::span<const archive::journal_entry> entries);
};

} // namespace quarto::server::shards
