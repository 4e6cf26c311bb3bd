// Reconnection by token, sync catch-up, spectators and seq order.
#include <thread>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

bool names_player(json event, const json& id)
{
    json p = event["player"];
    return p.is_object() ? p["id"] == id : p == id;
}

// The events (messages with a seq, not snapshots or synced) of `room`, after seq `after`.
std::vector<json> events_after(const std::vector<json>& history, const json& room, long long after)
{
    std::vector<json> out;
    for (json m : history) {
        if (!m.is_object() || m.value("room", json{}) != room || !m.contains("seq")) continue;
        if (m["type"] == "room" || m["type"] == "synced") continue;
        if (m["seq"].get<long long>() > after) out.push_back(m);
    }
    return out;
}

} // namespace

TEST_CASE("reconnect: a new connection with the token resumes the seat during a game")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    const int f = d.first, s = 1 - f;
    play(d, f, {{0, 0}});
    // s is to give. The first seat's player vanishes.
    player& gone = d.by_seat(f);
    gone->drop();
    for (ws_client* ws : {d.by_seat(s).ws.get(), d.watchers[0].ws.get()}) {
        json e = must(ws->wait_type("disconnected"), "disconnected");
        CHECK(names_player(e, gone.id));
    }
    // The game goes on while f is away: s gives, f's clock runs.
    d.by_seat(s)->send(action("give", d.room, {{"piece", 1}}));
    must(d.watchers[0]->wait_type("given"), "given");
    {
        player look = connect_player(server, "Look");
        json snap = join(*look.ws, d.room, "spectator");
        CHECK(snap["players"][f]["connected"] == false);
        CHECK(snap["game"]["clock"]["running"] == f);
        look->drop();
        // Its `left` is an event of the room too, sent whenever the server notices the closed
        // socket: awaited here, so that it cannot fall between the resume and the next move.
        must(d.watchers[0]->wait_for([&](const json& m) { return m["type"] == "left" && names_player(m, look.id); }),
             "Look's left");
    }

    auto fresh = std::make_unique<ws_client>(server.port());
    fresh->send({{"type", "hello"}, {"token", gone.token}, {"req", "back"}});
    json welcome = must(fresh->next(), "welcome");
    CHECK(welcome["type"] == "welcome");
    CHECK(welcome["player"] == gone.id);
    CHECK(welcome["req"] == "back");
    json snap = must(fresh->wait_type("room"), "room snapshot on resume");
    CHECK(snap["room"] == d.room);
    CHECK(snap["you"]["seat"] == f);
    CHECK(snap["players"][f]["connected"] == true);
    CHECK(snap["game"]["phase"] == "place");
    CHECK(snap["game"]["turn"] == f);
    CHECK(snap["game"]["in_hand"] == 1);
    CHECK(snap["game"]["board"][0] == 0);
    for (ws_client* ws : {d.by_seat(s).ws.get(), d.watchers[0].ws.get()}) {
        json e = must(ws->wait_type("reconnected"), "reconnected");
        CHECK(names_player(e, gone.id));
        CHECK(e["seq"] == snap["seq"]); // the resumer's snapshot counts its own reconnected
    }
    gone.ws = std::move(fresh);

    // Play on from the new connection.
    d.act(f, "place", {{"square", 1}});
    json placed = d.expect_all("placed");
    CHECK(placed["seq"] == snap["seq"].get<long long>() + 1);
    d.act(f, "resign", json::object());
    CHECK(d.expect_all("game_over")["winner"] == s);
    check_seq(gone->history(), d.room);
    for (ws_client* ws : d.everyone()) check_seq(ws->history(), d.room);
}

TEST_CASE("reconnect: a disconnected player's clock keeps running")
{
    server_process server;
    duel d = start_duel(server, {{"clock", {{"move_ms", 500}, {"claim_ms", 300}}}}, 1);
    d.by_seat(d.first)->drop();
    json over = must(d.watchers[0]->wait_type("game_over", in(default_wait)), "game_over");
    CHECK(over["reason"] == "timeout");
    CHECK(over["winner"] == 1 - d.first);
}

TEST_CASE("reconnect: a player gone --abandon-seconds from a game may be claimed against, and the archive says so")
{
    server_process server{{"--abandon-seconds", "1"}};
    duel d = start_duel(server, {{"clock", {{"move_ms", nullptr}}}}); // untimed: nothing else would end it
    d.joiner->drop();
    const json gone = must(d.creator->wait_type("disconnected"), "disconnected");
    CHECK(gone["claim_victory_in_ms"] == 1000);
    std::this_thread::sleep_for(milliseconds{1100});
    d.act(0, "claim_victory", {}, "c");
    const json over = must(d.creator->wait_type("game_over"), "game_over");
    CHECK(over["reason"] == "abandoned");
    CHECK(over["winner"] == 0);
    const std::string game = over["game"].get<std::string>();
    for (int i = 0; i < 100; ++i) { // archived on the archive's thread
        const auto r = http_get(server.port(), "/api/games/" + game);
        if (r.status == 200) {
            CHECK(json::parse(r.body)["result"]["reason"] == "abandoned");
            return;
        }
        std::this_thread::sleep_for(milliseconds{50});
    }
    FAIL("the game was not archived");
}

TEST_CASE("reconnect: a player whose connection goes silent is dropped within 20 s")
{
    // The server pings after 10 s of silence and gives up 10 s later. This test client answers
    // pings only while the test reads from it, so both players, never read from again, are
    // peers that vanished without closing (a pulled cable).
    server_process server;
    // Both bounds are measured so that they hold however long start_duel takes: the players'
    // connections open after `connecting`, and they have sent their last message before
    // `silent_from`.
    const auto connecting = steady::now();
    duel d = start_duel(server, json::object(), 1);
    const auto silent_from = steady::now();
    json e = must(d.watchers[0]->wait_type("disconnected", in(milliseconds{26'000})), "disconnected");
    const auto noticed = steady::now();
    CHECK(noticed - connecting >= milliseconds{15'000}); // not before the ping has had its time
    CHECK(noticed - silent_from <= milliseconds{25'000});
    // Both players went silent together; the one named first is gone for good.
    const int gone = names_player(e, d.creator.id) ? 0 : 1;
    CHECK(names_player(e, d.by_seat(gone).id));
    CHECK(d.by_seat(gone)->wait_closed(in(milliseconds{1000})));
}

TEST_CASE("sync: recent seq replays the missed events in order, then synced")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    ws_client& w = *d.watchers[0].ws;
    play(d, d.first, {{0, 0}, {1, 1}, {2, 2}});
    std::vector<json> seen = events_after(w.history(), d.room, 0);
    REQUIRE(seen.size() >= 6);
    const long long latest = seen.back()["seq"].get<long long>();
    const long long since = latest - 4;

    w.send({{"type", "sync"}, {"room", d.room}, {"since", since}, {"req", "s1"}});
    std::vector<json> replay;
    json synced;
    for (;;) {
        json m = must(w.next(), "sync reply");
        if (m["type"] == "synced") {
            synced = m;
            break;
        }
        replay.push_back(m);
    }
    CHECK(synced["room"] == d.room);
    CHECK(synced["seq"] == latest);
    CHECK(synced["req"] == "s1");
    REQUIRE(replay.size() == 4);
    for (std::size_t i = 0; i < replay.size(); ++i) {
        CHECK(replay[i]["seq"] == since + 1 + static_cast<long long>(i));
        // The same JSON as broadcast.
        json original = events_after(seen, d.room, since)[i];
        CHECK(replay[i] == original);
    }

    // Up to date: nothing replayed.
    w.send({{"type", "sync"}, {"room", d.room}, {"since", latest}});
    json only = must(w.next(), "synced");
    CHECK(only["type"] == "synced");
    CHECK(only["seq"] == latest);
}

TEST_CASE("sync: seq 0 gives the events or a snapshot, then synced")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    ws_client& w = *d.watchers[0].ws;
    play(d, d.first, {{0, 0}});
    const long long latest = events_after(w.history(), d.room, 0).back()["seq"].get<long long>();
    w.send({{"type", "sync"}, {"room", d.room}, {"since", 0}, {"req", 0}});
    std::vector<json> replay;
    json synced;
    for (;;) {
        json m = must(w.next(), "sync reply");
        if (m["type"] == "synced") {
            synced = m;
            break;
        }
        replay.push_back(m);
    }
    CHECK(synced["seq"] == latest);
    CHECK(synced["req"] == 0);
    REQUIRE(!replay.empty());
    if (replay.front()["type"] == "room") {
        CHECK(replay.size() == 1);
        CHECK(replay.front()["seq"] == latest);
        CHECK(replay.front()["game"]["board"][0] == 0);
    } else {
        for (std::size_t i = 0; i < replay.size(); ++i)
            CHECK(replay[i]["seq"] == static_cast<long long>(i) + 1);
        CHECK(replay.back()["seq"] == latest);
    }
}

TEST_CASE("sync: a seq older than the ring gives the snapshot")
{
    // Four quick games: more than 20 messages a second per player.
    server_process server{{"--rate-limit", "1000", "--rate-burst", "1000"}};
    duel d = start_duel(server, {{"clock", {{"move_ms", nullptr}, {"claim_ms", 10000}}}}, 1);
    ws_client& w = *d.watchers[0].ws;
    // Many events: 15 gives and 15 placements plus rematches would overflow any small ring;
    // a full drawn game makes 32+.
    const std::array<int, 16> board = drawn_board();
    std::vector<step> steps;
    for (int sq = 0; sq < 16; ++sq) steps.push_back({board[static_cast<std::size_t>(sq)], sq});
    play(d, d.first, steps);
    for (int round = 0; round < 3; ++round) {
        d.act(0, "resign", json::object());
        d.expect_all("game_over");
        d.act(0, "rematch", json::object());
        d.act(1, "rematch", json::object());
        d.first = d.expect_all("game_started")["first"].get<int>();
        play(d, d.first, steps);
    }
    const long long latest = events_after(w.history(), d.room, 0).back()["seq"].get<long long>();
    REQUIRE(latest > 128);
    w.send({{"type", "sync"}, {"room", d.room}, {"since", 1}});
    std::vector<json> replay;
    for (;;) {
        json m = must(w.next(), "sync reply");
        if (m["type"] == "synced") {
            CHECK(m["seq"] == latest);
            break;
        }
        replay.push_back(m);
    }
    REQUIRE(!replay.empty());
    // Either the ring still holds everything after 1 (a generous ring) or we got the snapshot.
    if (replay.front()["type"] == "room") {
        CHECK(replay.size() == 1);
        CHECK(replay.front()["seq"] == latest);
    } else {
        CHECK(replay.front()["seq"] == 2);
        CHECK(replay.back()["seq"] == latest);
        MESSAGE("the ring holds more than " << latest << " events");
    }
}

TEST_CASE("sync: an unknown room or one the client is not in")
{
    server_process server;
    duel d = start_duel(server);
    player out = connect_player(server, "Out");
    out->send({{"type", "sync"}, {"room", d.room}, {"since", 0}, {"req", 1}});
    json e = must(out->next(), "error");
    CHECK(e["type"] == "error");
    CHECK(e["code"] == "not_in_room");
    CHECK(e["req"] == 1);
}

TEST_CASE("spectators: receive every event and the snapshot - seq +1 for every recipient")
{
    server_process server;
    duel d = start_duel(server, json::object(), 2);
    const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
    d.expect_all("game_over");

    // Compare every recipient's events from game_started on.
    const long long start = d.started["seq"].get<long long>();
    const std::vector<json> reference = events_after(d.creator->history(), d.room, start - 1);
    CHECK(reference.size() == 10); // game_started, 4 given, 4 placed, game_over
    for (ws_client* ws : d.everyone()) {
        CHECK(events_after(ws->history(), d.room, start - 1) == reference);
        CHECK(check_seq(ws->history(), d.room) >= 10);
    }
    // Spectators got a snapshot when they joined.
    for (auto& w : d.watchers) {
        bool snapshot = false;
        for (json m : w->history())
            if (m["type"] == "room") snapshot = true;
        CHECK(snapshot);
    }
}
