// A client moving to another shard, on running shards (running_shards.hpp): one in nothing that
// joins a room of another shard, or resumes with its token there, moves to the room's shard with
// its connection, the frames queued for it and the bytes it sent behind, and stays in the room
// from there.
#include <doctest/doctest.h>

#include "running_shards.hpp"

namespace {

using namespace quarto::server;
using testing::give;
using testing::hello;
using testing::json;
using testing::running_shards;
using testing::start_game;
using strings = std::vector<std::string>;

strings types_in(const std::vector<json>& frames)
{
    strings out;
    for (const auto& f : frames) out.push_back(f["type"]);
    return out;
}

json ping(const char* req) { return {{"type", "ping"}, {"req", req}}; }

} // namespace

TEST_CASE("shard migration: a client that joins a room of another shard moves there, with what was queued for it and what it sent behind")
{
    running_shards server{2};
    const auto ann = server.connect(0, "ann");
    const auto bo = server.connect(1, "bo");
    hello(*ann, "Ann");
    const std::string bo_id = hello(*bo, "Bo")["player"];
    ann->send({{{"type", "create_room"}}});
    const std::string room = ann->next("room_created")["room"];
    ann->next("room");
    REQUIRE(server.state().shard_of_room(room) == 0);

    // One write, read in one turn of shard 1: the first pong is queued there, the join moves the
    // connection, and the second ping is taken apart on shard 0.
    bo->send({ping("p1"), {{"type", "join"}, {"room", room}, {"req", "j"}}, ping("p2")});
    std::vector<json> got;
    for (int i = 0; i < 4; ++i) got.push_back(bo->next());
    CHECK(types_in(got) == strings{"pong", "room", "game_started", "pong"});
    CHECK(got[0]["req"] == "p1");
    CHECK(got[1]["req"] == "j");
    CHECK(got[1]["you"]["seat"] == 1);
    CHECK(got[3]["req"] == "p2");
    CHECK(types_in(ann->until("game_started")) == strings{"joined", "game_started"});

    server.settle(1);
    server.settle(0);
    CHECK(server.shard(0).counters_view().migrations_in.load() == 1);
    CHECK(server.shard(0).counters_view().connections_open.load() == 2);
    CHECK(server.shard(1).counters_view().connections_open.load() == 0);

    // The game goes on from shard 0, and the room hears of the moved connection's end there.
    const int first = got[2]["first"];
    (first == 0 ? *ann : *bo).send({give(room, 7)});
    CHECK(ann->next("given")["piece"] == 7);
    CHECK(bo->next("given")["piece"] == 7);
    bo->close();
    CHECK(ann->next("disconnected")["player"]["id"] == bo_id);
}

TEST_CASE("shard migration: a player back with their token on another shard moves to their room's shard, the welcome first")
{
    running_shards server{2};
    const auto ann = server.connect(0, "ann");
    auto bo = server.connect(0, "bo");
    hello(*ann, "Ann");
    const json welcome = hello(*bo, "Bo");
    const auto g = start_game(*ann, *bo);
    REQUIRE(server.state().shard_of_room(g.room) == 0);
    bo->close();
    ann->next("disconnected");

    bo = server.connect(1, "bo again");
    bo->send({{{"type", "hello"}, {"token", welcome["token"]}, {"req", "h"}}});
    const json back = bo->next("welcome");
    CHECK(back["req"] == "h");
    CHECK(back["rooms"] == json::array({g.room}));
    const json snapshot = bo->next("room");
    CHECK(snapshot["you"]["seat"] == 1);
    CHECK(snapshot["players"][1]["connected"] == true);
    bo->next("resumed_all");
    CHECK(ann->next("reconnected")["player"]["id"] == welcome["player"]);

    server.settle(1);
    server.settle(0);
    CHECK(server.shard(0).counters_view().migrations_in.load() == 1);
    CHECK(server.shard(1).counters_view().connections_open.load() == 0);
    (g.first == 0 ? *ann : *bo).send({give(g.room, 7)});
    CHECK(ann->next("given")["piece"] == 7);
    CHECK(bo->next("given")["piece"] == 7);
}
