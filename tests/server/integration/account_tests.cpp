// Accounts on a running server, on both archive engines: a guest claims an account and keeps
// its games, a second device is the same player, failed logins are limited the same whether the
// account exists or not, no password is ever written down, rated games change both ratings
// exactly once (also across kill -9), and an account can be deleted.
#include <csignal>
#include <fstream>
#include <iterator>

#include "helpers.hpp"
#include "postgres_server.hpp"
#include "redis_server.hpp"

using namespace quarto_test;

namespace {

constexpr const char* password = "correct horse battery";

// The cookie a response sets, as a request sends it back ("quarto_session=ID"); empty if none.
std::string cookie_of(const http_response& r)
{
    const std::string set = r.header("Set-Cookie");
    return set.substr(0, set.find(';'));
}

http_response post(const server_process& s, const std::string& target, const json& body, const std::string& cookie = {})
{
    header_list headers;
    if (!cookie.empty()) headers.emplace_back("Cookie", cookie);
    return http_request(s.port(), "POST", target, body.dump(), headers);
}

http_response send(const server_process& s, const std::string& method, const std::string& target, const std::string& cookie)
{
    return http_request(s.port(), method, target, {}, {{"Cookie", cookie}});
}

// A WebSocket opened with the account's cookie, greeted: returns the welcome.
std::unique_ptr<ws_client> signed_in(const server_process& s, const std::string& cookie, json& welcome)
{
    auto ws = std::make_unique<ws_client>(s.port(), header_list{{"Cookie", cookie}});
    welcome = hello(*ws, "anyone");
    return ws;
}

json profile(const server_process& s, const std::string& name)
{
    const http_response r = http_get(s.port(), "/api/players/" + name);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    return json::parse(r.body);
}

std::string sign_up(const server_process& s, const std::string& name)
{
    const http_response made = post(s, "/api/accounts", {{"name", name}, {"password", password}});
    REQUIRE_MESSAGE(made.status == 201, made.body);
    return cookie_of(made);
}

// The file's bytes, with its -wal beside it.
std::string file_bytes(const std::string& path)
{
    std::string all;
    for (const std::string& p : {path, path + "-wal"}) {
        std::ifstream in{p, std::ios::binary};
        all.append(std::istreambuf_iterator<char>{in}, {});
    }
    return all;
}

void claim_and_keep_games(const std::vector<std::string>& args)
{
    server_process server{args};
    duel d = start_duel(server, {{"clock", {{"move_ms", nullptr}}}});
    d.act(1, "resign");
    d.expect_all("game_over");

    const http_response made = post(server, "/api/accounts", {{"name", "Ann"}, {"password", password}, {"token", d.creator.token}});
    REQUIRE_MESSAGE(made.status == 201, made.body);
    const json body = json::parse(made.body);
    CHECK(body["player"] == d.creator.id);
    CHECK(body["name"] == "Ann");
    const std::string set = made.header("Set-Cookie");
    CHECK(set.find("quarto_session=") == 0);
    CHECK(set.find("HttpOnly") != std::string::npos);
    CHECK(set.find("SameSite=Lax") != std::string::npos);
    CHECK(set.find("Secure") == std::string::npos); // plain HTTP, no proxy vouching for TLS

    const json ann = profile(server, "ann");
    CHECK(ann["player"] == d.creator.id);
    CHECK(ann["account"] == true);
    CHECK(ann["results"] == json{{"wins", 1}, {"draws", 0}, {"losses", 0}});
    CHECK(ann["ratings"]["standard"]["rating"] == 1500.0);
    CHECK(ann["ratings"]["standard"]["provisional"] == true);

    json welcome;
    auto ws = signed_in(server, cookie_of(made), welcome);
    CHECK(welcome["player"] == d.creator.id);
    CHECK(welcome["name"] == "Ann");
    CHECK(welcome["account"] == true);
    CHECK(welcome["ratings"]["advanced"]["games"] == 0);
    CHECK_FALSE(welcome.contains("token"));
    // The guest's token resumes the account no more: its session does.
    ws_client old{server.port()};
    old.send({{"type", "hello"}, {"token", d.creator.token}});
    CHECK(must(old.wait_for([](const json& m) { return m.contains("type"); }), "answer")["code"] == "unknown_token");
    // Nor can a guest take the account's name, in any case.
    ws_client guest{server.port()};
    guest.send({{"type", "hello"}, {"name", "ANN"}});
    CHECK(must(guest.wait_for([](const json& m) { return m.contains("type"); }), "answer")["code"] == "name_taken");
    // The same token again: that player has an account already.
    CHECK(post(server, "/api/accounts", {{"name", "Ann2"}, {"password", password}, {"token", d.creator.token}}).status == 400);
    const http_response taken = post(server, "/api/accounts", {{"name", "aNN"}, {"password", password}});
    CHECK(taken.status == 409);
    CHECK(json::parse(taken.body)["code"] == "name_taken");
}

// Ann and Bob, each with an account, play a rated game Ann resigns: returns its game_over.
json rated_game(const server_process& server, const std::string& ann_cookie, const std::string& bob_cookie)
{
    json welcome;
    auto ann = signed_in(server, ann_cookie, welcome);
    auto bob = signed_in(server, bob_cookie, welcome);
    json snapshot;
    const json room = create_room(*ann, {{"rated", true}}, &snapshot);
    CHECK(snapshot["rated"] == true);
    CHECK(snapshot["players"][0]["rating"] == 1500);
    CHECK(snapshot["players"][0]["provisional"] == true);
    join(*bob, room, "player");
    const json started = must(ann->wait_for([](const json& m) { return m.value("type", "") == "game_started"; }), "game_started");
    const int first = started["first"].get<int>();
    ws_client& giver = first == 0 ? *ann : *bob;
    ws_client& placer = first == 0 ? *bob : *ann;
    giver.send(action("give", room, {{"piece", 3}}));
    must(placer.wait_for([](const json& m) { return m.value("type", "") == "given"; }), "given");
    placer.send(action("place", room, {{"square", 5}}));
    must(ann->wait_for([](const json& m) { return m.value("type", "") == "placed"; }), "placed");
    ann->send(action("resign", room));
    return must(ann->wait_for([](const json& m) { return m.value("type", "") == "game_over"; }), "game_over");
}

void rated_once_across_kill(const std::vector<std::string>& args)
{
    std::string ann_cookie, bob_cookie;
    json over;
    {
        server_process server{args};
        ann_cookie = sign_up(server, "Ann");
        bob_cookie = sign_up(server, "Bob");
        over = rated_game(server, ann_cookie, bob_cookie);
        ::kill(server.pid(), SIGKILL); // right after the game's end: its record may not be stored yet
        REQUIRE(server.wait_exit().has_value());
    }
    REQUIRE(over["ratings"].size() == 2);
    const json& ann_change = over["ratings"][0];
    const json& bob_change = over["ratings"][1];
    CHECK(ann_change["before"] == 1500);
    CHECK(ann_change["after"].get<int>() < 1500);
    CHECK(bob_change["after"].get<int>() > 1500);
    CHECK(ann_change["provisional"] == true);

    for (int restart = 0; restart < 2; ++restart) { // a second restart changes nothing more
        server_process again{args};
        const json ann = profile(again, "Ann"), bob = profile(again, "Bob");
        CHECK(ann["ratings"]["standard"]["games"] == 1);
        CHECK(bob["ratings"]["standard"]["games"] == 1);
        CHECK(std::lround(ann["ratings"]["standard"]["rating"].get<double>()) == ann_change["after"].get<int>());
        CHECK(std::lround(bob["ratings"]["standard"]["rating"].get<double>()) == bob_change["after"].get<int>());
        CHECK(ann["history"]["standard"].size() == 1);
        CHECK(ann["ratings"]["advanced"]["games"] == 0);
        const http_response games = http_get(again.port(), "/api/players/Ann/games");
        REQUIRE(games.status == 200);
        const json list = json::parse(games.body)["games"];
        REQUIRE(list.size() == 1);
        CHECK(list[0]["rated"] == true);
        CHECK(list[0]["ratings"][0]["after"] == ann_change["after"]);
    }
    server_process again{args};
    // Both are still provisional after one game: no leaderboard yet.
    const http_response board = http_get(again.port(), "/api/leaderboard?pool=standard");
    REQUIRE(board.status == 200);
    CHECK(json::parse(board.body)["players"].empty());
}

} // namespace

TEST_CASE("accounts: a guest claims an account and keeps its id and games (SQLite)") { claim_and_keep_games({}); }

TEST_CASE("accounts: a guest claims an account and keeps its id and games (PostgreSQL)")
{
    test_postgres::postgres_server postgres;
    claim_and_keep_games({"--db", postgres.fresh_database()});
}

TEST_CASE("accounts: a rated game changes both ratings once, across kill -9 and restarts (SQLite)")
{
    const std::string db = scratch_file("rated.db").string();
    rated_once_across_kill({"--db", db});
}

TEST_CASE("accounts: a rated game changes both ratings once, across kill -9 and restarts (PostgreSQL)")
{
    test_postgres::postgres_server postgres;
    rated_once_across_kill({"--db", postgres.fresh_database()});
}

namespace {

void second_device(const std::vector<std::string>& args)
{
    server_process server{args};
    const std::string first = sign_up(server, "Ann");
    json welcome;
    auto phone = signed_in(server, first, welcome);
    const json room = create_room(*phone);

    const http_response login = post(server, "/api/sessions", {{"name", "ANN"}, {"password", password}});
    REQUIRE_MESSAGE(login.status == 200, login.body);
    CHECK(json::parse(login.body)["name"] == "Ann");
    const std::string second = cookie_of(login);
    CHECK(second != first);
    // hello with the session itself (a client that keeps it) is the account too.
    ws_client laptop{server.port()};
    laptop.send({{"type", "hello"}, {"session", second.substr(second.find('=') + 1)}});
    const json back = must(laptop.wait_for([](const json& m) { return m.value("type", "") == "welcome"; }), "welcome");
    CHECK(back["player"] == welcome["player"]);
    CHECK(back["rooms"] == json::array({room}));
    const json snapshot = must(laptop.wait_for([](const json& m) { return m.value("type", "") == "room"; }), "snapshot");
    CHECK(snapshot["you"]["seat"] == 0);

    // Logging out ends that session only; everywhere ends them all.
    CHECK(send(server, "DELETE", "/api/sessions/current", second).status == 204);
    CHECK(send(server, "GET", "/api/me", second).status == 401);
    CHECK(send(server, "GET", "/api/me", first).status == 200);
    ws_client stale{server.port()};
    stale.send({{"type", "hello"}, {"session", second.substr(second.find('=') + 1)}});
    CHECK(must(stale.wait_for([](const json& m) { return m.contains("type"); }), "answer")["code"] == "unknown_session");
    CHECK(send(server, "DELETE", "/api/sessions", first).status == 204);
    CHECK(send(server, "GET", "/api/me", first).status == 401);
    // Everywhere means the sockets open with them too.
    REQUIRE(phone->wait_closed());
    CHECK(phone->close_code() == std::optional<std::uint16_t>{4001});
    REQUIRE(laptop.wait_closed());
}

} // namespace

TEST_CASE("accounts: logged in on a second connection, the same player in the same room (SQLite)") { second_device({}); }

TEST_CASE("accounts: logged in on a second connection, the same player in the same room (PostgreSQL)")
{
    test_postgres::postgres_server postgres;
    second_device({"--db", postgres.fresh_database()});
}

TEST_CASE("accounts: wrong passwords are limited alike for a missing and an existing account")
{
    server_process server;
    sign_up(server, "Ann");
    std::string existing, missing;
    for (int i = 0; i < 5; ++i) { // ten failures from this address in all
        const http_response a = post(server, "/api/sessions", {{"name", "Ann"}, {"password", "not the password"}});
        const http_response b = post(server, "/api/sessions", {{"name", "Nobody"}, {"password", "not the password"}});
        CHECK(a.status == 401);
        CHECK(b.status == 401);
        existing = a.body;
        missing = b.body;
    }
    CHECK(existing == missing);
    CHECK(json::parse(existing)["code"] == "wrong_credentials");
    for (const char* name : {"Ann", "Nobody"}) {
        const http_response limited = post(server, "/api/sessions", {{"name", name}, {"password", password}});
        CHECK(limited.status == 429);
        CHECK(json::parse(limited.body)["code"] == "rate_limited");
        CHECK(std::stoi(limited.header("Retry-After")) > 0);
    }
}

TEST_CASE("accounts: the password is in no log line and no column but the hash")
{
    const std::string db = scratch_file("secret.db").string();
    const std::string secret = "a very particular passphrase 42";
    {
        server_process server{{"--db", db}};
        const http_response made = post(server, "/api/accounts", {{"name", "Ann"}, {"password", secret}});
        REQUIRE(made.status == 201);
        CHECK(post(server, "/api/sessions", {{"name", "Ann"}, {"password", secret}}).status == 200);
        CHECK(post(server, "/api/sessions", {{"name", "Ann"}, {"password", secret + "!"}}).status == 401);
        const std::string session = cookie_of(made).substr(std::string{"quarto_session="}.size());
        CHECK(server.log().find(secret) == std::string::npos);
        CHECK(server.log().find(session) == std::string::npos);
        CHECK(file_bytes(db).find(secret) == std::string::npos);
        CHECK(file_bytes(db).find(session) == std::string::npos);
        server.stop();
        CHECK(server.log().find(secret) == std::string::npos);
    }
    CHECK(file_bytes(db).find(secret) == std::string::npos);
    CHECK(file_bytes(db).find("$argon2id$v=19$m=19456,t=2,p=1$") != std::string::npos);
}

TEST_CASE("accounts: rated rooms are for accounts, under rated rules")
{
    server_process server;
    const std::string cookie = sign_up(server, "Ann");
    json welcome;
    auto ann = signed_in(server, cookie, welcome);
    const auto refused = [](ws_client& ws, const json& create) {
        json m = create;
        m["type"] = "create_room";
        ws.send(m);
        return must(ws.wait_for([](const json& r) { return r.value("type", "") == "error" || r.value("type", "") == "room_created"; }),
                    "answer");
    };
    CHECK(refused(*ann, {{"rated", true}, {"clock", {{"move_ms", nullptr}}}})["code"] == "not_allowed");
    CHECK(refused(*ann, {{"rated", true}, {"rules", {{"attributes", {"color", "height"}}}}})["code"] == "not_allowed");
    CHECK(refused(*ann, {{"rated", true}, {"opponent", {{"bot", 1}}}})["code"] == "not_allowed");
    player bob = connect_player(server, "Bob");
    CHECK(refused(*bob.ws, {{"rated", true}})["code"] == "not_allowed");

    const json room = create_room(*ann, {{"rated", true}});
    const json lobby = json::parse(http_get(server.port(), "/api/rooms").body);
    REQUIRE(lobby["rooms"].size() == 1);
    CHECK(lobby["rooms"][0]["rated"] == true);
    CHECK(lobby["rooms"][0]["player_ratings"] == json::array({{{"rating", 1500}, {"provisional", true}}}));
    bob->send({{"type", "join"}, {"room", room}, {"as", "player"}});
    CHECK(must(bob->wait_for([](const json& m) { return m.contains("type"); }), "answer")["code"] == "not_allowed");
    CHECK(join(*bob.ws, room, "spectator")["rated"] == true);
}

namespace {

void deletion(const std::vector<std::string>& args)
{
    server_process server{args};
    duel d = start_duel(server, {{"clock", {{"move_ms", nullptr}}}});
    d.act(0, "resign");
    d.expect_all("game_over");
    const http_response made = post(server, "/api/accounts", {{"name", "Ann"}, {"password", password}, {"token", d.creator.token}});
    REQUIRE(made.status == 201);
    const std::string cookie = cookie_of(made);
    const http_response exported = send(server, "GET", "/api/me/export", cookie);
    REQUIRE(exported.status == 200);
    CHECK(json::parse(exported.body)["name"] == "Ann");
    CHECK(exported.body.find("$argon2id$") == std::string::npos);

    CHECK(send(server, "DELETE", "/api/me", cookie).status == 204);
    CHECK(http_get(server.port(), "/api/players/Ann").status == 404);
    CHECK(send(server, "GET", "/api/me", cookie).status == 401);
    CHECK(post(server, "/api/sessions", {{"name", "Ann"}, {"password", password}}).status == 401);
    const json bob = json::parse(http_get(server.port(), "/api/games?player=Bob").body);
    REQUIRE(bob["games"].size() == 1);
    CHECK(bob["games"][0]["players"][0]["name"] == "deleted player");
    CHECK(bob["games"][0]["players"][0]["id"] == d.creator.id);
    // The name is free again.
    CHECK(post(server, "/api/accounts", {{"name", "Ann"}, {"password", password}}).status == 201);
}

} // namespace

TEST_CASE("accounts: deleting an account keeps its games under \"deleted player\" (SQLite)") { deletion({}); }

TEST_CASE("accounts: deleting an account keeps its games under \"deleted player\" (PostgreSQL)")
{
    test_postgres::postgres_server postgres;
    deletion({"--db", postgres.fresh_database()});
}

TEST_CASE("accounts: bad requests get clear answers")
{
    server_process server;
    const auto code = [](const http_response& r) { return json::parse(r.body)["code"].get<std::string>(); };
    CHECK(code(post(server, "/api/accounts", {{"name", "Ann"}, {"password", "short"}})) == "bad_password");
    CHECK(code(post(server, "/api/accounts", {{"name", "Ann"}, {"password", std::string(257, 'x')}})) == "bad_password");
    CHECK(code(post(server, "/api/accounts", {{"name", ""}, {"password", password}})) == "bad_request");
    CHECK(code(post(server, "/api/accounts", {{"password", password}})) == "bad_request");
    CHECK(code(post(server, "/api/accounts", {{"name", "Ann"}, {"password", password}, {"token", "nope"}})) == "unknown_token");
    CHECK(http_request(server.port(), "POST", "/api/accounts", "not json").status == 400);
    CHECK(http_request(server.port(), "GET", "/api/accounts", {}).status == 405);
    CHECK(http_request(server.port(), "POST", "/api/sessions", "{}", {{"Origin", "http://evil.example"}}).status == 403);
    CHECK(http_get(server.port(), "/api/me").status == 401);
    CHECK(http_get(server.port(), "/api/players/Nobody").status == 404);
    CHECK(http_get(server.port(), "/api/leaderboard?pool=beginner").status == 400);
    CHECK(http_get(server.port(), "/api/players/Nobody/games?limit=0").status == 400);
}

TEST_CASE("accounts: a rated tournament takes accounts only, seeds its field by rating, and rates its games")
{
    server_process server;
    const std::string ann_cookie = sign_up(server, "Ann"), bob_cookie = sign_up(server, "Bob"), cy_cookie = sign_up(server, "Cy");
    const json first = rated_game(server, ann_cookie, bob_cookie); // Bob now rated above Cy, Ann below
    REQUIRE(first["ratings"][1]["after"].get<int>() > 1500);

    json welcome;
    auto ann = signed_in(server, ann_cookie, welcome);
    auto bob = signed_in(server, bob_cookie, welcome);
    auto cy = signed_in(server, cy_cookie, welcome);
    const auto answer = [](ws_client& ws, const std::string& type) {
        return must(ws.wait_for([&](const json& m) { return m.value("type", "") == type || m.value("type", "") == "error"; }),
                    type);
    };
    player guest = connect_player(server, "Gus");
    guest->send({{"type", "create_tournament"}, {"name", "Cup"}, {"format", "swiss"}, {"rated", true}});
    CHECK(answer(*guest.ws, "tournament_created")["code"] == "not_allowed");
    cy->send({{"type", "create_tournament"}, {"name", "Cup"}, {"format", "swiss"}, {"rated", true}, {"clock", {{"move_ms", nullptr}}}});
    CHECK(answer(*cy, "tournament_created")["code"] == "not_allowed");

    cy->send({{"type", "create_tournament"}, {"name", "Cup"}, {"format", "swiss"}, {"rated", true}});
    const json id = answer(*cy, "tournament_created").at("tournament");
    CHECK(answer(*cy, "tournament")["settings"]["rated"] == true);
    guest->send({{"type", "join_tournament"}, {"tournament", id}});
    CHECK(answer(*guest.ws, "tournament")["code"] == "not_allowed");
    cy->send({{"type", "add_bot"}, {"tournament", id}, {"opponent", {{"bot", 2}}}});
    CHECK(answer(*cy, "tournament")["code"] == "not_allowed");
    for (ws_client* p : {ann.get(), cy.get(), bob.get()}) { // Ann registers first, Bob last
        p->send({{"type", "join_tournament"}, {"tournament", id}});
        const json snap = answer(*p, "tournament");
        REQUIRE_MESSAGE(snap["type"] == "tournament", snap.dump());
        CHECK(snap["players"].back().contains("rating"));
    }
    cy->send({{"type", "start_tournament"}, {"tournament", id}, {"req", "go"}});
    const json started = must(cy->wait_for([](const json& m) { return m.contains("req") && m["req"] == "go"; }), "started");
    REQUIRE_MESSAGE(started["type"] == "tournament", started.dump());
    // Best first: Bob (won the rated game), Cy (new), Ann (lost it).
    std::vector<std::string> order;
    for (const json& p : started["players"]) order.push_back(p["name"].get<std::string>());
    CHECK(order == std::vector<std::string>{"Bob", "Cy", "Ann"});
    CHECK(started["players"][0]["rating"] == first["ratings"][1]["after"]);
    CHECK(started["standings"][0].contains("rating"));
    // Round 1 of a Swiss pairs the top of the field: Bob and Cy play, Ann has the bye.
    const json pairing = must(bob->wait_for([](const json& m) { return m.value("type", "") == "tournament_pairing"; }), "pairing");
    const json room = must(bob->wait_for([&](const json& m) { return m.value("type", "") == "room" && m["room"] == pairing["room"]; }),
                           "the game's room");
    CHECK(room["rated"] == true);
    CHECK(room["players"][0]["rating"].is_number_integer());
}

TEST_CASE("accounts: on a cluster, any node logs anyone in, and a claimed guest's token resumes nobody on any")
{
    test_postgres::postgres_server postgres;
    test_redis::redis_server redis;
    const std::string db = postgres.fresh_database();
    server_process alpha{{"--redis", redis.address(), "--node-id", "alpha", "--db", db}};
    server_process beta{{"--redis", redis.address(), "--node-id", "beta", "--db", db}};
    player ann = connect_player(alpha, "Ann");
    const http_response made =
        post(alpha, "/api/accounts", {{"name", "Ann"}, {"password", password}, {"token", ann.token}});
    REQUIRE_MESSAGE(made.status == 201, made.body);

    json welcome;
    auto there = signed_in(beta, cookie_of(made), welcome);
    CHECK(welcome["account"] == true);
    CHECK(welcome["player"] == ann.id);
    const http_response login = post(beta, "/api/sessions", {{"name", "Ann"}, {"password", password}});
    CHECK(login.status == 200);
    CHECK(send(alpha, "GET", "/api/me", cookie_of(login)).status == 200);

    // The old token, on the node that did not see the account made, resumes nobody.
    ws_client old{beta.port()};
    old.send({{"type", "hello"}, {"token", ann.token}});
    CHECK(must(old.wait_for([](const json& m) { return m.contains("type"); }), "answer")["code"] == "unknown_token");
}

TEST_CASE("accounts: a rated game resigned before any placement counts for no one")
{
    server_process server;
    const std::string ann_cookie = sign_up(server, "Ann"), bob_cookie = sign_up(server, "Bob");
    json welcome;
    auto ann = signed_in(server, ann_cookie, welcome);
    auto bob = signed_in(server, bob_cookie, welcome);
    const json room = create_room(*ann, {{"rated", true}});
    join(*bob, room, "player");
    must(ann->wait_for([](const json& m) { return m.value("type", "") == "game_started"; }), "game_started");
    ann->send(action("resign", room));
    const json over = must(ann->wait_for([](const json& m) { return m.value("type", "") == "game_over"; }), "game_over");
    CHECK_FALSE(over.contains("ratings"));
    CHECK(profile(server, "Ann")["ratings"]["standard"]["games"] == 0);
    const json games = json::parse(http_get(server.port(), "/api/players/Ann/games").body)["games"];
    REQUIRE(games.size() == 1);
    CHECK(games[0]["rated"] == false);
}
