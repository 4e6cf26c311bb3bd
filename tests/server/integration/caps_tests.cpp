// What one player, one connection or one address may hold or do (against a hostile client):
// the lobby comes in pages of bounded size, rooms and tournaments are capped per player and per
// address, joining and leaving have a rate of their own, and req comes back as written.
#include <set>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

json expect_error(ws_client& ws, const std::string& code)
{
    const json e = must(ws.wait_type("error"), "error " + code);
    CHECK(e["code"] == code);
    return e;
}

json list_rooms(ws_client& ws, json fields = json::object())
{
    fields["type"] = "list_rooms";
    ws.send(fields);
    return must(ws.wait_type("rooms"), "rooms");
}

} // namespace

TEST_CASE("lobby: list_rooms answers one page at a time, rooms with a free seat first, with the total")
{
    server_process server;
    std::vector<player> creators;
    std::set<std::string> waiting;
    for (int c = 0; c < 13; ++c) { // 10 rooms each: the burst of creations one connection may make
        creators.push_back(connect_player(server, "Host" + std::to_string(c)));
        for (int r = 0; r < 10; ++r) waiting.insert(create_room(*creators.back().ws).get<std::string>());
    }
    // One game in progress (listed after the rooms one can join) and a private room (never listed).
    duel d = start_duel(server);
    player hidden = connect_player(server, "Hidden");
    create_room(*hidden.ws, {{"private", true}});

    player reader = connect_player(server, "Reader");
    const json first = list_rooms(*reader.ws, {{"req", 1}});
    CHECK(first["req"] == 1);
    CHECK(first["total"] == 131);
    CHECK(first["offset"] == 0);
    REQUIRE(first["rooms"].size() == 100); // the default page
    const json rest = list_rooms(*reader.ws, {{"offset", 100}, {"limit", 200}});
    CHECK(rest["offset"] == 100);
    REQUIRE(rest["rooms"].size() == 31);
    std::vector<std::string> seen;
    for (const json& page : {first, rest})
        for (const json& r : page["rooms"]) seen.push_back(r["id"]);
    CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 131); // each room once
    for (std::size_t i = 0; i < 130; ++i) CHECK(waiting.contains(seen[i]));
    CHECK(seen.back() == d.room);
    CHECK(list_rooms(*reader.ws, {{"offset", 5000}})["rooms"].empty());

    // The same pages over HTTP; a bad page is a 400 with a reason.
    const json api = json::parse(http_get(server.port(), "/api/rooms?offset=129&limit=5").body);
    CHECK(api["total"] == 131);
    CHECK(api["rooms"].size() == 2);
    CHECK(api["rooms"][1]["id"] == d.room);
    for (const char* bad : {"/api/rooms?limit=0", "/api/rooms?limit=201", "/api/rooms?offset=-1", "/api/rooms?offset=x",
                            "/api/tournaments?limit=1000"}) {
        CAPTURE(bad);
        const auto refused = http_get(server.port(), bad);
        CHECK(refused.status == 400);
        CHECK(json::parse(refused.body)["code"] == "bad_request");
    }
    reader->send({{"type", "list_rooms"}, {"limit", 201}, {"req", 2}});
    CHECK(expect_error(*reader.ws, "bad_message")["req"] == 2);
}

TEST_CASE("caps: a player in --max-rooms-per-player rooms may neither create nor join another")
{
    server_process server{{"--max-rooms-per-player", "3"}};
    player ann = connect_player(server, "Ann");
    std::vector<json> rooms;
    for (int i = 0; i < 3; ++i) rooms.push_back(create_room(*ann.ws));
    ann->send({{"type", "create_room"}, {"req", "c4"}});
    CHECK(expect_error(*ann.ws, "too_many_rooms")["req"] == "c4");

    player bo = connect_player(server, "Bo");
    const json elsewhere = create_room(*bo.ws);
    ann->send({{"type", "join"}, {"room", elsewhere}, {"as", "spectator"}, {"req", "j"}});
    CHECK(expect_error(*ann.ws, "too_many_rooms")["req"] == "j");
    // One of her own rooms again: only its snapshot.
    CHECK(join(*ann.ws, rooms[0])["room"] == rooms[0]);

    ann->send(action("leave", rooms[2]));
    must(ann->wait_type("left"), "left");
    CHECK(join(*ann.ws, elsewhere, "spectator")["room"] == elsewhere);
}

TEST_CASE("caps: --max-rooms-per-address counts the open rooms created from one address")
{
    server_process server{{"--max-rooms-per-address", "2"}};
    player ann = connect_player(server, "Ann");
    player bo = connect_player(server, "Bo");
    player cy = connect_player(server, "Cy");
    const json first = create_room(*ann.ws);
    create_room(*bo.ws);
    cy->send({{"type", "create_room"}, {"req", 3}});
    const json refused = expect_error(*cy.ws, "too_many_rooms");
    CHECK(refused["req"] == 3);
    CHECK(refused["message"].get<std::string>().find("address") != std::string::npos);
    // Joining is not creating.
    CHECK(join(*cy.ws, first)["you"]["seat"] == 1);
}

TEST_CASE("caps: joins and leaves have a rate of their own, so a spammer reaches few rooms")
{
    server_process server;
    duel d = start_duel(server);
    player spammer = connect_player(server, "Spam");
    int refused = 0;
    for (int i = 0; i < 15; ++i) {
        spammer->send({{"type", "join"}, {"room", d.room}, {"as", "spectator"}, {"req", i}});
        spammer->send({{"type", "leave"}, {"room", d.room}, {"req", i}});
    }
    spammer->send({{"type", "ping"}, {"req", "after"}});
    // The general rate (burst 40) lets all 31 through; the membership rate does not.
    must(spammer->wait_type("pong"), "pong");
    for (const json& m : spammer->history())
        if (m["type"] == "error") {
            CHECK(m["code"] == "rate_limited");
            ++refused;
        }
    CHECK(refused >= 15);
    // The players saw only the joins and leaves that were let through.
    d.creator->pump(milliseconds{300});
    int joined = 0;
    for (const json& m : d.creator->history()) joined += m["type"] == "joined" ? 1 : 0;
    CHECK(joined <= 1 + 10); // Bob, then at most the burst
}

TEST_CASE("caps: a director may have --max-tournaments-per-player unfinished tournaments")
{
    server_process server{{"--max-tournaments-per-player", "2"}};
    player dee = connect_player(server, "Dee");
    for (int i = 0; i < 3; ++i)
        dee->send({{"type", "create_tournament"}, {"name", "Cup " + std::to_string(i)}, {"format", "swiss"}, {"req", i}});
    must(dee->wait_for([](const json& m) { return m["type"] == "tournament_created" && m["req"] == 1; }), "second");
    CHECK(expect_error(*dee.ws, "too_many_tournaments")["req"] == 2);
    // Another director is not held by Dee's.
    player eve = connect_player(server, "Eve");
    eve->send({{"type", "create_tournament"}, {"name", "Eve's"}, {"format", "swiss"}});
    must(eve->wait_type("tournament_created"), "tournament_created");
}

TEST_CASE("req: a number comes back exactly as the client wrote it")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    for (const std::string written : {"1.50", "123456789012345678901234567890", "1e3", "-0.25"}) {
        ann->send_text(R"({"type":"ping","req":)" + written + "}");
        must(ann->wait_type("pong"), "pong");
        ann->send_text(R"({"type":"nonsense","req":)" + written + "}");
        must(ann->wait_type("error"), "error");
    }
    std::string replies;
    for (const auto& text : ann->raw_history()) replies += text + "\n";
    for (const std::string written : {"1.50", "123456789012345678901234567890", "1e3", "-0.25"}) {
        CAPTURE(written);
        CHECK(replies.find(R"("type":"pong")") != std::string::npos);
        std::size_t count = 0;
        for (auto at = replies.find("\"req\":" + written + "}"); at != std::string::npos;
             at = replies.find("\"req\":" + written + "}", at + 1))
            ++count;
        CHECK(count == 2); // the pong and the error
    }
}

TEST_CASE("resume: a player in as many rooms as the cap allows gets every one back")
{
    server_process server{{"--max-rooms-per-player", "10"}};
    player ann = connect_player(server, "Ann");
    std::set<std::string> rooms;
    for (int i = 0; i < 10; ++i) rooms.insert(create_room(*ann.ws).get<std::string>());
    ann->drop();
    ws_client back{server.port()};
    back.send({{"type", "hello"}, {"token", ann.token}});
    must(back.wait_type("welcome"), "welcome");
    std::set<std::string> resumed;
    while (resumed.size() < rooms.size()) resumed.insert(must(back.wait_type("room"), "snapshot")["room"].get<std::string>());
    CHECK(resumed == rooms);
    back.send({{"type", "ping"}});
    CHECK(must(back.wait_type("pong"), "pong")["type"] == "pong");
}
