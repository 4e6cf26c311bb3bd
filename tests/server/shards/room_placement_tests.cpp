// Which shard a room lives on: its id's hash, but for a tournament's game room restored under
// another shard count than the one its id was drawn for, which goes to its tournament's shard
// and is routed there by every lookup.
#include <doctest/doctest.h>

#include "play/room_change.hpp"
#include "shards/server_state.hpp"
#include "shards/shard.hpp"

namespace {

using namespace quarto::server;
using quarto::server::shards::shard_of;

// A journal as a restored room reads it: its summary, then a seat taken.
std::vector<quarto::archive::journal_entry> journal_of(const std::string& room, std::optional<std::string> tournament)
{
    play::change::summary summary;
    summary.name = "Board 1";
    summary.tournament = std::move(tournament);
    play::change::take_seat taken;
    taken.s = 0;
    taken.player = {{"p12345678", "Ann"}, "hash"};
    return {{room, 1, play::encode(summary), ""}, {room, 2, play::encode(taken), ""}};
}

// A room id that hashes to another shard than `tournament` among `shards`.
std::string room_apart_from(const std::string& tournament, std::size_t shards)
{
    for (int n = 0;; ++n) {
        const std::string id = "room" + std::to_string(n);
        if (shard_of(id, shards) != shard_of(tournament, shards)) return id;
    }
}

} // namespace

TEST_CASE("room placement: a tournament's game room restored apart from its tournament goes to the tournament's shard, and is routed there")
{
    shards::server_state state{config{}};
    state.shards.resize(5); // only the count is read
    const std::string tournament = "tabcdefgh";
    const std::string room = room_apart_from(tournament, 5);
    const auto with_tournament = shard_of(tournament, 5);

    CHECK(state.shard_of_room(room) == shard_of(room, 5));
    CHECK(state.place_restored_room(room, journal_of(room, tournament)) == with_tournament);
    CHECK(state.relocated_rooms.size() == 1);
    CHECK(state.shard_of_room(room) == with_tournament);
    CHECK(state.shard_of_place({play::place::kind::room, room}) == with_tournament);
    // A tournament is never moved, even one whose id is a relocated room's.
    CHECK(state.shard_of_place({play::place::kind::tournament, room}) == shard_of(room, 5));

    state.relocated_rooms.forget(room);
    CHECK(state.relocated_rooms.size() == 0);
    CHECK(state.shard_of_room(room) == shard_of(room, 5));
}

TEST_CASE("room placement: rooms that are no tournament's, or already on their tournament's shard, stay where their ids hash")
{
    shards::server_state state{config{}};
    state.shards.resize(3);
    const std::string tournament = "tzyxwvuts";
    CHECK(state.place_restored_room("plain", journal_of("plain", std::nullopt)) == shard_of("plain", 3));
    std::string together = "r0";
    for (int n = 1; shard_of(together, 3) != shard_of(tournament, 3); ++n) together = "r" + std::to_string(n);
    CHECK(state.place_restored_room(together, journal_of(together, tournament)) == shard_of(tournament, 3));
    // A journal without a summary (not written by this server) says nothing: the id decides.
    CHECK(state.place_restored_room("bare", {{{"bare", 1, "ev", ""}}}) == shard_of("bare", 3));
    CHECK(state.relocated_rooms.size() == 0);
}
