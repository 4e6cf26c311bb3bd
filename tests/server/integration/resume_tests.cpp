// A resume has an end: after `hello` with a token, `welcome` lists the rooms and tournaments
// being resumed, and `resumed_all` follows the last of their snapshots, wherever the shards
// that hold them are, and whatever the client sends meanwhile.
#include <algorithm>
#include <set>

#include "helpers.hpp"
#include "shards/shard_of.hpp"

using namespace quarto_test;

namespace {

std::uint16_t shard_of_id(const json& id, std::size_t shards)
{
    return quarto::server::shards::shard_of(id.get<std::string>(), shards);
}

// The ids listed in `message[key]` (none when it is missing).
std::set<std::string> id_set(const json& message, const char* key)
{
    std::set<std::string> out;
    for (const auto& id : message.value(key, json::array())) out.insert(id.get<std::string>());
    return out;
}

json new_tournament(ws_client& ws, const std::string& name)
{
    ws.send({{"type", "create_tournament"}, {"name", name}, {"format", "swiss"}});
    const json created = must(ws.wait_type("tournament_created"), "tournament_created");
    must(ws.wait_type("tournament"), "the new tournament's snapshot");
    return created["tournament"];
}

// What a resuming connection received up to resumed_all: the room and tournament snapshots,
// and whatever else came before it.
struct resume_seen {
    json welcome;
    std::set<std::string> rooms;       // snapshots before resumed_all
    std::set<std::string> tournaments; // likewise
    int pongs_before = 0;
};

// Says hello with `token` on `ws` (then ping at once when `ping_after_welcome`), and reads until
// resumed_all, checking that each snapshot comes once.
resume_seen resume(ws_client& ws, const std::string& token, bool ping_after_welcome)
{
    resume_seen seen;
    ws.send({{"type", "hello"}, {"token", token}, {"req", "back"}});
    seen.welcome = must(ws.next(), "welcome");
    REQUIRE(seen.welcome.value("type", "") == "welcome");
    if (ping_after_welcome) ws.send({{"type", "ping"}, {"req", "right after"}});
    for (;;) {
        const json m = must(ws.next(), "the resume's messages up to resumed_all");
        const std::string type = m["type"];
        if (type == "resumed_all") break;
        if (type == "room") CHECK_MESSAGE(seen.rooms.insert(m["room"].get<std::string>()).second, m);
        else if (type == "tournament") CHECK_MESSAGE(seen.tournaments.insert(m["tournament"].get<std::string>()).second, m);
        else if (type == "pong") ++seen.pongs_before;
    }
    return seen;
}

} // namespace

TEST_CASE("resume: a player in 20 rooms on both shards gets resumed_all after every snapshot")
{
    // Membership changes at a rate that lets the test set up quickly.
    server_process server{{"--threads", "2", "--join-rate", "1000", "--join-burst", "100"}};
    player ann = connect_player(server, "Ann");
    std::set<std::string> rooms, tournaments;

    // Rooms are made on their creator's shard: Ann's ten on hers, ten of another's on the other.
    const json first = create_room(*ann.ws);
    const auto ann_shard = shard_of_id(first, 2);
    rooms.insert(first.get<std::string>());
    while (rooms.size() < 10) rooms.insert(create_room(*ann.ws).get<std::string>());
    std::vector<player> others;
    json other_room;
    for (int attempt = 0; attempt < 4 && (other_room.is_null() || shard_of_id(other_room, 2) == ann_shard); ++attempt) {
        others.push_back(connect_player(server, "Bob" + std::to_string(attempt)));
        other_room = create_room(*others.back().ws);
    }
    REQUIRE_MESSAGE(shard_of_id(other_room, 2) != ann_shard, "no connection landed on the other shard");
    ws_client& bob = *others.back().ws;
    for (int i = 0; i < 10; ++i) {
        const json room = i == 0 ? other_room : create_room(bob);
        join(*ann.ws, room, "player");
        rooms.insert(room.get<std::string>());
    }
    // A tournament on each shard too: one Ann directs, one she plays in.
    const json ann_cup = new_tournament(*ann.ws, "Ann's cup");
    const json bob_cup = new_tournament(bob, "Bob's cup");
    ann->send({{"type", "join_tournament"}, {"tournament", bob_cup}});
    must(ann->wait_for([&](const json& m) { return m["type"] == "tournament" && m["tournament"] == bob_cup; }), "joined");
    tournaments = {ann_cup.get<std::string>(), bob_cup.get<std::string>()};
    REQUIRE(rooms.size() == 20);
    std::set<std::uint16_t> shards;
    for (const auto& id : rooms) shards.insert(shard_of_id(id, 2));
    REQUIRE(shards.size() == 2);

    ann->close();
    for (const bool ping : {false, true}) {
        CAPTURE(ping);
        ws_client again{server.port()};
        const resume_seen seen = resume(again, ann.token, ping);
        CHECK(seen.welcome.value("req", "") == "back");
        CHECK(id_set(seen.welcome, "rooms") == rooms);
        CHECK(id_set(seen.welcome, "tournaments") == tournaments);
        CHECK(seen.rooms == rooms);
        CHECK(seen.tournaments == tournaments);
        if (ping) {
            // The pong may come before resumed_all or after it, but it comes.
            if (seen.pongs_before == 0) CHECK(must(again.wait_type("pong"), "pong")["req"] == "right after");
            CHECK(seen.pongs_before <= 1);
        }
        // resumed_all came once, after every snapshot of the resume.
        const auto& history = again.history();
        const auto end = std::find_if(history.begin(), history.end(), [](const json& m) { return m["type"] == "resumed_all"; });
        REQUIRE(end != history.end());
        CHECK(std::count_if(history.begin(), history.end(), [](const json& m) { return m["type"] == "resumed_all"; }) == 1);
        CHECK(std::none_of(end, history.end(), [](const json& m) { return m["type"] == "room" || m["type"] == "tournament"; }));
        again.close();
    }
}

TEST_CASE("resume: with nothing to resume, resumed_all follows the welcome at once")
{
    server_process server;
    player ann = connect_player(server, "Ann");
    ws_client again{server.port()};
    again.send({{"type", "hello"}, {"token", ann.token}});
    const json welcome = must(again.next(), "welcome");
    CHECK(welcome.value("type", "") == "welcome");
    CHECK(welcome.value("rooms", json{}) == json::array());
    CHECK(welcome.value("tournaments", json{}) == json::array());
    CHECK(must(again.next(), "resumed_all") == json{{"type", "resumed_all"}});

    // A hello with a name resumes nothing: no lists, and no resumed_all.
    ws_client fresh{server.port()};
    fresh.send({{"type", "hello"}, {"name", "Bea"}});
    const json named = must(fresh.next(), "welcome");
    CHECK_FALSE(named.contains("rooms"));
    CHECK_FALSE(named.contains("tournaments"));
    fresh.send({{"type", "ping"}, {"req", 1}});
    CHECK(must(fresh.next(), "pong")["type"] == "pong");
}

TEST_CASE("resume: a player whose rooms are all on the other shard moves there, and resumed_all still comes last")
{
    server_process server{{"--threads", "2"}};
    player ann = connect_player(server, "Ann");
    std::set<std::string> rooms;
    for (int i = 0; i < 3; ++i) rooms.insert(create_room(*ann.ws).get<std::string>());
    ann->close();
    // Connections are spread over the shards in turn: of two in a row, one is on the other
    // shard and moves to the rooms' before it resumes them.
    for (int i = 0; i < 2; ++i) {
        CAPTURE(i);
        ws_client again{server.port()};
        const resume_seen seen = resume(again, ann.token, true);
        CHECK(id_set(seen.welcome, "rooms") == rooms);
        CHECK(seen.rooms == rooms);
        again.close();
    }
}
