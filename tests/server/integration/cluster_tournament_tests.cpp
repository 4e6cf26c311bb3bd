// Tournaments on a cluster: a tournament lives on the node it was made on, and is listed, shown,
// joined, watched, directed and played from every node; when its node is killed mid-round,
// another node takes the tournament and its game in progress over, and the round finishes.
#include <csignal>
#include <thread>

#include "helpers.hpp"
#include "shards/shard_of.hpp"
#include "postgres_server.hpp"
#include "redis_server.hpp"

using namespace quarto_test;

namespace {

bool is(const json& m, const std::string& type) { return m.is_object() && m.value("type", "") == type; }

struct cluster_of_two {
    test_redis::redis_server redis;
    std::string db = test_postgres::shared_postgres().fresh_database();
    std::vector<std::string> args(const char* id) const { return {"--redis", redis.address(), "--node-id", id, "--db", db}; }
    std::vector<std::string> args(const char* id, unsigned shards) const
    {
        auto a = args(id);
        a.insert(a.end(), {"--threads", std::to_string(shards)});
        return a;
    }
};

// The reply (by req) to a message, which must be of type `type`.
json reply_to(player& p, const json& req, const std::string& type)
{
    const json m = must(p->wait_for([&](const json& x) { return x.contains("req") && x["req"] == req; }), p.name + "'s reply");
    REQUIRE_MESSAGE(m["type"] == type, m.dump());
    return m;
}

json tournament_where(player& p, const json& id, const std::function<bool(const json&)>& pred,
                      steady::time_point deadline = in(default_wait))
{
    return must(p->wait_for([&](const json& m) { return is(m, "tournament") && m["tournament"] == id && pred(m); }, deadline),
                p.name + "'s tournament snapshot");
}

// Dee on `home` makes a 2-player round robin; Ann on `home` and Bob on `away` join it.
struct split_tournament {
    player dee, ann, bob;
    json id;

    split_tournament(const server_process& home, const server_process& away)
        : dee{connect_player(home, "Dee")}, ann{connect_player(home, "Ann")}, bob{connect_player(away, "Bob")}
    {
        dee->send({{"type", "create_tournament"}, {"name", "Two nodes cup"}, {"format", "round_robin"},
                   {"round_pause_seconds", 0}, {"req", "make"}});
        id = reply_to(dee, "make", "tournament_created")["tournament"];
        // At once, through the other node: the tournament's record may still be on its way to
        // Redis, and beta asks again before it answers no_such_tournament.
        bob->send({{"type", "join_tournament"}, {"tournament", id}, {"req", "bob"}});
        CHECK(reply_to(bob, "bob", "tournament")["players"].size() == 1);
        ann->send({{"type", "join_tournament"}, {"tournament", id}, {"req", "ann"}});
        CHECK(reply_to(ann, "ann", "tournament")["players"].size() == 2);
    }

    // Starts it; returns the room of its one game and who gives first.
    std::pair<json, player*> start()
    {
        dee->send({{"type", "start_tournament"}, {"tournament", id}, {"req", "go"}});
        CHECK(reply_to(dee, "go", "tournament")["status"] == "running");
        json room;
        player* first = nullptr;
        for (player* p : {&ann, &bob}) {
            const json pairing = must((*p)->wait_type("tournament_pairing"), p->name + "'s pairing");
            const json snapshot = must((*p)->wait_for([&](const json& m) { return is(m, "room") && m["room"] == pairing["room"]; }),
                                       p->name + "'s room");
            CHECK(snapshot["status"] == "playing");
            CHECK(snapshot["tournament"] == id);
            room = pairing["room"];
            if (pairing["you_start"].get<bool>()) first = p;
        }
        REQUIRE(first != nullptr);
        return {room, first};
    }
    player& other(const player* p) { return p == &ann ? bob : ann; }
};

// After a takeover: `p` gets the tournament (running) again and, when `with_room`, its game's
// room (a placement due), in whichever order they come.
void tournament_and_room_back(player& p, const json& tournament, const json& room, bool with_room)
{
    bool tournament_back = false, room_back = !with_room;
    while (!tournament_back || !room_back) {
        const json m = must(p->wait_for([&](const json& x) {
            return (is(x, "room") && x["room"] == room) || (is(x, "tournament") && x["tournament"] == tournament);
        }, in(std::chrono::seconds{10})), p.name + "'s tournament and room back");
        if (is(m, "room")) {
            CHECK(m["game"]["phase"] == "place");
            room_back = true;
        } else {
            CHECK(m["status"] == "running");
            tournament_back = true;
        }
    }
}

json event_in(player& p, const std::string& type, const json& room, steady::time_point deadline = in(default_wait))
{
    return must(p->wait_for([&](const json& m) { return is(m, type) && m["room"] == room; }, deadline), p.name + "'s " + type);
}

} // namespace

TEST_CASE("cluster: a tournament made on one node is listed, joined, watched and played from another")
{
    test_redis::redis_server redis;
    server_process alpha{{"--redis", redis.address(), "--node-id", "alpha"}};
    server_process beta{{"--redis", redis.address(), "--node-id", "beta"}};
    split_tournament t{alpha, beta};

    // Beta lists it (as alpha's publication reaches it) and shows it, over HTTP and the WebSocket.
    json listed;
    for (const auto deadline = in(std::chrono::seconds{10}); steady::now() < deadline;) {
        listed = json::parse(http_get(beta.port(), "/api/tournaments").body);
        if (listed["total"] == 1 && listed["tournaments"][0]["players"] == 2) break;
        std::this_thread::sleep_for(std::chrono::milliseconds{100});
    }
    REQUIRE(listed["total"] == 1);
    CHECK(listed["tournaments"][0] == json{{"id", t.id}, {"name", "Two nodes cup"}, {"format", "round_robin"},
                                           {"status", "registering"}, {"players", 2}});
    const http_response page = http_get(beta.port(), "/api/tournaments/" + t.id.get<std::string>());
    REQUIRE(page.status == 200);
    CHECK(json::parse(page.body)["players"].size() == 2);
    CHECK(http_get(beta.port(), "/api/tournaments/tnothere1").status == 404);
    t.bob->send({{"type", "list_tournaments"}, {"req", "list"}});
    CHECK(reply_to(t.bob, "list", "tournaments")["total"] == 1);

    // A spectator on beta watches; an unknown tournament is refused through beta as on one node.
    player wes = connect_player(beta, "Wes");
    wes->send({{"type", "watch_tournament"}, {"tournament", t.id}, {"req", "w"}});
    CHECK(reply_to(wes, "w", "tournament")["status"] == "registering");
    wes->send({{"type", "join_tournament"}, {"tournament", "tnothere1"}, {"req", "x"}});
    CHECK(reply_to(wes, "x", "error")["code"] == "no_such_tournament");

    // The game: Ann's and Bob's connections are on different nodes, the room on alpha.
    const auto [game_room, starter] = t.start();
    const json room = game_room;
    player* first = starter;
    player& second = t.other(first);
    (*first)->send(action("give", room, {{"piece", 3}}));
    event_in(second, "given", room);
    second->send(action("place", room, {{"square", 0}}));
    event_in(*first, "placed", room);
    t.bob->send(action("resign", room));
    CHECK(event_in(t.ann, "game_over", room)["reason"] == "resign");
    event_in(t.bob, "game_over", room);

    // The result reaches everyone, on both nodes, and the archive.
    for (player* p : {&t.bob, &wes, &t.ann, &t.dee}) {
        const json done = tournament_where(*p, t.id, [](const json& m) { return m["status"] == "finished"; });
        CHECK(done["standings"][0]["player"] == t.ann.id);
        CHECK(done["standings"][0]["points"] == 1);
    }
}

TEST_CASE("cluster: a node killed mid-round: another node takes its tournament and game over, and the round finishes")
{
    // The nodes run different numbers of shards: on beta the game's room and its tournament
    // hash to different shards four times in five, and the room must be restored on the
    // tournament's.
    cluster_of_two c;
    auto alpha = std::make_unique<server_process>(c.args("alpha", 2));
    server_process beta{c.args("beta", 5)};
    split_tournament t{*alpha, beta};
    const auto [game_room, starter] = t.start();
    const json room = game_room;
    const bool apart = quarto::server::shards::shard_of(room.get<std::string>(), 5) !=
                       quarto::server::shards::shard_of(t.id.get<std::string>(), 5);
    INFO("on beta's 5 shards the room and its tournament hash " << std::string{apart ? "apart" : "together"});
    player* first = starter;
    (*first)->send(action("give", room, {{"piece", 7}}));
    event_in(t.other(first), "given", room);

    ::kill(alpha->pid(), SIGKILL);
    const auto killed = steady::now();
    alpha->wait_exit();
    REQUIRE(beta.wait_log("1 rooms and 1 tournaments of node alpha taken over", in(std::chrono::seconds{10})));
    MESSAGE("tournament taken over " << std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - killed).count()
                                     << " ms after alpha's SIGKILL");

    // Bob, on beta all along, gets the tournament and the room again from beta.
    tournament_and_room_back(t.bob, t.id, room, true);
    // Ann and Dee come back through beta with their tokens: they are who they were, and get the
    // tournament back (and Ann her game).
    for (player* p : {&t.ann, &t.dee}) {
        p->ws = std::make_unique<ws_client>(beta.port());
        (*p)->send({{"type", "hello"}, {"token", p->token}});
        CHECK(must((*p)->wait_type("welcome"), p->name + "'s welcome")["player"] == p->id);
        tournament_and_room_back(*p, t.id, room, p == &t.ann);
    }

    // The game goes on where it stopped, and the round (the tournament's only one) finishes.
    player& placer = t.other(first);
    placer->send(action("place", room, {{"square", 5}}));
    CHECK(event_in(*first, "placed", room)["square"] == 5);
    (*first)->send(action("resign", room));
    CHECK(event_in(placer, "game_over", room)["reason"] == "resign");
    for (player* p : {&t.ann, &t.bob, &t.dee}) {
        const json done = tournament_where(*p, t.id, [](const json& m) { return m["status"] == "finished"; });
        CHECK(done["standings"][0]["player"] == placer.id);
    }
    // Alpha comes back with nothing: the tournament is beta's, and stays listed once.
    alpha = std::make_unique<server_process>(c.args("alpha", 2));
    CHECK(alpha->log().find("tournaments restored") == std::string::npos);
    CHECK(json::parse(http_get(beta.port(), "/api/tournaments").body)["total"] == 1);
}
