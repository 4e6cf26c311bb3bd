// Lobby: create_room, list_rooms, private rooms, join, the room snapshot's fields.
#include "helpers.hpp"

using namespace quarto_test;

namespace {

// Every field the contract names in a `room` snapshot, with its type.
void check_snapshot_shape(json s)
{
    CAPTURE(s.dump());
    CHECK(s["type"] == "room");
    CHECK(s.contains("room"));
    CHECK(s["seq"].is_number_integer());
    CHECK(s["name"].is_string());
    CHECK(s["rules"].is_object());
    CHECK(s["clock_rules"].is_object());
    CHECK((s["status"] == "waiting" || s["status"] == "playing" || s["status"] == "finished"));
    REQUIRE(s["players"].is_array());
    CHECK(s["players"].size() == 2);
    for (json p : s["players"]) {
        if (p.is_null()) continue;
        CHECK(p["seat"].is_number_integer());
        CHECK(p.contains("id"));
        CHECK(p["name"].is_string());
        CHECK(p["connected"].is_boolean());
    }
    CHECK(s["spectators"].is_number_integer());
    REQUIRE(s["you"].is_object());
    CHECK(s["you"].contains("seat"));
    REQUIRE(s["game"].is_object());
    json g = s["game"];
    REQUIRE(g["board"].is_array());
    CHECK(g["board"].size() == 16);
    CHECK(g["available"].is_array());
    CHECK((g["phase"] == "waiting" || g["phase"] == "give" || g["phase"] == "place" || g["phase"] == "finished"));
    CHECK(g.contains("turn"));
    CHECK(g.contains("in_hand"));
    REQUIRE(g["clock"].is_object());
    CHECK(g["clock"]["remaining_ms"].is_array());
    CHECK(g["clock"]["remaining_ms"].size() == 2);
    CHECK(g["clock"].contains("running"));
    CHECK(g.contains("claim"));
    CHECK(g["moves"].is_array());
    CHECK(g.contains("result"));
}

} // namespace

TEST_CASE("lobby: create_room replies room_created (with req) then the waiting snapshot")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    ann->send({{"type", "create_room"}, {"name", "Table 1"}, {"req", "c1"}});
    json created = must(ann->next(), "room_created");
    CHECK(created["type"] == "room_created");
    CHECK(created["req"] == "c1");
    REQUIRE(created.contains("room"));
    json snap = must(ann->next(), "room snapshot");
    check_snapshot_shape(snap);
    CHECK(snap["room"] == created["room"]);
    CHECK(snap["name"] == "Table 1");
    CHECK(snap["status"] == "waiting");
    CHECK(snap["you"]["seat"] == 0);
    CHECK(snap["players"][0]["id"] == ann.id);
    CHECK(snap["players"][0]["name"] == "Ann");
    CHECK(snap["players"][0]["seat"] == 0);
    CHECK(snap["players"][0]["connected"] == true);
    CHECK(snap["players"][1].is_null());
    CHECK(snap["spectators"] == 0);
    CHECK(snap["tournament"].is_null());
    CHECK(snap["game"]["phase"] == "waiting");
    CHECK(snap["game"]["result"].is_null());
    // Defaults.
    CHECK(snap["rules"]["squares"] == false);
    CHECK(snap["rules"]["false_claim"] == "reject");
    CHECK(snap["rules"]["attributes"].size() == 4);
    CHECK(snap["clock_rules"]["move_ms"] == 60000);
    CHECK(snap["clock_rules"]["claim_ms"] == 10000);
}

TEST_CASE("lobby: list_rooms shows public rooms with their fields - private ones are hidden but joinable")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    json rules = {{"squares", true}, {"attributes", {"color", "shape"}}, {"false_claim", "lose"}};
    json clock = {{"move_ms", 30000}, {"claim_ms", 5000}};
    json pub = create_room(*ann.ws, {{"name", "Public"}, {"rules", rules}, {"clock", clock}});
    player cid = connect_player(server, "Cid");
    json priv = create_room(*cid.ws, {{"name", "Private"}, {"private", true}});

    player bob = connect_player(server, "Bob");
    bob->send({{"type", "list_rooms"}, {"req", 5}});
    json list = must(bob->next(), "rooms");
    CHECK(list["type"] == "rooms");
    CHECK(list["req"] == 5);
    REQUIRE(list["rooms"].is_array());
    json found;
    for (json r : list["rooms"]) {
        CHECK(r["id"] != priv);
        if (r["id"] == pub) found = r;
    }
    REQUIRE_MESSAGE(found.is_object(), list.dump());
    CHECK(found["name"] == "Public");
    CHECK(found["status"] == "waiting");
    CHECK(found["players"] == json{"Ann"});
    CHECK(found["spectators"] == 0);
    CHECK(found["rules"]["squares"] == true);
    CHECK(found["rules"]["false_claim"] == "lose");
    CHECK(found["rules"]["attributes"] == json{"color", "shape"});
    CHECK(found["clock"]["move_ms"] == 30000);
    CHECK(found["clock"]["claim_ms"] == 5000);
    CHECK(found["tournament"].is_null());

    // Joining the private room by id works and starts the game.
    json snap = join(*bob.ws, priv, "player");
    CHECK(snap["you"]["seat"] == 1);
    CHECK(must(bob->wait_type("game_started"), "game_started")["room"] == priv);
    CHECK(must(cid->wait_type("game_started"), "game_started")["room"] == priv);

    // Status changes are reflected; players listed by name.
    bob->send({{"type", "list_rooms"}});
    json again = must(bob->wait_type("rooms"), "rooms");
    for (json r : again["rooms"]) CHECK(r["id"] != priv);
}

TEST_CASE("lobby: GET /api/rooms/{id} shows one room by id, private ones too, and an unknown id is 404")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    json clock = {{"move_ms", 60000}, {"claim_ms", 10000}};
    json priv = create_room(*ann.ws, {{"name", "Friendly game"}, {"private", true}, {"clock", clock}});
    json pub = create_room(*ann.ws, {{"name", "Open table"}});

    const http_response one = http_get(server.port(), "/api/rooms/" + priv.get<std::string>());
    CHECK(one.status == 200);
    CHECK(one.content_type.find("application/json") != std::string::npos);
    json room = json::parse(one.body, nullptr, false);
    REQUIRE_MESSAGE(room.is_object(), one.body);
    CHECK(room["id"] == priv);
    CHECK(room["name"] == "Friendly game");
    CHECK(room["status"] == "waiting");
    CHECK(room["players"] == json{"Ann"});
    CHECK(room["clock"]["move_ms"] == 60000);
    CHECK(room["private"] == true);
    CHECK(room["tournament"].is_null());
    // A public room's is the summary the lobby lists.
    json listed;
    const json lobby = json::parse(http_get(server.port(), "/api/rooms").body);
    for (json r : lobby["rooms"])
        if (r["id"] == pub) listed = r;
    CHECK(json::parse(http_get(server.port(), "/api/rooms/" + pub.get<std::string>()).body) == listed);

    // It follows the room: the second player's join starts the game.
    player bob = connect_player(server, "Bob");
    join(*bob.ws, priv, "player");
    must(bob->wait_type("game_started"), "game_started");
    room = json::parse(http_get(server.port(), "/api/rooms/" + priv.get<std::string>()).body);
    CHECK(room["status"] == "playing");
    CHECK(room["players"] == json{"Ann", "Bob"});

    const http_response missing = http_get(server.port(), "/api/rooms/nosuchroom");
    CHECK(missing.status == 404);
    CHECK(json::parse(missing.body)["code"] == "no_such_room");
}

TEST_CASE("lobby: untimed rooms (move_ms null)")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    json snap;
    create_room(*ann.ws, {{"clock", {{"move_ms", nullptr}, {"claim_ms", 1000}}}}, &snap);
    CHECK(snap["clock_rules"]["move_ms"].is_null());
    CHECK(snap["clock_rules"]["claim_ms"] == 1000);
}

TEST_CASE("lobby: clock bounds 100 and 3600000 / 600000 are accepted")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    json snap;
    create_room(*ann.ws, {{"clock", {{"move_ms", 100}, {"claim_ms", 100}}}}, &snap);
    CHECK(snap["clock_rules"]["move_ms"] == 100);
    create_room(*ann.ws, {{"clock", {{"move_ms", 3600000}, {"claim_ms", 600000}}}}, &snap);
    CHECK(snap["clock_rules"]["move_ms"] == 3600000);
    CHECK(snap["clock_rules"]["claim_ms"] == 600000);
}

TEST_CASE("lobby: join sends the snapshot to the joiner, joined to the others, then game_started")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    json room = create_room(*ann.ws);

    player zed = connect_player(server, "Zed");
    zed->send({{"type", "join"}, {"room", room}, {"as", "spectator"}, {"req", 9}});
    json zsnap = must(zed->next(), "spectator snapshot");
    check_snapshot_shape(zsnap);
    CHECK(zsnap["req"] == 9);
    CHECK(zsnap["you"]["seat"].is_null());
    CHECK(zsnap["spectators"] == 1);
    json zjoined = must(ann->next(), "joined (spectator)");
    CHECK(zjoined["type"] == "joined");
    CHECK(zjoined["as"] == "spectator");
    CHECK(zjoined["player"]["id"] == zed.id);
    CHECK(zjoined["player"]["name"] == "Zed");
    CHECK(zjoined["seq"] == zsnap["seq"]); // the joiner's snapshot counts its own joined

    player bob = connect_player(server, "Bob");
    bob->send({{"type", "join"}, {"room", room}, {"as", "player"}, {"req", 10}});
    json bsnap = must(bob->next(), "player snapshot");
    check_snapshot_shape(bsnap);
    CHECK(bsnap["req"] == 10);
    CHECK(bsnap["you"]["seat"] == 1);
    CHECK(bsnap["players"][1]["id"] == bob.id);
    for (ws_client* ws : {ann.ws.get(), zed.ws.get()}) {
        json j = must(ws->next(), "joined (player)");
        CHECK(j["type"] == "joined");
        CHECK(j["as"] == "player");
        CHECK(j["seat"] == 1);
        CHECK(j["player"]["id"] == bob.id);
        CHECK(j["seq"] == bsnap["seq"]);
    }
    json started;
    for (ws_client* ws : {ann.ws.get(), zed.ws.get(), bob.ws.get()}) {
        json g = must(ws->next(), "game_started");
        CHECK(g["type"] == "game_started");
        CHECK(g["seq"] == bsnap["seq"].get<long long>() + 1);
        if (started.is_null()) started = g;
        CHECK(g == started);
    }
    CHECK((started["first"] == 0 || started["first"] == 1));
    REQUIRE(started["players"].size() == 2);
    CHECK(started["players"][0]["id"] == ann.id);
    CHECK(started["players"][0]["name"] == "Ann");
    CHECK(started["players"][1]["id"] == bob.id);
    CHECK(started["players"][1]["name"] == "Bob");
    json clock = started["clock"];
    CHECK(clock["running"] == started["first"]);
    CHECK(clock["remaining_ms"][0].get<long long>() <= 60000);
    CHECK(clock["remaining_ms"][1].get<long long>() <= 60000);
    CHECK(clock["remaining_ms"][0].get<long long>() > 55000);

    // A late snapshot reflects the game.
    player late = connect_player(server, "Late");
    json lsnap = join(*late.ws, room, "spectator");
    CHECK(lsnap["status"] == "playing");
    CHECK(lsnap["game"]["phase"] == "give");
    CHECK(lsnap["game"]["turn"] == started["first"]);
    CHECK(lsnap["game"]["available"].size() == 16);
    CHECK(lsnap["game"]["in_hand"].is_null());
    CHECK(lsnap["game"]["claim"].is_null());
    CHECK(lsnap["game"]["clock"]["running"] == started["first"]);
    CHECK(lsnap["spectators"] == 2);
    for (json sq : lsnap["game"]["board"]) CHECK(sq.is_null());
}

TEST_CASE("lobby: a third player gets room_full (with req) - spectators are still welcome")
{
    server_process server;
    duel d = start_duel(server);
    player cid = connect_player(server, "Cid");
    cid->send({{"type", "join"}, {"room", d.room}, {"as", "player"}, {"req", "full"}});
    json e = must(cid->next(), "room_full");
    CHECK(e["type"] == "error");
    CHECK(e["code"] == "room_full");
    CHECK(e["req"] == "full");
    json snap = join(*cid.ws, d.room, "spectator");
    CHECK(snap["you"]["seat"].is_null());
}

TEST_CASE("lobby: a snapshot mid-game shows board, hand, clock and claim window")
{
    server_process server;
    duel d = start_duel(server, {{"clock", {{"move_ms", 60000}, {"claim_ms", 10000}}}});
    const int f = d.first, s = 1 - f;
    play(d, f, {{5, 0}});        // f gives 5, s places it on 0
    const auto window_before = steady::now();
    d.act(s, "give", {{"piece", 9}});
    d.expect_all("given");        // the claim window for f opens
    player late = connect_player(server, "Late");
    json snap = join(*late.ws, d.room, "spectator");
    // The window opened after window_before and the snapshot was made before now: at most
    // this much of its 10 s can have gone, however slow the machine.
    const auto gone_ms = std::chrono::duration_cast<milliseconds>(steady::now() - window_before).count();
    CAPTURE(gone_ms);
    CAPTURE(snap.dump());
    json g = snap["game"];
    CHECK(g["board"][0] == 5);
    CHECK(g["board"][1].is_null());
    CHECK(g["phase"] == "place");
    CHECK(g["turn"] == f);
    CHECK(g["in_hand"] == 9);
    CHECK(g["available"].size() == 14);
    for (json p : g["available"]) CHECK((p != 5 && p != 9));
    CHECK(g["clock"]["running"] == f);
    REQUIRE(g["claim"].is_object());
    CHECK(g["claim"]["seat"] == f);
    CHECK(g["claim"]["remaining_ms"].get<long long>() <= 10000);
    CHECK(g["claim"]["remaining_ms"].get<long long>() >= 10000 - gone_ms - 1); // (-1: whole ms)
    CHECK(g["moves"].size() == 3);
    CHECK(snap["status"] == "playing");
    CHECK(snap["players"][0]["connected"] == true);
    CHECK(snap["players"][1]["connected"] == true);
}

TEST_CASE("lobby: a spectator who leaves is broadcast as left and is no longer in the room")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    player& w = d.watchers[0];
    w->send(action("leave", d.room));
    for (ws_client* ws : {d.creator.ws.get(), d.joiner.ws.get()}) {
        json left = must(ws->wait_type("left"), "left");
        json who = left["player"];
        CHECK((who.is_object() ? who["id"] == w.id : who == w.id));
        check_seq(ws->history(), d.room);
    }
    w->send({{"type", "sync"}, {"room", d.room}, {"since", 0}, {"req", "gone"}});
    json e = must(w->wait_type("error"), "not_in_room");
    CHECK(e["code"] == "not_in_room");
    CHECK(e["req"] == "gone");
    player late = connect_player(server, "Late");
    json snap = join(*late.ws, d.room, "spectator");
    CHECK(snap["spectators"] == 1);
}

namespace {

// The summary of `room` in GET /api/rooms, or null when it is not listed; `order` gets every
// listed room's id, in the lobby's order.
json listed_room(const server_process& server, const json& room, std::vector<json>* order = nullptr)
{
    const auto r = http_get(server.port(), "/api/rooms");
    REQUIRE(r.status == 200);
    const json list = json::parse(r.body);
    json found;
    for (const json& s : list["rooms"]) {
        if (order) order->push_back(s["id"]);
        if (s["id"] == room) found = s;
    }
    return found;
}

} // namespace

TEST_CASE("lobby: a waiting room whose player has gone is marked host_away, listed after the open ones, and closes")
{
    server_process server{{"--abandon-seconds", "1"}};
    player ann = connect_player(server, "Ann");
    const json ghost = create_room(*ann.ws, {{"name", "Ann's"}});
    player cy = connect_player(server, "Cy");
    const json open = create_room(*cy.ws, {{"name", "Cy's"}});
    CHECK(listed_room(server, ghost)["host_away"] == false);
    CHECK(listed_room(server, open)["host_away"] == false);

    ann->drop();
    // Within the grace the room stays listed, marked, after the room whose player is here.
    json marked;
    for (const auto deadline = in(default_wait); steady::now() < deadline;) {
        marked = listed_room(server, ghost);
        if (marked.is_object() && marked["host_away"] == true) break;
        std::this_thread::sleep_for(milliseconds{20});
    }
    REQUIRE_MESSAGE(marked.is_object(), "the room closed before it was seen marked");
    CHECK(marked["host_away"] == true);
    CHECK(marked["status"] == "waiting");
    CHECK(json::parse(http_get(server.port(), "/api/rooms/" + ghost.get<std::string>()).body)["host_away"] == true);

    // Closed at the first sweep after --abandon-seconds (the server sweeps every 10 s).
    bool closed = false;
    for (const auto deadline = in(milliseconds{25'000}); steady::now() < deadline && !closed;) {
        closed = http_get(server.port(), "/api/rooms/" + ghost.get<std::string>()).status == 404;
        if (!closed) std::this_thread::sleep_for(milliseconds{200});
    }
    CHECK(closed);
    CHECK(listed_room(server, ghost).is_null());
    CHECK(listed_room(server, open)["host_away"] == false); // Cy's is still there
}

TEST_CASE("lobby: the lobby lists open rooms first, then games, then rooms whose player has gone")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    const json ghost = create_room(*ann.ws, {{"name", "gone"}});
    ann->drop();
    duel d = start_duel(server, {{"name", "game"}});
    player cy = connect_player(server, "Cy");
    const json open = create_room(*cy.ws, {{"name", "open"}});
    std::vector<json> order;
    for (const auto deadline = in(default_wait); steady::now() < deadline;) {
        order.clear();
        if (listed_room(server, ghost, &order)["host_away"] == true) break;
        std::this_thread::sleep_for(milliseconds{20});
    }
    CHECK(order == std::vector<json>{open, d.room, ghost});
}

TEST_CASE("lobby: joining a room whose player has gone starts a game that may be claimed at once")
{
    server_process server; // --abandon-seconds 30: the room is not closed meanwhile
    player ann = connect_player(server, "Ann");
    const json room = create_room(*ann.ws);
    ann->drop();
    for (const auto deadline = in(default_wait);
         steady::now() < deadline && listed_room(server, room)["host_away"] != true;)
        std::this_thread::sleep_for(milliseconds{20});

    player bo = connect_player(server, "Bo");
    const json snap = join(*bo.ws, room);
    CHECK(snap["players"][0]["connected"] == false);
    must(bo->wait_type("game_started"), "game_started");
    const json gone = must(bo->wait_type("disconnected"), "disconnected");
    CHECK(gone["player"]["name"] == "Ann");
    CHECK(gone["claim_victory_in_ms"] == 0);
    bo->send(action("claim_victory", room, {{"req", "c"}}));
    const json over = must(bo->wait_type("game_over"), "game_over");
    CHECK(over["reason"] == "abandoned");
    CHECK(over["winner"] == 1);
}
