// Tournaments against the real server: a whole round robin over WebSockets to its final
// standings, a restart in the middle, the director's controls and their refusals, byes, two
// games per pairing, a player who never shows up, and the pause between rounds.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <unistd.h>

#include <sqlite3.h>

#include "helpers.hpp"
#include "shards/shard_of.hpp"

using namespace quarto_test;

namespace {

bool is(const json& m, const std::string& type) { return m.is_object() && m.value("type", "") == type; }

json expect(ws_client& ws, const std::string& type, steady::time_point deadline = in(default_wait))
{
    json m = must(ws.wait_for([&](const json& x) { return is(x, type) || is(x, "error"); }, deadline), type);
    REQUIRE_MESSAGE(m["type"] == type, "awaited " << type << ", got " << m.dump());
    return m;
}

json expect_error(ws_client& ws, const std::string& code)
{
    json m = must(ws.wait_type("error"), "error " + code);
    CHECK_MESSAGE(m["code"] == code, m.dump());
    return m;
}

// The next snapshot of this tournament that satisfies `pred`.
json snapshot_where(ws_client& ws, const json& id, const std::function<bool(const json&)>& pred,
                    steady::time_point deadline = in(default_wait))
{
    return must(ws.wait_for([&](const json& m) { return is(m, "tournament") && m["tournament"] == id && pred(m); },
                            deadline),
                "a tournament snapshot");
}

struct tournament_fixture {
    const server_process& server;
    player director;
    std::vector<player> players;
    json id;

    tournament_fixture(const server_process& s, json options, int player_count)
        : server{s}, director{connect_player(s, "Dee")}
    {
        options["type"] = "create_tournament";
        options["req"] = "create";
        director->send(options);
        const json created = expect(*director.ws, "tournament_created");
        CHECK(created["req"] == "create");
        id = created["tournament"];
        const json first = expect(*director.ws, "tournament");
        CHECK(first["status"] == "registering");
        CHECK(first["director"] == director.id);
        for (int i = 0; i < player_count; ++i) {
            players.push_back(connect_player(s, std::string(1, static_cast<char>('A' + i)) + "nn"));
            players.back()->send({{"type", "join_tournament"}, {"tournament", id}, {"req", i}});
            const json snap = expect(*players.back().ws, "tournament");
            CHECK(snap["req"] == i);
            CHECK(snap["players"].size() == static_cast<std::size_t>(i + 1));
        }
    }

    int index_of(const json& player_id) const
    {
        for (std::size_t i = 0; i < players.size(); ++i)
            if (players[i].id == player_id) return static_cast<int>(i);
        FAIL("unknown player " << player_id);
        return -1;
    }

    json start()
    {
        director->send({{"type", "start_tournament"}, {"tournament", id}, {"req", "go"}});
        // The director has other snapshots queued (one per registration): skip to the reply.
        json snap = must(director->wait_for([](const json& m) { return m.contains("req") && m["req"] == "go"; }),
                         "the reply to start_tournament");
        REQUIRE_MESSAGE(snap["type"] == "tournament", snap.dump());
        CHECK(snap["status"] == "running");
        return snap;
    }
};

// A pairing as a player sees it: the tournament_pairing event, then the room's snapshot.
struct seat_in_game {
    json room;
    int seat = 0;
    bool starts = false;
    json opponent;
};

seat_in_game await_pairing(player& p, const json& tournament, steady::time_point deadline = in(default_wait))
{
    const json pairing = must(p->wait_for([&](const json& m) { return is(m, "tournament_pairing"); }, deadline),
                              p.name + "'s tournament_pairing");
    CHECK(pairing["tournament"] == tournament);
    const json snapshot = must(p->wait_for([&](const json& m) { return is(m, "room") && m["room"] == pairing["room"]; }),
                               p.name + "'s room snapshot");
    CHECK(snapshot["status"] == "playing");
    CHECK(snapshot["tournament"] == tournament);
    const int seat = snapshot["you"]["seat"].get<int>();
    CHECK(snapshot["game"]["first"] == (pairing["you_start"].get<bool>() ? seat : 1 - seat));
    return {pairing["room"], seat, pairing["you_start"].get<bool>(), pairing["opponent"]};
}

// Plays the board of drawn_board() to a draw: 16 gives and placements, then both pass. Each
// wait names the event it needs (both players see every event, so a bare type would match an
// older one still queued).
void play_draw(player& starter, player& other, const json& room)
{
    const auto cells = drawn_board();
    const auto event = [&](player& p, const std::string& type, const std::string& field, int value) {
        must(p->wait_for([&](const json& m) { return is(m, type) && m["room"] == room && m[field] == value; }),
             p.name + "'s " + type);
    };
    player* giver = &starter;
    player* placer = &other;
    for (int square = 0; square < 16; ++square) {
        const int piece = cells[static_cast<std::size_t>(square)];
        (*giver)->send(action("give", room, {{"piece", piece}}));
        event(*placer, "given", "piece", piece);
        (*placer)->send(action("place", room, {{"square", square}}));
        event(*giver, "placed", "square", square);
        std::swap(giver, placer);
    }
    // The last placer is now `giver` (swapped): they pass, then the other passes its claim.
    (*giver)->send(action("pass", room));
    must((*placer)->wait_for([&](const json& m) { return is(m, "passed") && m["room"] == room; }), "passed");
    (*placer)->send(action("pass", room));
}

json game_over_in(player& p, const json& room, steady::time_point deadline = in(default_wait))
{
    return must(p->wait_for([&](const json& m) { return is(m, "game_over") && m["room"] == room; }, deadline),
                p.name + "'s game_over");
}

// Plays one round: the pairing of players 0 and 1 is a draw, otherwise the lower-numbered
// player wins (the other resigns).
void play_round(tournament_fixture& t, int round_number, const json& round)
{
    std::map<int, seat_in_game> seats;
    for (const json& pairing : round["pairings"]) {
        if (pairing["players"][1].is_null()) continue;
        for (int k = 0; k < 2; ++k) {
            const int i = t.index_of(pairing["players"][k]);
            seats[i] = await_pairing(t.players[static_cast<std::size_t>(i)], t.id);
            CHECK(seats[i].room == pairing["room"]);
        }
    }
    for (const json& pairing : round["pairings"]) {
        if (pairing["players"][1].is_null()) continue;
        const int a = t.index_of(pairing["players"][0]);
        const int b = t.index_of(pairing["players"][1]);
        INFO("round " << round_number << ": " << a << " vs " << b);
        auto& pa = t.players[static_cast<std::size_t>(a)];
        auto& pb = t.players[static_cast<std::size_t>(b)];
        const json room = seats[a].room;
        if (std::min(a, b) == 0 && std::max(a, b) == 1) {
            if (seats[a].starts) play_draw(pa, pb, room);
            else play_draw(pb, pa, room);
            const json over = game_over_in(pa, room);
            CHECK(over["result"] == "draw");
        } else {
            auto& loser = a > b ? pa : pb;
            loser->send(action("resign", room));
            const json over = game_over_in(pa, room);
            CHECK(over["reason"] == "resign");
            CHECK(over["winner"] == seats[std::min(a, b)].seat);
        }
        game_over_in(pb, room);
    }
}

json points_of(const json& standings, const json& player_id)
{
    for (const json& s : standings)
        if (s["player"] == player_id) return s;
    FAIL("no standing for " << player_id);
    return nullptr;
}

void check_final_standings(tournament_fixture& t, const json& final_snapshot)
{
    // 0 and 1 drew and beat everyone else; 2 beat 3. Sonneborn-Berger cannot split 0 and 1
    // (each: ½ x 2.5 for the draw + 1 x 1 for beating 2), so they share first place.
    const json& table = final_snapshot["standings"];
    REQUIRE(table.size() == 4);
    const json s0 = points_of(table, t.players[0].id), s1 = points_of(table, t.players[1].id);
    const json s2 = points_of(table, t.players[2].id), s3 = points_of(table, t.players[3].id);
    CHECK(s0["points"] == 2.5);
    CHECK(s1["points"] == 2.5);
    CHECK(s2["points"] == 1);
    CHECK(s3["points"] == 0);
    CHECK(s0["tiebreaks"]["sonneborn_berger"] == 2.25);
    CHECK(s1["tiebreaks"]["sonneborn_berger"] == 2.25);
    CHECK(s2["tiebreaks"]["sonneborn_berger"] == 0);
    CHECK(s0["rank"] == 1);
    CHECK(s1["rank"] == 1);
    CHECK(s2["rank"] == 3);
    CHECK(s3["rank"] == 4);
    CHECK(s0["name"] == "Ann");
    // Every pair met exactly once.
    std::set<std::pair<int, int>> met;
    for (const json& round : final_snapshot["rounds"])
        for (const json& p : round["pairings"]) {
            const int a = t.index_of(p["players"][0]), b = t.index_of(p["players"][1]);
            CHECK(met.insert({std::min(a, b), std::max(a, b)}).second);
            CHECK(p["score"].is_array());
            CHECK(p["results"].size() == 1);
        }
    CHECK(met.size() == 6);
}

// The bytes of an archive file and of its write-ahead log.
std::string file_bytes(const std::filesystem::path& db)
{
    std::string all;
    for (const auto& p : {db, std::filesystem::path{db.string() + "-wal"}}) {
        std::ifstream in{p, std::ios::binary};
        all.append(std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{});
    }
    return all;
}


// An archive file made from SQL text (a fixture of an older schema).
void write_db(const std::filesystem::path& db, const std::string& sql_file)
{
    std::ifstream in{sql_file};
    REQUIRE_MESSAGE(in, "cannot read " << sql_file);
    exec_sql(db, std::string{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}});
}

} // namespace

TEST_CASE("tournament: a 4-player round robin is played over WebSockets to its final standings")
{
    server_process server{{"--db", scratch_file("round-robin.db").string()}};
    tournament_fixture t{server,
                         {{"name", "Club night"}, {"format", "round_robin"}, {"clock", {{"move_ms", 30000}}},
                          {"round_pause_seconds", 0}},
                         4};

    // Everyone sees the list.
    t.director->send({{"type", "list_tournaments"}, {"req", 5}});
    const json list = expect(*t.director.ws, "tournaments");
    CHECK(list["req"] == 5);
    REQUIRE(list["tournaments"].size() == 1);
    CHECK(list["tournaments"][0] == json{{"id", t.id}, {"name", "Club night"}, {"format", "round_robin"},
                                         {"status", "registering"}, {"players", 4}});

    json snap = t.start();
    CHECK(snap["settings"]["rounds"] == 3);
    CHECK(snap["settings"]["clock"]["move_ms"] == 30000);
    for (int round = 1; round <= 3; ++round) {
        if (round > 1) // round 1 is in the reply to start_tournament
            snap = snapshot_where(*t.director.ws, t.id, [&](const json& m) {
                return m["rounds"].size() == static_cast<std::size_t>(round);
            });
        const json& this_round = snap["rounds"].back();
        CHECK(this_round["round"] == round);
        CHECK(this_round["pairings"].size() == 2);
        if (round == 1) {
            // The lobby lists the round's boards as the tournament's games.
            const json rooms = json::parse(http_get(server.port(), "/api/rooms").body)["rooms"];
            for (const json& pairing : this_round["pairings"]) {
                const auto listed = std::find_if(rooms.begin(), rooms.end(), [&](const json& r) { return r["id"] == pairing["room"]; });
                REQUIRE_MESSAGE(listed != rooms.end(), rooms.dump());
                CHECK((*listed)["tournament"] == t.id);
            }
        }
        play_round(t, round, this_round);
    }
    const json final_snapshot = snapshot_where(*t.director.ws, t.id, [](const json& m) { return m["status"] == "finished"; });
    check_final_standings(t, final_snapshot);

    // The HTTP view is the same document.
    const auto http = http_get(server.port(), "/api/tournaments/" + t.id.get<std::string>());
    CHECK(http.status == 200);
    json over_http = json::parse(http.body);
    CHECK(over_http["standings"] == final_snapshot["standings"]);
    CHECK(over_http["rounds"] == final_snapshot["rounds"]);
    CHECK(http_get(server.port(), "/api/tournaments/tnothere").status == 404);
}

TEST_CASE("tournament: people stored before tokens were hashed (archive schema 2) resume with their tokens")
{
    // fixtures/archive_v2.sql: "Club night", directed by Dee, Ann and Bo registered.
    const auto db = scratch_file("v2.db");
    write_db(db, std::string{QUARTO_ARCHIVE_FIXTURES} + "/archive_v2.sql");
    server_process server{{"--db", db.string()}};
    CHECK(server.log().find("schema version 3") != std::string::npos);

    ws_client dee{server.port()};
    dee.send({{"type", "hello"}, {"token", "9c5a8aefae8e405fd59e11cfa54e67d7"}});
    const json welcome = expect(dee, "welcome");
    CHECK(welcome["player"] == "phum7t4fz");
    CHECK(welcome["name"] == "Dee");
    CHECK(welcome["token"] == "9c5a8aefae8e405fd59e11cfa54e67d7");
    const json snapshot = expect(dee, "tournament");
    CHECK(snapshot["tournament"] == "tbv2v8sgm");
    CHECK(snapshot["director"] == "phum7t4fz");
    CHECK(snapshot["players"].size() == 2);

    ws_client ann{server.port()};
    ann.send({{"type", "hello"}, {"token", "42ea81f90619bf8a7698799db5ceb33c"}});
    CHECK(expect(ann, "welcome")["player"] == "pz7sjakx6");

    // Dee's token hash, as stored, is no token: presenting it resumes nobody.
    ws_client thief{server.port()};
    thief.send({{"type", "hello"}, {"token", "5c82370ec2ee4ad0b551973c513ec429333adf6eaba7cd7b2c17d2ff4c31ed2a"}});
    expect_error(thief, "unknown_token");
}

TEST_CASE("tournament: a restart in the middle loses nothing - the game in progress goes on, or is replayed without the journal")
{
    // With the journal the round's game in progress comes back in its room and the tournament
    // keeps running, also on a server with another number of shards, where the room's id and
    // the tournament's hash apart; without it (--journal off) the tournament comes back
    // paused, and resuming plays that game again in a new room.
    bool journal = true;
    bool other_shard_count = false;
    SUBCASE("with the journal") { journal = true; }
    SUBCASE("with the journal, restarted with another --threads") { other_shard_count = true; }
    SUBCASE("--journal off") { journal = false; }
    const std::vector<std::string> journal_flag{"--journal", journal ? "on" : "off"};
    constexpr unsigned first_shards = 2;
    const auto db = scratch_file("restart.db");
    json id;
    json before_restart;
    std::vector<std::string> tokens;
    std::string director_token;
    json round2_unfinished_room;
    {
        // The test's clients are not reading when the server stops: a short grace, not the
        // default 5 s wait for their close handshakes.
        std::vector<std::string> args{"--db", db.string(), "--shutdown-grace", "0.5", "--threads", std::to_string(first_shards)};
        args.insert(args.end(), journal_flag.begin(), journal_flag.end());
        server_process server{args};
        tournament_fixture t{server, {{"name", "Restart cup"}, {"format", "round_robin"}, {"round_pause_seconds", 0}}, 4};
        id = t.id;
        director_token = t.director.token;
        for (const auto& p : t.players) tokens.push_back(p.token);
        json snap = t.start();
        REQUIRE(snap["rounds"].size() == 1);
        play_round(t, 1, snap["rounds"][0]);
        snap = snapshot_where(*t.director.ws, id, [](const json& m) { return m["rounds"].size() == 2; });
        // Round 2: finish one board, leave the other in progress.
        const json& board = snap["rounds"][1]["pairings"][0];
        const int a = t.index_of(board["players"][0]), b = t.index_of(board["players"][1]);
        for (const json& pairing : snap["rounds"][1]["pairings"])
            for (const json& who : pairing["players"]) await_pairing(t.players[static_cast<std::size_t>(t.index_of(who))], id);
        t.players[static_cast<std::size_t>(std::max(a, b))]->send(action("resign", board["room"]));
        before_restart = snapshot_where(*t.director.ws, id, [](const json& m) {
            return m["rounds"][1]["pairings"][0]["score"].is_array();
        });
        round2_unfinished_room = before_restart["rounds"][1]["pairings"][1]["room"];
        CHECK(before_restart["rounds"][1]["pairings"][1]["score"].is_null());
        const auto status = server.stop();
        REQUIRE(status.has_value());
        CHECK(WIFEXITED(*status));
        CHECK(WEXITSTATUS(*status) == 0);
    }
    // What lets the players resume is in the file, but only as hashes: no token is.
    const std::string stored = file_bytes(db);
    CHECK(stored.find(director_token) == std::string::npos);
    for (const auto& token : tokens) CHECK(stored.find(token) == std::string::npos);

    std::vector<std::string> args{"--db", db.string()};
    args.insert(args.end(), journal_flag.begin(), journal_flag.end());
    unsigned shards = first_shards;
    if (other_shard_count) {
        // The first count from 3 up under which the unfinished game's room hashes to another
        // shard than its tournament.
        const std::string room = round2_unfinished_room.get<std::string>(), tournament = id.get<std::string>();
        for (++shards; quarto::server::shards::shard_of(room, shards) == quarto::server::shards::shard_of(tournament, shards);)
            ++shards;
        args.insert(args.end(), {"--threads", std::to_string(shards)});
    }
    INFO("restarted with " << (other_shard_count ? "--threads " + std::to_string(shards) : std::string{"the default --threads"}));
    server_process server{args};
    // The director comes back with the same token: same identity, the tournament as it was
    // (paused when its game in progress is lost).
    auto director = std::make_unique<ws_client>(server.port());
    director->send({{"type", "hello"}, {"token", director_token}});
    const json welcome = expect(*director, "welcome");
    CHECK(welcome["player"] == before_restart["director"]);
    const json restored = expect(*director, "tournament");
    CHECK_MESSAGE(restored["status"] == (journal ? "running" : "paused"), "journal " << journal << "\n" << server.log());
    CHECK(restored["players"] == before_restart["players"]);
    CHECK(restored["rounds"][0] == before_restart["rounds"][0]);
    CHECK(restored["rounds"][1]["pairings"][0] == before_restart["rounds"][1]["pairings"][0]);
    CHECK(restored["standings"] == before_restart["standings"]);

    CHECK(restored["rounds"][1]["pairings"][1]["score"].is_null());

    // The players come back too.
    std::vector<player> players;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        player p;
        p.ws = std::make_unique<ws_client>(server.port());
        p->send({{"type", "hello"}, {"token", tokens[i]}});
        const json w = expect(*p.ws, "welcome");
        p.id = w["player"];
        p.token = tokens[i];
        p.name = w["name"].get<std::string>();
        expect(*p.ws, "tournament");
        players.push_back(std::move(p));
    }
    const auto index_of = [&](const json& pid) {
        for (std::size_t i = 0; i < players.size(); ++i)
            if (players[i].id == pid) return static_cast<int>(i);
        FAIL("unknown player");
        return -1;
    };
    const auto finish_boards = [&](const json& round, std::size_t from) {
        for (std::size_t k = from; k < round["pairings"].size(); ++k) {
            const json& pairing = round["pairings"][k];
            const int a = index_of(pairing["players"][0]), b = index_of(pairing["players"][1]);
            const seat_in_game sa = await_pairing(players[static_cast<std::size_t>(a)], id);
            await_pairing(players[static_cast<std::size_t>(b)], id);
            players[static_cast<std::size_t>(std::max(a, b))]->send(action("resign", sa.room));
            game_over_in(players[static_cast<std::size_t>(a)], sa.room);
        }
    };
    if (journal) {
        // The game in progress is there, in its room, for its two players: the same game.
        CHECK(restored["rounds"][1]["pairings"][1]["room"] == round2_unfinished_room);
        const json& unfinished = restored["rounds"][1]["pairings"][1];
        const int a = index_of(unfinished["players"][0]), b = index_of(unfinished["players"][1]);
        for (const int i : {a, b}) {
            // It came after the welcome, before or after the tournament's snapshot.
            const auto is_it = [&](const json& m) { return is(m, "room") && m["room"] == round2_unfinished_room; };
            const auto& got = players[static_cast<std::size_t>(i)]->history();
            const auto earlier = std::find_if(got.begin(), got.end(), is_it);
            const json room = earlier != got.end() ? *earlier
                                                   : must(players[static_cast<std::size_t>(i)]->wait_for(is_it),
                                                          "the restored room's snapshot");
            CHECK(room["status"] == "playing");
            CHECK(room["tournament"] == id);
        }
        players[static_cast<std::size_t>(std::max(a, b))]->send(action("resign", round2_unfinished_room));
        game_over_in(players[static_cast<std::size_t>(a)], round2_unfinished_room);
    } else {
        director->send({{"type", "resume_tournament"}, {"tournament", id}, {"req", "r"}});
        // Past the restored state's own announcement, which may come after the hello's snapshot.
        const json resumed = must(director->wait_for([](const json& m) { return m.contains("req") && m["req"] == "r"; }),
                                  "the reply to resume_tournament");
        REQUIRE(resumed["type"] == "tournament");
        CHECK(resumed["status"] == "running");
        const json replayed_room = resumed["rounds"][1]["pairings"][1]["room"];
        CHECK(replayed_room != round2_unfinished_room);
        finish_boards(resumed["rounds"][1], 1);
    }
    const json round3 = snapshot_where(*director, id, [](const json& m) { return m["rounds"].size() == 3; });
    finish_boards(round3["rounds"][2], 0);
    const json final_snapshot = snapshot_where(*director, id, [](const json& m) { return m["status"] == "finished"; });
    CHECK(final_snapshot["rounds"][0] == before_restart["rounds"][0]);
    CHECK(final_snapshot["standings"].size() == 4);
    // Every game was won by the lower-numbered player, but for a draw of 0 and 1 if they met
    // in round 1 (play_round).
    bool drew = false;
    for (const json& p : before_restart["rounds"][0]["pairings"])
        drew = drew || (p["players"] == json{players[0].id, players[1].id}) || (p["players"] == json{players[1].id, players[0].id});
    CHECK(points_of(final_snapshot["standings"], players[3].id)["points"] == 0);
    CHECK(points_of(final_snapshot["standings"], players[0].id)["points"] == (drew ? 2.5 : 3.0));
    CHECK(points_of(final_snapshot["standings"], players[2].id)["points"] == 1);
}

TEST_CASE("tournament: a store that fails is logged by the tournament's id, without its people's token hashes")
{
    const auto db = scratch_file("refused.db");
    server_process server{{"--db", db.string()}};
    tournament_fixture t{server, {{"name", "Logged cup"}, {"format", "round_robin"}}, 1};
    // From now on the file refuses every write of a tournament.
    exec_sql(db, "CREATE TRIGGER refuse_tournaments BEFORE UPDATE ON tournaments "
                 "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    t.players.push_back(connect_player(server, "Bo"));
    t.players.back()->send({{"type", "join_tournament"}, {"tournament", t.id}});
    expect(*t.players.back().ws, "tournament");
    const std::string line = "tournament " + t.id.get<std::string>() + " NOT stored";
    const auto deadline = in(default_wait);
    while (server.log().find(line) == std::string::npos && steady::now() < deadline)
        std::this_thread::sleep_for(milliseconds{10}); // the archive's thread writes the log line
    const std::string log = server.log();
    CHECK_MESSAGE(log.find(line) != std::string::npos, log);
    CHECK(log.find("token_hash") == std::string::npos);
}

TEST_CASE("tournament: damaged stored tournaments are skipped, and the server serves the others")
{
    const auto db = scratch_file("damaged.db");
    std::vector<std::string> ids;
    {
        server_process server{{"--db", db.string(), "--shutdown-grace", "0.5"}};
        player dee = connect_player(server, "Dee");
        for (const std::string name : {"Intact", "Person damaged", "Result damaged", "Token damaged"}) {
            dee->send({{"type", "create_tournament"}, {"name", name}, {"format", "round_robin"}});
            ids.push_back(expect(*dee.ws, "tournament_created")["tournament"]);
            expect(*dee.ws, "tournament");
        }
        REQUIRE(server.stop().has_value());
    }
    // A person whose id is a number; a result whose winner is seat 7; a token hash that is null.
    exec_sql(db, "UPDATE tournaments SET state = json_set(state, '$.people[0].id', 42) WHERE id = '" + ids[1] + "'");
    exec_sql(db, "UPDATE tournaments SET state = json_set(state, '$.tournament.status', 'running', "
                 "'$.tournament.players', json('[{\"id\":\"pa\",\"name\":\"A\",\"active\":true},"
                 "{\"id\":\"pb\",\"name\":\"B\",\"active\":true}]'), "
                 "'$.tournament.rounds', json('[{\"round\":1,\"pairings\":[{\"first\":0,\"second\":1,"
                 "\"games\":[{\"room\":\"r\",\"game\":\"g\",\"first\":0,\"finished\":true,"
                 "\"winner\":7,\"reason\":\"quarto\"}]}]}]')) WHERE id = '" + ids[2] + "'");
    exec_sql(db, "UPDATE tournaments SET state = json_set(state, '$.people[0].token_hash', json('null')) WHERE id = '" +
                     ids[3] + "'");

    server_process server{{"--db", db.string()}};
    const std::string log = server.log();
    for (std::size_t i = 1; i < ids.size(); ++i)
        CHECK_MESSAGE(log.find("stored tournament " + ids[i] + " could not be read (damaged); skipped") != std::string::npos,
                      log);
    CHECK(log.find("1 tournaments restored, 3 unreadable (skipped)") != std::string::npos);
    player p = connect_player(server, "Ann");
    p->send({{"type", "list_tournaments"}, {"req", "list"}});
    const json list = expect(*p.ws, "tournaments");
    REQUIRE(list["tournaments"].size() == 1);
    CHECK(list["tournaments"][0]["id"] == ids[0]);
}

TEST_CASE("tournament: a registration is announced only once stored - kill -9 right after loses none")
{
    const auto db = scratch_file("announced.db");
    json id;
    player late;
    {
        server_process server{{"--db", db.string()}};
        player dee = connect_player(server, "Dee");
        dee->send({{"type", "create_tournament"}, {"name", "Quick cup"}, {"format", "swiss"}});
        id = expect(*dee.ws, "tournament_created")["tournament"];
        expect(*dee.ws, "tournament");

        // Another connection holds the file's write lock: the archive cannot store, so the
        // registration must not be announced yet.
        sqlite3* holder = nullptr;
        REQUIRE(sqlite3_open(db.c_str(), &holder) == SQLITE_OK);
        REQUIRE(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
        late = connect_player(server, "Late");
        late->send({{"type", "join_tournament"}, {"tournament", id}, {"req", "join"}});
        late->pump(milliseconds{500});
        CHECK_MESSAGE(late->pending().empty(), "announced before it was stored: " << late->pending().front().dump());
        REQUIRE(sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(holder);
        const json snap = expect(*late.ws, "tournament");
        CHECK(snap["req"] == "join");
        CHECK(snap["players"].size() == 1);
        ::kill(server.pid(), SIGKILL); // at once: what was announced must be on disk
        REQUIRE(server.wait_exit().has_value());
    }
    server_process server{{"--db", db.string()}};
    player ann = connect_player(server, "Ann");
    ann->send({{"type", "watch_tournament"}, {"tournament", id}});
    const json restored = expect(*ann.ws, "tournament");
    REQUIRE(restored["players"].size() == 1);
    CHECK(restored["players"][0]["id"] == late.id);
}

TEST_CASE("tournament: a start time more than a year ahead is refused, a year is not")
{
    server_process server;
    player dee = connect_player(server, "Dee");
    const auto now_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    const std::int64_t day = 24LL * 3600 * 1000;
    for (const std::int64_t start : {std::int64_t{253402300799000} /* 9999-12-31 */, std::int64_t{now_ms + 400 * day}}) {
        CAPTURE(start);
        dee->send({{"type", "create_tournament"}, {"name", "Far off"}, {"format", "swiss"}, {"start_at_ms", start},
                   {"req", "far"}});
        const json e = expect_error(*dee.ws, "bad_message");
        CHECK(e["req"] == "far");
        CHECK(e["message"].get<std::string>().find("start_at_ms") != std::string::npos);
    }
    dee->send({{"type", "create_tournament"}, {"name", "Next spring"}, {"format", "swiss"},
               {"start_at_ms", now_ms + 300 * day}, {"req", "near"}});
    const json created = expect(*dee.ws, "tournament_created");
    CHECK(created["req"] == "near");
    const json snap = expect(*dee.ws, "tournament");
    CHECK(snap["status"] == "registering");
    CHECK(snap["settings"]["start_at_ms"] == now_ms + 300 * day);
}

TEST_CASE("tournament: the director's controls and every refusal")
{
    server_process server{{"--db", scratch_file("controls.db").string()}};
    tournament_fixture t{
        server, {{"name", "Small"}, {"format", "swiss"}, {"rounds", 2}, {"max_players", 3}, {"round_pause_seconds", 0}}, 1};
    auto& ann = t.players[0];

    t.director->send({{"type", "start_tournament"}, {"tournament", t.id}, {"req", 1}});
    CHECK(expect_error(*t.director.ws, "not_enough_players")["req"] == 1);
    ann->send({{"type", "start_tournament"}, {"tournament", t.id}});
    expect_error(*ann.ws, "not_director");
    ann->send({{"type", "join_tournament"}, {"tournament", "tnosuch"}, {"req", 2}});
    CHECK(expect_error(*ann.ws, "no_such_tournament")["req"] == 2);
    t.director->send({{"type", "pause_tournament"}, {"tournament", t.id}});
    expect_error(*t.director.ws, "wrong_status");
    t.director->send({{"type", "remove_player"}, {"tournament", t.id}, {"player", "pnobody"}});
    expect_error(*t.director.ws, "not_registered");

    player bo = connect_player(server, "Bo");
    bo->send({{"type", "withdraw_tournament"}, {"tournament", t.id}});
    expect_error(*bo.ws, "not_registered");
    bo->send({{"type", "join_tournament"}, {"tournament", t.id}});
    expect(*bo.ws, "tournament");
    bo->send({{"type", "withdraw_tournament"}, {"tournament", t.id}, {"req", "w"}});
    const json after_withdraw = expect(*bo.ws, "tournament");
    CHECK(after_withdraw["req"] == "w");
    CHECK(after_withdraw["players"].size() == 1);
    bo->send({{"type", "join_tournament"}, {"tournament", t.id}});
    expect(*bo.ws, "tournament");
    player cy = connect_player(server, "Cy");
    cy->send({{"type", "join_tournament"}, {"tournament", t.id}});
    expect(*cy.ws, "tournament");
    player di = connect_player(server, "Di");
    di->send({{"type", "join_tournament"}, {"tournament", t.id}});
    expect_error(*di.ws, "tournament_full");

    // Three players in a Swiss: one bye per round, never twice to the same player.
    json snap = t.start();
    REQUIRE(snap["rounds"].size() == 1);
    const json round1 = snap["rounds"][0]["pairings"];
    REQUIRE(round1.size() == 2);
    CHECK(round1[1]["players"][1].is_null()); // the bye is listed last
    CHECK(round1[1]["score"] == json{1, 0});
    const json bye1 = round1[1]["players"][0];
    std::map<std::string, player*> by_id{{ann.id.get<std::string>(), &ann}, {bo.id.get<std::string>(), &bo},
                                         {cy.id.get<std::string>(), &cy}};
    player& first = *by_id.at(round1[0]["players"][0].get<std::string>());
    player& second = *by_id.at(round1[0]["players"][1].get<std::string>());
    const seat_in_game g = await_pairing(first, t.id);
    await_pairing(second, t.id);

    t.director->send({{"type", "start_tournament"}, {"tournament", t.id}});
    expect_error(*t.director.ws, "wrong_status");
    di->send({{"type", "join_tournament"}, {"tournament", t.id}});
    expect_error(*di.ws, "registration_closed");
    second->send({{"type", "withdraw_tournament"}, {"tournament", t.id}});
    expect_error(*second.ws, "registration_closed");
    t.director->send({{"type", "resume_tournament"}, {"tournament", t.id}});
    expect_error(*t.director.ws, "wrong_status");

    // The director pauses; the round's game is played out, the next round waits.
    t.director->send({{"type", "pause_tournament"}, {"tournament", t.id}, {"req", "p"}});
    CHECK(must(t.director->wait_for([](const json& m) { return m.value("req", "") == "p"; }), "paused")["status"] ==
          "paused");
    second->send(action("rematch", g.room));
    expect_error(*second.ws, "wrong_phase");
    second->send(action("resign", g.room));
    snap = snapshot_where(*t.director.ws, t.id, [](const json& m) { return m["rounds"][0]["pairings"][0]["score"].is_array(); });
    CHECK(snap["status"] == "paused");
    CHECK(snap["rounds"].size() == 1);
    CHECK(snap["rounds"][0]["pairings"][0]["results"][0]["winner"] == first.id);
    CHECK(snap["rounds"][0]["pairings"][0]["results"][0]["reason"] == "resign");

    t.director->send({{"type", "resume_tournament"}, {"tournament", t.id}});
    snap = snapshot_where(*t.director.ws, t.id, [](const json& m) { return m["rounds"].size() == 2; });
    const json round2 = snap["rounds"][1]["pairings"];
    REQUIRE(round2.size() == 2);
    CHECK(round2[1]["players"][1].is_null());
    CHECK(round2[1]["players"][0] != bye1); // no second bye for the same player

    // The director removes a player of the game in progress: they forfeit it.
    const json removed = round2[0]["players"][0];
    t.director->send({{"type", "remove_player"}, {"tournament", t.id}, {"player", removed}});
    snap = snapshot_where(*t.director.ws, t.id, [](const json& m) { return m["status"] == "finished"; });
    const json& result = snap["rounds"][1]["pairings"][0]["results"][0];
    CHECK(result["reason"] == "forfeit");
    CHECK(result["winner"] == round2[0]["players"][1]);
    for (const json& p : snap["players"]) CHECK(p["active"] == (p["id"] != removed));
}

TEST_CASE("tournament: two games per pairing, each player starts once - a no-show loses on time")
{
    // Ann's give, when she starts, must reach the server within move_ms of the game's start
    // (the server starts the clock itself): 3 s leaves a loaded machine its margin. Each game
    // then lasts that long, until Bo's clock runs out.
    constexpr int move_ms = 3000;
    server_process server{{"--db", scratch_file("two-games.db").string()}};
    tournament_fixture t{server,
                         {{"name", "Pairs"}, {"format", "round_robin"}, {"games_per_pairing", 2},
                          {"clock", {{"move_ms", move_ms}}}},
                         2};
    auto& ann = t.players[0];
    auto& bo = t.players[1];
    // Ann gives at once when she starts; her give must be in time for the test to mean anything.
    const auto ann_gives_if_first = [&](const seat_in_game& g) {
        if (!g.starts) return;
        ann->send(action("give", g.room, {{"piece", 0}}));
        const json given = must(ann->wait_for([&](const json& m) {
            return m.value("room", json{}) == g.room && (is(m, "given") || is(m, "game_over") || is(m, "error"));
        }), "Ann's given");
        REQUIRE_MESSAGE(is(given, "given"), "Ann's give was not in time (within " << move_ms << " ms): " << given.dump());
    };
    t.start();
    const seat_in_game a1 = await_pairing(ann, t.id);
    ann_gives_if_first(a1);
    const seat_in_game b1 = await_pairing(bo, t.id);
    CHECK(a1.room == b1.room);
    CHECK(a1.starts != b1.starts);
    // Bo never moves, as if he had never come: Ann gives when she starts, and Bo's clock runs out.
    const json over1 = game_over_in(ann, a1.room, in(milliseconds{move_ms} + default_wait));
    CHECK(over1["reason"] == "timeout");
    CHECK(over1["winner"] == a1.seat);

    const seat_in_game a2 = await_pairing(ann, t.id);
    ann_gives_if_first(a2);
    CHECK(a2.room != a1.room);
    CHECK(a2.starts == !a1.starts); // the other player starts game 2
    bo->close();
    const json over2 = game_over_in(ann, a2.room, in(milliseconds{move_ms} + default_wait));
    CHECK(over2["reason"] == "timeout");

    const json final_snapshot = snapshot_where(*t.director.ws, t.id, [](const json& m) { return m["status"] == "finished"; });
    const json& pairing = final_snapshot["rounds"][0]["pairings"][0];
    CHECK(pairing["rooms"].size() == 2);
    CHECK(pairing["results"].size() == 2);
    CHECK(pairing["results"][0]["first"] != pairing["results"][1]["first"]);
    CHECK(points_of(final_snapshot["standings"], ann.id)["points"] == 2);
    CHECK(points_of(final_snapshot["standings"], bo.id)["points"] == 0);
}

TEST_CASE("tournament: the next round waits round_pause_seconds - announced at once, started on time, through kill -9")
{
    const auto db = scratch_file("round-pause.db");
    const std::vector<std::string> args{"--db", db.string()};
    const auto unix_now = [] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    };
    json id;
    std::int64_t starts_at = 0;
    std::string director_token;
    {
        server_process server{args};
        player dee = connect_player(server, "Dee");
        dee->send({{"type", "create_tournament"}, {"name", "Too slow"}, {"format", "swiss"}, {"round_pause_seconds", 601},
                   {"req", "slow"}});
        const json refused = expect_error(*dee.ws, "bad_message");
        CHECK(refused["req"] == "slow");
        CHECK(refused["message"].get<std::string>().find("round_pause_seconds") != std::string::npos);

        tournament_fixture t{server, {{"name", "Pause cup"}, {"format", "swiss"}, {"rounds", 2}, {"round_pause_seconds", 2}}, 2};
        id = t.id;
        director_token = t.director.token;
        CHECK(t.start()["settings"]["round_pause_seconds"] == 2);
        const seat_in_game a = await_pairing(t.players[0], id);
        await_pairing(t.players[1], id);
        t.players[1]->send(action("resign", a.room));
        game_over_in(t.players[0], a.room);

        // Round 2 is announced at once, to each player, with its start time: no room yet.
        const json notice = must(t.players[0]->wait_for([](const json& m) { return is(m, "tournament_round"); }),
                                 "Ann's tournament_round");
        const std::int64_t told_at = unix_now();
        CHECK(notice["tournament"] == id);
        CHECK(notice["round"] == 2);
        CHECK(notice["opponent"] == t.players[1].id);
        starts_at = notice["starts_at_ms"].get<std::int64_t>();
        CHECK(starts_at - told_at <= 2000); // set when the last game ended, before Ann read it
        const json waiting = snapshot_where(*t.director.ws, id, [](const json& m) { return m["rounds"].size() == 2; });
        CHECK(waiting["rounds"][1]["starts_at_ms"] == starts_at);
        CHECK(waiting["rounds"][1]["pairings"][0]["room"].is_null());
        CHECK(must(t.players[1]->wait_for([](const json& m) { return is(m, "tournament_round"); }),
                   "Bo's tournament_round")["starts_at_ms"] == starts_at);

        // The server dies during the pause.
        ::kill(server.pid(), SIGKILL);
        REQUIRE(server.wait_exit().has_value());
    }
    // Back, the round waits for its stored time (or starts at once if the restart took longer).
    server_process server{args};
    CHECK(server.log().find("restored paused") == std::string::npos);
    ws_client director{server.port()};
    director.send({{"type", "hello"}, {"token", director_token}});
    expect(director, "welcome");
    const json restored = expect(director, "tournament");
    CHECK(restored["status"] == "running");
    REQUIRE(restored["rounds"].size() == 2);
    if (!restored["rounds"][1]["starts_at_ms"].is_null()) CHECK(restored["rounds"][1]["starts_at_ms"] == starts_at);
    const auto has_room = [](const json& m) { return m["rounds"][1]["pairings"][0]["room"].is_string(); };
    const json started = has_room(restored) ? restored : snapshot_where(director, id, has_room, in(milliseconds{2000} + default_wait));
    CHECK(started["rounds"][1]["starts_at_ms"].is_null());
    CHECK(unix_now() >= starts_at - 20); // never early (20 ms: the clocks' rounding)
    CHECK(started["status"] == "running");
}
