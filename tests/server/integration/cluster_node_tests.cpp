// Servers started as nodes of one cluster (--redis, --node-id): each lists every node and the
// cluster's totals in GET /api/nodes and /metrics; a node that stops is gone from the others'
// lists at their next heartbeat; a single server lists itself alone. A room's players and
// spectators connected to different nodes play and watch it as on one server.
#include <fstream>
#include <thread>

#include <csignal>

#include <sys/wait.h>

#include "helpers.hpp"
#include "postgres_server.hpp"
#include "redis_server.hpp"

using namespace quarto_test;

namespace {

json nodes_of(const server_process& server)
{
    const http_response res = http_get(server.port(), "/api/nodes");
    REQUIRE(res.status == 200);
    return json::parse(res.body);
}

// Waits (up to 10 s) until `server`'s /api/nodes satisfies `condition`; returns the last answer.
template <class Condition>
json nodes_when(const server_process& server, Condition condition)
{
    const auto deadline = in(std::chrono::seconds{10});
    json nodes = nodes_of(server);
    while (!condition(nodes) && steady::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds{50});
        nodes = nodes_of(server);
    }
    return nodes;
}

// The time of day (ms) of the first log line holding `needle` ("[2026-11-27 13:05:01.123] ...").
std::int64_t log_time_ms(const std::string& log, const std::string& needle)
{
    const auto at = log.find(needle);
    REQUIRE_MESSAGE(at != std::string::npos, needle << " not in:\n" << log.substr(log.size() > 3000 ? log.size() - 3000 : 0));
    const auto line = log.rfind('\n', at) == std::string::npos ? 0 : log.rfind('\n', at) + 1;
    const std::string stamp = log.substr(line + 12, 12); // HH:MM:SS.mmm
    return ((std::stoll(stamp.substr(0, 2)) * 60 + std::stoll(stamp.substr(3, 2))) * 60 + std::stoll(stamp.substr(6, 2))) * 1000 +
           std::stoll(stamp.substr(9, 3));
}

// A game whose creator is on `home`, and whose joiner and spectator are on `away`.
duel start_split_duel(const server_process& home, const server_process& away)
{
    duel d;
    d.creator = connect_player(home, "Ann");
    d.room = create_room(*d.creator.ws);
    // At once, as a program would: the room's record may still be on its way to Redis, and the
    // other node asks again before it answers no_such_room.
    player w = connect_player(away, "Watcher");
    join(*w.ws, d.room, "spectator");
    d.watchers.push_back(std::move(w));
    d.joiner = connect_player(away, "Bob");
    join(*d.joiner.ws, d.room, "player");
    d.started = d.expect_all("game_started");
    d.first = d.started.at("first").get<int>();
    return d;
}

// Brings the game to Bob's turn (seat 1): he gives first, or Ann gives piece 7 and he is to
// place it. Bob's move: giving piece 7, or placing it on square 5.
struct bobs_move {
    std::string type;
    json fields;
    std::string event() const { return type == "give" ? "given" : "placed"; }
};
bobs_move to_bobs_turn(duel& d)
{
    if (d.first == 1) return {"give", {{"piece", 7}}};
    d.act(0, "give", {{"piece", 7}});
    d.expect_all("given");
    return {"place", {{"square", 5}}};
}

} // namespace

TEST_CASE("cluster: a game between players on two nodes, watched from the second, is played as on one server")
{
    test_redis::redis_server redis;
    server_process alpha{{"--redis", redis.address(), "--node-id", "alpha"}};
    server_process beta{{"--redis", redis.address(), "--node-id", "beta"}};
    duel d = start_split_duel(alpha, beta);

    // Pieces 0..3 align on row 0; the first giver places the last of them.
    const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
    const json over = d.expect_all("game_over"); // the same JSON on both nodes
    CHECK(over["winner"] == placer);
    CHECK(over["reason"] == "quarto");
    for (ws_client* ws : d.everyone()) CHECK(check_seq(ws->history(), d.room) >= 10);

    // Errors for a client of beta come back to it, with its req.
    json late_move = action("place", d.room, {{"square", 5}});
    late_move["req"] = 7;
    d.joiner->send(late_move);
    const json refused = must(d.joiner->wait_type("error"), "the refusal");
    CHECK(refused["code"] == "wrong_phase");
    CHECK(refused["req"] == 7);

    // Beta's player takes a new name: alpha's room shows it to everyone.
    d.joiner->send({{"type", "rename"}, {"name", "Bobby"}, {"req", "n"}});
    CHECK(must(d.joiner->wait_type("renamed"), "renamed")["name"] == "Bobby");
    const json renamed = must(d.creator->wait_type("player_renamed"), "player_renamed on alpha");
    CHECK(renamed["player"]["name"] == "Bobby");
    CHECK(renamed["seat"] == 1);

    // Beta's player leaves by closing: alpha's room sees them go.
    d.joiner->close();
    const json gone = must(d.creator->wait_type("disconnected"), "disconnected");
    CHECK(gone["player"]["name"] == "Bobby");

    // A room that exists nowhere is still no_such_room, from either node.
    d.watchers[0]->send({{"type", "join"}, {"room", "nosuchroom"}, {"as", "spectator"}, {"req", "x"}});
    CHECK(must(d.watchers[0]->wait_type("error"), "no_such_room")["code"] == "no_such_room");
}

TEST_CASE("cluster: with Redis down, a room of another node is unavailable, and the node's own rooms go on")
{
    test_redis::redis_server redis;
    server_process alpha{{"--redis", redis.address(), "--node-id", "alpha"}};
    server_process beta{{"--redis", redis.address(), "--node-id", "beta"}};
    duel split = start_split_duel(alpha, beta);
    duel local = start_duel(beta);
    redis.stop();
    nodes_when(beta, [](const json& n) { return n["redis"] == "down"; });
    split.act(1, "resign", {}, "r");
    const json refused = must(split.joiner->wait_type("error"), "unavailable");
    CHECK(refused["code"] == "unavailable");
    CHECK(refused["req"] == "r");
    local.act(1, "resign");
    local.expect_all("game_over");
}

TEST_CASE("cluster: nodes list each other, with each node's figures and the totals")
{
    test_redis::redis_server redis;
    server_process a{{"--redis", redis.address(), "--node-id", "alpha"}};
    server_process b{{"--redis", redis.address(), "--node-id", "beta"}};
    CHECK(a.log().find("node alpha of a cluster on Redis at " + redis.address()) != std::string::npos);

    // A game on alpha: its two players are counted there, and in beta's totals.
    duel d = start_duel(a);
    const json seen_from_beta = nodes_when(b, [](const json& n) { return n["totals"]["connections"] == 2; });
    CHECK(seen_from_beta["cluster"] == true);
    CHECK(seen_from_beta["node"] == "beta");
    CHECK(seen_from_beta["redis"] == "up");
    CHECK(seen_from_beta["lease"]["held"] == true);
    REQUIRE(seen_from_beta["nodes"].size() == 2);
    CHECK(seen_from_beta["nodes"][0]["id"] == "beta");
    CHECK(seen_from_beta["nodes"][0]["self"] == true);
    CHECK(seen_from_beta["nodes"][1]["id"] == "alpha");
    CHECK(seen_from_beta["nodes"][1]["connections"] == 2);
    CHECK(seen_from_beta["nodes"][1]["rooms"]["playing"] == 1);
    CHECK(seen_from_beta["totals"]["nodes"] == 2);
    CHECK(seen_from_beta["totals"]["rooms"]["playing"] == 1);
    CHECK(seen_from_beta["totals"]["games_started"] == 1);

    const std::string metrics = http_get(b.port(), "/metrics").body;
    CHECK(metrics.find("quarto_cluster_nodes 2\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_redis_up 1\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_node_connections{node=\"alpha\"} 2\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_connections 2\n") != std::string::npos);
    CHECK(metrics.find("quarto_cluster_rooms{status=\"playing\"} 1\n") != std::string::npos);

    // Alpha stops: it gives its lease back, and beta lists itself alone at its next heartbeat.
    d.act(0, "resign");
    d.expect_all("game_over");
    a.stop();
    const json after = nodes_when(b, [](const json& n) { return n["nodes"].size() == 1; });
    CHECK(after["nodes"].size() == 1);
    CHECK(after["totals"]["nodes"] == 1);
}

TEST_CASE("cluster: a node whose Redis is down serves on and says so, and rejoins when Redis is back")
{
    test_redis::redis_server redis;
    server_process a{{"--redis", redis.address(), "--node-id", "alpha"}};
    nodes_when(a, [](const json& n) { return n["lease"]["held"] == true; });
    redis.stop();
    const json down = nodes_when(a, [](const json& n) { return n["redis"] == "down" && n["lease"]["held"] == false; });
    CHECK(down["redis"] == "down");
    CHECK(down["lease"]["held"] == false);
    // Games on the node go on meanwhile.
    duel d = start_duel(a);
    d.act(1, "resign");
    d.expect_all("game_over");
    redis.start();
    const json back = nodes_when(a, [](const json& n) { return n["redis"] == "up" && n["lease"]["held"] == true; });
    CHECK(back["lease"]["held"] == true);
    CHECK(a.log().find("lost Redis") != std::string::npos);
}

TEST_CASE("cluster: a single server lists itself alone")
{
    server_process server;
    const json nodes = nodes_of(server);
    CHECK(nodes["cluster"] == false);
    CHECK(nodes.contains("redis") == false);
    REQUIRE(nodes["nodes"].size() == 1);
    CHECK(nodes["nodes"][0]["self"] == true);
    CHECK(nodes["nodes"][0]["shards"].get<int>() >= 1);
    CHECK(http_get(server.port(), "/metrics").body.find("quarto_cluster_") == std::string::npos);
}

TEST_CASE("cluster: a bad --redis or --node-id stops the start, and the password is never shown")
{
    auto run = run_to_exit({"--redis", "redis://:hunter2@cache:0"});
    REQUIRE(run.status);
    CHECK(WEXITSTATUS(*run.status) == 2);
    CHECK(run.output.find("--redis: the port is a number from 1 to 65535") != std::string::npos);
    CHECK(run.output.find("hunter2") == std::string::npos);

    run = run_to_exit({"--node-id", "a b"});
    REQUIRE(run.status);
    CHECK(WEXITSTATUS(*run.status) == 2);
    CHECK(run.output.find("--node-id") != std::string::npos);
}

TEST_CASE("cluster: a token made on one node works on every node, and a player who comes back through another node plays on")
{
    test_redis::redis_server redis;
    server_process alpha{{"--redis", redis.address(), "--node-id", "alpha"}};
    server_process beta{{"--redis", redis.address(), "--node-id", "beta"}};
    duel d = start_split_duel(alpha, beta); // Bob (seat 1) said hello on beta, the room is alpha's

    // Bob's connection drops; he comes back through alpha, which never saw his token.
    d.joiner->close();
    must(d.creator->wait_type("disconnected"), "disconnected");
    auto back = std::make_unique<ws_client>(alpha.port());
    back->send({{"type", "hello"}, {"token", d.joiner.token}, {"req", "h"}});
    const json welcome = must(back->wait_type("welcome"), "welcome");
    CHECK(welcome["player"] == d.joiner.id);
    CHECK(welcome["name"] == "Bob");
    // As the browser does after a welcome: catch up with the room.
    back->send({{"type", "sync"}, {"room", d.room}, {"since", 0}, {"req", "s"}});
    must(back->wait_type("synced"), "synced");
    d.joiner.ws = std::move(back);

    // And on through beta again, in the middle of the game.
    const int giver = d.first;
    d.act(giver, "give", {{"piece", 5}});
    d.expect_all("given");
    d.joiner->close();
    auto again = std::make_unique<ws_client>(beta.port());
    again->send({{"type", "hello"}, {"token", d.joiner.token}});
    CHECK(must(again->wait_type("welcome"), "welcome")["player"] == d.joiner.id);
    again->send({{"type", "sync"}, {"room", d.room}, {"since", 0}});
    must(again->wait_type("synced"), "synced");
    d.joiner.ws = std::move(again);
    d.act(1 - giver, "place", {{"square", 6}});
    const json placed = d.expect_all("placed");
    CHECK(placed["square"] == 6);
    CHECK(placed["piece"] == 5);

    // A token no node made is still unknown.
    ws_client stranger{beta.port()};
    stranger.send({{"type", "hello"}, {"token", "not-a-token-anyone-made"}});
    CHECK(must(stranger.wait_type("error"), "unknown_token")["code"] == "unknown_token");
}

namespace {

// Two nodes on one PostgreSQL: a room of alpha's, its creator Ann on alpha, Bob and a
// watcher on beta, the game under way (a piece given, to be placed by the second seat).
struct shared_cluster {
    test_redis::redis_server redis;
    std::string db = test_postgres::shared_postgres().fresh_database();
    std::vector<std::string> args(const char* id) const { return {"--redis", redis.address(), "--node-id", id, "--db", db}; }
};

// After alpha is gone: Ann comes back through beta with her token and gets the room (resumed
// by hello, or once it has moved if she came first); Bob, who never left beta, is given it
// again by beta; the game goes on with the placement due. The placer's clock comes back as it
// stood at the room's last event, `given` (the restart rule): the seconds the room spent on no
// node (about 3 after a SIGKILL) are not charged; it has run only since the restore, well under
// a second when the snapshot is made.
void go_on_after_takeover(duel& d, const server_process& beta, const json& given)
{
    d.creator.ws = std::make_unique<ws_client>(beta.port());
    d.creator->send({{"type", "hello"}, {"token", d.creator.token}});
    must(d.creator->wait_type("welcome"), "Ann's welcome on beta");
    const json ann_room = must(d.creator->wait_for([](const json& m) { return m.value("type", "") == "room"; }, in(std::chrono::seconds{10})),
                               "Ann's room, taken over by beta");
    CHECK(ann_room["game"]["phase"] == "place");
    const int mover = 1 - d.first;
    const auto clock_then = given["clock"]["remaining_ms"][mover].get<std::int64_t>();
    const auto clock_now = ann_room["game"]["clock"]["remaining_ms"][mover].get<std::int64_t>();
    CHECK(ann_room["game"]["clock"]["running"] == mover);
    CHECK_MESSAGE((clock_now <= clock_then && clock_then - clock_now < 1000),
                  "clock at the give " << clock_then << " ms, in the snapshot after the move " << clock_now);
    const json bob_room = must(d.joiner->wait_for([](const json& m) { return m.value("type", "") == "room"; }, in(std::chrono::seconds{10})),
                               "Bob's room, again from beta");
    CHECK(bob_room["game"]["phase"] == "place");
    must(d.watchers[0]->wait_for([](const json& m) { return m.value("type", "") == "room"; }, in(std::chrono::seconds{10})),
         "the watcher's room");
    const int placer = 1 - d.first;
    d.act(placer, "place", {{"square", 9}});
    const json placed = d.expect_all("placed");
    CHECK(placed["piece"] == 7);
    CHECK(placed["square"] == 9);
    CHECK(placed["seq"].get<int>() > ann_room["seq"].get<int>());
    // Every event each of them got follows the one before, across the move of the room.
    for (ws_client* ws : d.everyone()) check_seq(ws->history(), d.room);
}

} // namespace

TEST_CASE("cluster: nodes sharing one PostgreSQL restore only their own rooms")
{
    shared_cluster c;
    server_process alpha{c.args("alpha")};
    server_process beta{c.args("beta")};
    duel d = start_split_duel(alpha, beta);
    server_process gamma{c.args("gamma")};
    CHECK(gamma.log().find("journal: 0 rooms restored") != std::string::npos);
    CHECK(alpha.log().find("taken over") == std::string::npos);
}

TEST_CASE("cluster: a node that stops hands its rooms to another node, and their players go on")
{
    shared_cluster c;
    auto alpha = std::make_unique<server_process>(c.args("alpha"));
    server_process beta{c.args("beta")};
    duel d = start_split_duel(*alpha, beta);
    d.act(d.first, "give", {{"piece", 7}});
    const json given = d.expect_all("given");
    // Ann's browser would answer alpha's 1012 and reconnect: this client closes first instead
    // (it reads nothing while alpha stops, so it could not answer, and alpha would wait for it).
    d.creator->close();
    alpha->stop(std::chrono::seconds{15});
    // Ann is back on beta at once: perhaps before the room is.
    go_on_after_takeover(d, beta, given);
    // Alpha's last word (its lease given back, and a notice to every node) makes beta take the
    // room over at once, not at its next heartbeat: from the one log line to the other.
    REQUIRE(beta.wait_log("1 rooms and 0 tournaments of node alpha taken over", in(std::chrono::seconds{10})));
    const auto handover = log_time_ms(beta.log(), "1 rooms and 0 tournaments of node alpha taken over") - log_time_ms(alpha->log(), "lease given back");
    MESSAGE("room taken over " << handover << " ms after alpha gave its lease back");
    CHECK(handover >= 0);
    CHECK(handover < 1000);
    // Alpha comes back empty-handed: the room is beta's.
    alpha = std::make_unique<server_process>(c.args("alpha"));
    CHECK(alpha->log().find("journal: 0 rooms restored") != std::string::npos);
}

TEST_CASE("cluster: a node killed mid-game: another node takes its rooms over within seconds, and the game goes on")
{
    shared_cluster c;
    auto alpha = std::make_unique<server_process>(c.args("alpha"));
    server_process beta{c.args("beta")};
    duel d = start_split_duel(*alpha, beta);
    d.act(d.first, "give", {{"piece", 7}});
    const json given = d.expect_all("given");
    ::kill(alpha->pid(), SIGKILL);
    const auto killed = steady::now();
    alpha->wait_exit();
    REQUIRE(beta.wait_log("1 rooms and 0 tournaments of node alpha taken over", in(std::chrono::seconds{10})));
    // The lease runs out within 3 s, the next heartbeat sees it: the target is 5 s.
    MESSAGE("room taken over " << std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - killed).count()
                               << " ms after alpha's SIGKILL");
    CHECK(steady::now() - killed < std::chrono::seconds{5});
    go_on_after_takeover(d, beta, given);
}

TEST_CASE("cluster: a move for the room of a node that died is held a second, then answered unavailable, and sent again once the room is taken over it is played")
{
    shared_cluster c;
    auto alpha = std::make_unique<server_process>(c.args("alpha"));
    server_process beta{c.args("beta")};
    duel d = start_split_duel(*alpha, beta);
    const bobs_move move = to_bobs_turn(d); // Bob is on beta
    ::kill(alpha->pid(), SIGKILL);
    const auto killed = steady::now();
    alpha->wait_exit();
    // The room's record still names alpha, which no longer listens: beta holds the move for a
    // second (a handover after a SIGTERM takes milliseconds), then, the room not yet taken over
    // (that waits for alpha's 3 s lease to run out), answers that nothing was done.
    const auto sent = steady::now();
    d.act(1, move.type, move.fields, "held");
    const json refused = must(d.joiner->wait_type("error", in(std::chrono::seconds{5})), "Bob's answer");
    const auto held = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - sent);
    CHECK(refused["code"] == "unavailable");
    CHECK(refused["req"] == "held");
    MESSAGE("held " << held.count() << " ms");
    if (steady::now() - killed < std::chrono::milliseconds{2500}) CHECK(held >= std::chrono::milliseconds{900});
    // Sent again once beta holds the room: played.
    REQUIRE(beta.wait_log("1 rooms and 0 tournaments of node alpha taken over", in(std::chrono::seconds{10})));
    must(d.joiner->wait_type("room", in(std::chrono::seconds{5})), "Bob's room from beta after the takeover");
    d.act(1, move.type, move.fields);
    const json played = must(d.joiner->wait_type(move.event(), in(std::chrono::seconds{5})), "Bob's move");
    CHECK(played["seat"] == 1);
}

TEST_CASE("cluster: a move on hold for the room of a node that died is played by the node that takes the room over meanwhile")
{
    shared_cluster c;
    auto alpha = std::make_unique<server_process>(c.args("alpha"));
    server_process beta{c.args("beta")};
    duel d = start_split_duel(*alpha, beta);
    const bobs_move move = to_bobs_turn(d);
    ::kill(alpha->pid(), SIGKILL);
    alpha->wait_exit();
    // Bob sends his move again whenever it comes back unavailable, as the protocol says. Beta
    // holds each copy for a second while the room's record names alpha, so one of them is on
    // hold when beta takes the room over (alpha's lease runs out within 3 s). Redis then names
    // beta itself as the owner: beta plays the move, instead of answering no_such_room.
    int copies = 0;
    json answer;
    const auto deadline = in(std::chrono::seconds{15});
    do {
        d.act(1, move.type, move.fields, copies++);
        auto got = d.joiner->wait_for([&](const json& m) { return m["type"] == "error" || m["type"] == move.event(); },
                                      deadline);
        if (!got) MESSAGE("beta's log:\n" << beta.log());
        answer = must(got, "Bob's answer");
    } while (answer["type"] == "error" && answer["code"] == "unavailable");
    MESSAGE(copies << " copies of the move sent");
    CHECK_MESSAGE(answer["type"] == move.event(), answer.dump());
    CHECK(answer["seat"] == 1);
    CHECK(copies >= 2); // the first was held and refused: alpha's lease outlives a second
    CHECK(beta.log().find("1 rooms and 0 tournaments of node alpha taken over") != std::string::npos);
}

TEST_CASE("cluster: a client's message relayed to a node that does not hold the room is sent on to the node that does")
{
    // As after a rolling restart: a node asked Redis for the room's owner, and by the time its
    // record arrived, the node named (here gamma, a new process of a stopped node, say) no
    // longer held the room. The record is published by the test on gamma's channel, as beta
    // would, for Bob's move: gamma must send it on to alpha, which holds the room.
    shared_cluster c;
    server_process alpha{c.args("alpha")};
    server_process beta{c.args("beta")};
    server_process gamma{c.args("gamma")};
    duel d = start_split_duel(alpha, beta);
    const bobs_move move = to_bobs_turn(d);
    // A `message` record (server/cluster/relay_record.hpp): `M <body length>\n`, then the
    // header line (sending node, its client's shard, slot and generation, r for a room, the
    // room, the lengths of the player and the text), the player, the text. The client is one
    // beta never had: what matters is the move reaching the room.
    const std::string player = json{{"id", d.joiner.id}, {"name", "Bob"}}.dump();
    const std::string text = action(move.type, d.room, move.fields).dump();
    const std::string header = "beta 0 4000000 1 r " + d.room.get<std::string>() + " " + std::to_string(player.size()) +
                               " " + std::to_string(text.size()) + "\n";
    const std::string record = "M " + std::to_string(header.size() + player.size() + text.size()) + "\n" + header + player + text;
    const auto file = scratch_file("relayed-record");
    std::ofstream{file, std::ios::binary} << record;
    CHECK(c.redis.cli("-x PUBLISH quarto:node:gamma < '" + file.string() + "'").find('1') != std::string::npos);
    const json played = must(d.creator->wait_type(move.event(), in(std::chrono::seconds{5})),
                             "Bob's move, relayed through gamma, seen by Ann on alpha");
    CHECK(played["seat"] == 1);
}

TEST_CASE("cluster: a node paused past its lease finds its rooms taken over, and stops at once")
{
    shared_cluster c;
    server_process alpha{c.args("alpha")};
    server_process beta{c.args("beta")};
    duel d = start_split_duel(alpha, beta);
    d.act(d.first, "give", {{"piece", 7}});
    const json given = d.expect_all("given");
    ::kill(alpha.pid(), SIGSTOP);
    REQUIRE(beta.wait_log("1 rooms and 0 tournaments of node alpha taken over", in(std::chrono::seconds{10})));
    ::kill(alpha.pid(), SIGCONT);
    // Its lease is gone and its fence taken: it must not serve the room a moment longer.
    const auto status = alpha.wait_exit(std::chrono::seconds{10});
    REQUIRE(status);
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 3);
    CHECK(alpha.log().find("node alpha is fenced") != std::string::npos);
    go_on_after_takeover(d, beta, given);
}

TEST_CASE("cluster: a second process with a node id in use waits for it and, past a lost lease's TTL, says another process holds it")
{
    shared_cluster c;
    server_process alpha{c.args("alpha")};
    std::vector<std::string> twin{"--host", "127.0.0.1", "--port", "0"};
    for (const auto& a : c.args("alpha")) twin.push_back(a);
    // Killed still waiting: it never took the lease of a live node, nor served.
    const auto run = run_to_exit(twin, {}, std::chrono::milliseconds{8000});
    CHECK_FALSE(run.status);
    CHECK(run.output.find("node alpha: its lease is held") != std::string::npos);
    CHECK(run.output.find("another live process holds this node id") != std::string::npos);
    CHECK(run.output.find("listening on") == std::string::npos);
    CHECK(alpha.log().find("expired under it") == std::string::npos);
}

TEST_CASE("cluster: the lobby and a room's page are the same on every node")
{
    test_redis::redis_server redis;
    server_process alpha{{"--redis", redis.address(), "--node-id", "alpha"}};
    server_process beta{{"--redis", redis.address(), "--node-id", "beta"}};
    player ann = connect_player(alpha, "Ann");
    const json open_room = create_room(*ann.ws, {{"name", "Open to all"}});
    const json secret = create_room(*ann.ws, {{"name", "Friends only"}, {"private", true}});
    player bob = connect_player(beta, "Bob");
    const json local = create_room(*bob.ws, {{"name", "Bob's"}});

    // A node's lobby: its own rooms and the other's public ones (read from Redis at each of its
    // heartbeats: up to about a second late).
    const auto lobby_of = [](const server_process& node) {
        json lobby;
        for (const auto deadline = in(std::chrono::seconds{10}); steady::now() < deadline;) {
            lobby = json::parse(http_get(node.port(), "/api/rooms").body);
            if (lobby["total"] == 2) break;
            std::this_thread::sleep_for(std::chrono::milliseconds{100});
        }
        return lobby;
    };
    json lobby = lobby_of(beta);
    REQUIRE(lobby["total"] == 2);
    std::vector<std::string> names;
    for (const auto& r : lobby["rooms"]) names.push_back(r["name"].get<std::string>());
    CHECK(names == std::vector<std::string>{"Bob's", "Open to all"}); // the newest first
    // The same over the WebSocket, and from alpha's side.
    bob->send({{"type", "list_rooms"}, {"req", "l"}});
    CHECK(must(bob->wait_type("rooms"), "rooms")["total"] == 2);
    CHECK(lobby_of(alpha)["total"] == 2);

    // An invitation's page for alpha's private room, opened through beta.
    const http_response page = http_get(beta.port(), "/api/rooms/" + secret.get<std::string>());
    REQUIRE(page.status == 200);
    CHECK(json::parse(page.body)["name"] == "Friends only");
    CHECK(json::parse(page.body)["private"] == true);
    CHECK(http_get(beta.port(), "/api/rooms/nosuchroom").status == 404);

    // A game starting on alpha's room shows as playing on beta.
    player carl = connect_player(beta, "Carl");
    join(*carl.ws, open_room, "player");
    for (const auto deadline = in(std::chrono::seconds{10}); steady::now() < deadline;) {
        lobby = json::parse(http_get(beta.port(), "/api/rooms").body);
        if (lobby["rooms"].size() == 2 && lobby["rooms"][1]["status"] == "playing") break;
        std::this_thread::sleep_for(std::chrono::milliseconds{100});
    }
    CHECK(lobby["rooms"][1]["status"] == "playing");

    // Redis restarts empty: the nodes write their rooms and lobby entries again.
    redis.restart();
    json after;
    for (const auto deadline = in(std::chrono::seconds{15}); steady::now() < deadline;) {
        after = json::parse(http_get(beta.port(), "/api/rooms").body);
        if (after["total"] == 2 && http_get(beta.port(), "/api/rooms/" + secret.get<std::string>()).status == 200) break;
        std::this_thread::sleep_for(std::chrono::milliseconds{100});
    }
    CHECK(after["total"] == 2);
    CHECK(http_get(beta.port(), "/api/rooms/" + secret.get<std::string>()).status == 200);
    (void)local;
}
