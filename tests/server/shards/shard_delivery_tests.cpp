// A shard's delivery, on running shards (running_shards.hpp): a room's event reaches the players
// on its shard at the end of the turn that made it, its watchers within watcher_delay (their
// frames wait to share a write), and the clients of another shard in one batch per shard, sent
// at the end of the turn.
#include <doctest/doctest.h>

#include "running_shards.hpp"

namespace {

using namespace quarto::server;
using testing::hello;
using testing::json;
using testing::running_shards;
using testing::start_game;

json as_spectator(const std::string& room, const char* req)
{
    return {{"type", "join"}, {"room", room}, {"as", "spectator"}, {"req", req}};
}

} // namespace

TEST_CASE("shard delivery: an event reaches the players at the end of its turn, a watcher within watcher_delay")
{
    running_shards server;
    const auto ann = server.connect(0, "ann");
    const auto bo = server.connect(0, "bo");
    const auto cy = server.connect(0, "cy");
    hello(*ann, "Ann");
    hello(*bo, "Bo");
    hello(*cy, "Cy");
    const auto g = start_game(*ann, *bo);
    cy->send({as_spectator(g.room, "w")});
    cy->next("room");
    ann->next("joined");
    bo->next("joined");

    // Ann's new name is an event of her room. Once its turn is over the players have it; the
    // watcher's waits watcher_delay to share a write. That is only seen while the delay has not
    // passed since the message went: a turn slower than that (a loaded machine) is tried again.
    using steady = std::chrono::steady_clock;
    constexpr auto delay = shards::shard::watcher_delay - std::chrono::milliseconds{1}; // the rooms' clock counts whole ms
    for (int attempt = 1;; ++attempt) {
        REQUIRE(attempt <= 5); // renames count against the join rate's burst
        server.settle(0);
        REQUIRE(cy->quiet());
        const auto sent = steady::now();
        ann->send({{{"type", "rename"}, {"name", "Ann " + std::to_string(attempt)}}});
        server.settle(0);
        const bool watcher_waits = cy->quiet();
        const bool players_have_it = !ann->quiet() && !bo->quiet();
        const bool in_time = steady::now() < sent + delay;

        ann->next("renamed");
        const json renamed = ann->next("player_renamed");
        CHECK(bo->next("player_renamed") == renamed);
        CHECK(cy->next("player_renamed") == renamed);
        CHECK(cy->arrived() - sent >= delay);
        if (!in_time) continue;
        CHECK(players_have_it);
        CHECK(watcher_waits);
        break;
    }
}

TEST_CASE("shard delivery: what a turn sends the clients of another shard goes there in one batch, at the end of the turn")
{
    // Migration off: Bo stays on shard 1 while his room is on shard 0.
    running_shards server{2, /*migration=*/false};
    const auto ann = server.connect(0, "ann");
    const auto bo = server.connect(1, "bo");
    const auto cy = server.connect(0, "cy");
    hello(*ann, "Ann");
    hello(*bo, "Bo");
    hello(*cy, "Cy");
    const auto g = start_game(*ann, *bo);
    REQUIRE(server.state().shard_of_room(g.room) == 0);
    server.settle(0);
    server.settle(1);
    const auto batches = server.shard(0).counters_view().batches_out.load();

    // Cy comes to watch and goes again in one write: both events come of one turn of shard 0.
    cy->send({as_spectator(g.room, "w"), {{"type", "leave"}, {"room", g.room}, {"req", "l"}}});
    server.settle(0);
    server.settle(1);
    CHECK(server.shard(0).counters_view().batches_out.load() == batches + 1);

    const json joined = bo->next("joined");
    const json left = bo->next("left");
    CHECK(joined["player"]["name"] == "Cy");
    CHECK(left["seq"] == joined["seq"].get<int>() + 1);
    CHECK(ann->next("joined") == joined);
    CHECK(ann->next("left") == left);
    CHECK(cy->next("room")["req"] == "w");
    CHECK(cy->next("left") == left);

    // A move: its turn on shard 0 sends Bo one more batch (a move of his came from shard 1 first).
    (g.first == 0 ? *ann : *bo).send({testing::give(g.room, 3)});
    CHECK(ann->next("given")["piece"] == 3);
    CHECK(bo->next("given")["piece"] == 3);
    server.settle(0);
    CHECK(server.shard(0).counters_view().batches_out.load() == batches + 2);
}
