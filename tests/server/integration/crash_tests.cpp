// Live games through crashes and restarts (the journal, end to end): 20 rooms of timed random
// bots on a real server, killed with SIGKILL at random moments and restarted on the same --db,
// then stopped once with SIGTERM. After each start the bots reconnect with their tokens and
// sync. Checked every time: each room comes back; every event a bot had received of its game
// is in the restored history, byte for byte; the `resumed` event's clock is the one of the last
// event before it (the time the server was down is nobody's); and, at the end, every game went
// to its end as a replica of the rules engine fed the same events says it must. Then the same
// for a tournament's games: its rounds go on through the kills, no game is played again.
#include <csignal>
#include <random>
#include <sys/wait.h>

#include "timed_bots.hpp"

using namespace quarto_test;
using namespace quarto_test::timed_bots;

namespace {

constexpr int room_count = 20;
constexpr int kill_count = 10;

} // namespace

TEST_CASE("crash: 20 rooms of timed bots survive 10 kill -9 and a SIGTERM, losing no room, event or clock")
{
    // Bots think for 0-15 ms: above the 20 messages a second a person's browser is allowed.
    const std::vector<std::string> args{"--db", scratch_file("crash.db").string(), "--rate-limit", "500", "--rate-burst", "1000"};
    std::mt19937 rng{std::random_device{}()};
    totals t;
    std::vector<bot> bots(2 * room_count);

    auto server = std::make_unique<server_process>(args);
    for (int r = 0; r < room_count; ++r) {
        bot& a = bots[static_cast<std::size_t>(2 * r)];
        bot& b = bots[static_cast<std::size_t>(2 * r + 1)];
        a.name = "A" + std::to_string(r);
        b.name = "B" + std::to_string(r);
        b.seat = 1;
        for (bot* x : {&a, &b}) {
            x->ws = std::make_unique<ws_client>(server->port());
            const json w = hello(*x->ws, x->name);
            x->id = w["player"];
            x->token = w["token"];
        }
        a.room = create_room(*a.ws, {{"name", "crash " + std::to_string(r)},
                                     {"clock", {{"move_ms", move_ms}, {"claim_ms", claim_ms}}}});
        b.room = a.room;
        join(*b.ws, b.room);
    }
    run_for(bots, milliseconds{300}, rng, t);

    for (int k = 0; k < kill_count; ++k) {
        run_for(bots, milliseconds{std::uniform_int_distribution<int>{100, 700}(rng)}, rng, t);
        ::kill(server->pid(), SIGKILL);
        const auto status = server->wait_exit();
        REQUIRE(status.has_value());
        CHECK(WIFSIGNALED(*status));
        for (auto& b : bots) read_all(b, t); // what reached the bots before the kill
        server = std::make_unique<server_process>(args);
        CHECK(server->log().find("could not be restored") == std::string::npos);
        reconnect(bots, *server, t);
    }

    // A stop: every connection closes with 1012, and every game event sent is journaled and
    // every one journaled was sent.
    run_for(bots, milliseconds{400}, rng, t);
    ::kill(server->pid(), SIGTERM);
    for (auto& b : bots) {
        REQUIRE(b.ws->wait_closed());
        CHECK(b.ws->close_code() == std::optional<std::uint16_t>{1012});
        read_all(b, t);
    }
    const auto status = server->wait_exit();
    REQUIRE(status.has_value());
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 0);
    std::vector<std::map<std::uint64_t, std::string>> before_stop;
    for (const auto& b : bots) before_stop.push_back(b.events);
    server = std::make_unique<server_process>(args);
    reconnect(bots, *server, t);
    int stop_checked = 0;
    for (std::size_t i = 0; i < bots.size(); ++i) {
        // Every game event journaled before the stop (the restored history up to `resumed`)
        // had reached the bot: nothing was held back when the connection closed.
        const bot& b = bots[i];
        for (const auto& [seq, raw] : b.events) {
            if (seq < b.game_seq || raw.find("\"type\":\"resumed\"") != std::string::npos) continue;
            if (raw.find("\"seat\":") == std::string::npos && raw.find("game_") == std::string::npos) continue;
            if (before_stop[i].rbegin()->first < seq) break; // after the restart
            CHECK_MESSAGE(before_stop[i].contains(seq), b.name << " never got " << raw);
            ++stop_checked;
        }
    }
    CHECK(stop_checked > 0);

    // The games in progress go to their ends; no new ones.
    const auto deadline = in(milliseconds{30'000});
    for (;;) {
        run_for(bots, milliseconds{100}, rng, t, /*rematch=*/false);
        const bool all_over = std::all_of(bots.begin(), bots.end(), [](const bot& b) { return !b.replica || b.replica->finished(); });
        if (all_over || steady::now() >= deadline) break;
    }
    for (const auto& b : bots) CHECK_MESSAGE((b.replica && b.replica->finished()), describe(b) << " did not finish");

    MESSAGE("kills " << kill_count << ", events compared " << t.events_compared << ", clocks compared "
                     << t.clocks_compared << ", claim windows open at a restart " << t.claim_windows_at_restart
                     << ", games finished " << t.games_finished << ", late passes " << t.late_passes);
    CHECK(t.errors == 0);
    CHECK(t.events_compared > 0);
    CHECK(t.clocks_compared > 0);
    CHECK(t.claim_windows_at_restart > 0);
    CHECK(t.games_finished >= room_count);
    server.reset();
}

TEST_CASE("crash: a tournament's rounds go on through kill -9, each game played once, in its own room")
{
    constexpr int players = 6; // 5 rounds of 3 boards, 2 games a board: 30 games, 10 in a row for each player
    const std::vector<std::string> args{"--db", scratch_file("crash-tournament.db").string(), "--rate-limit", "500", "--rate-burst", "1000"};
    std::mt19937 rng{std::random_device{}()};
    totals t;
    tournament_watch w;
    std::vector<bot> bots(players);
    std::string logs; // every server's, for a failure's message

    auto server = std::make_unique<server_process>(args);
    auto director = std::make_unique<ws_client>(server->port());
    const json dee = hello(*director, "Dee");
    const std::string director_token = dee["token"];
    director->send({{"type", "create_tournament"}, {"name", "Crash cup"}, {"format", "round_robin"},
                    {"games_per_pairing", 2}, {"clock", {{"move_ms", move_ms}, {"claim_ms", claim_ms}}},
                    {"round_pause_seconds", 0}});
    const json id = must(director->wait_type("tournament_created"), "tournament_created")["tournament"];
    for (int i = 0; i < players; ++i) {
        bot& b = bots[static_cast<std::size_t>(i)];
        b.name = "P" + std::to_string(i);
        b.ws = std::make_unique<ws_client>(server->port());
        const json welcome = hello(*b.ws, b.name);
        b.id = welcome["player"];
        b.token = welcome["token"];
        b.ws->send({{"type", "join_tournament"}, {"tournament", id}});
        must(b.ws->wait_type("tournament"), "the snapshot after joining");
    }
    director->send({{"type", "start_tournament"}, {"tournament", id}});

    int kills = 0;
    // 30 games in a row with 10 restarts: about 20 s alone, twice that beside other tests.
    const auto deadline = in(milliseconds{150'000});
    while (w.last.value("status", "") != "finished" && steady::now() < deadline) {
        run_tournament_for(bots, *director, milliseconds{std::uniform_int_distribution<int>{100, 600}(rng)}, rng, t, w);
        if (w.last.value("status", "") == "finished" || kills == kill_count) continue;
        ::kill(server->pid(), SIGKILL);
        REQUIRE(server->wait_exit().has_value());
        ++kills;
        logs += server->log();
        for (auto& b : bots) read_tournament(b, t, w); // what reached the bots before the kill
        server = std::make_unique<server_process>(args);
        CHECK(server->log().find("could not be restored") == std::string::npos);
        CHECK(server->log().find("restored paused") == std::string::npos);
        director = std::make_unique<ws_client>(server->port());
        director->send({{"type", "hello"}, {"token", director_token}});
        for (auto& b : bots) {
            b.ws = std::make_unique<ws_client>(server->port());
            b.ws->send({{"type", "hello"}, {"token", b.token}});
        }
        for (auto& b : bots) {
            CHECK(must(b.ws->wait_type("welcome"), "welcome for " + b.name)["player"] == b.id);
            // Whatever the bot's room is now, its whole game again: each event seen before is
            // compared byte for byte.
            if (!b.room.empty()) b.ws->send(action("sync", b.room, {{"since", 0}}));
        }
        // A start the kill came before was never stored (nothing is announced before it is),
        // so the director starts again, as a person would; a start that was stored makes this
        // one a refusal, which changes nothing.
        const std::string status = w.last.value("status", "");
        if (status.empty() || status == "registering")
            director->send({{"type", "start_tournament"}, {"tournament", id}});
    }
    REQUIRE_MESSAGE(w.last.value("status", "") == "finished", "the tournament did not finish: " << w.last.dump());
    // The director's connection may have read the finished tournament before the two players'
    // read the last game's game_over, sent in the same instant: the bots read on until they have.
    const auto known = [&] {
        for (const json& round : w.last["rounds"])
            for (const json& p : round["pairings"])
                for (const json& r : p["results"])
                    if (!w.game_ids.contains(r["room"].get<std::string>())) return false;
        return true;
    };
    for (const auto until = in(milliseconds{10'000}); !known() && steady::now() < until;) {
        for (auto& b : bots) read_tournament(b, t, w);
        std::this_thread::sleep_for(milliseconds{1});
    }

    // Every game of every pairing is there once, in a room a bot played in, with the result the
    // bots saw; no game was started again and the tournament never stopped.
    std::set<std::string> listed;
    int games = 0;
    for (const json& round : w.last["rounds"])
        for (const json& p : round["pairings"]) {
            CHECK(p["rooms"].size() == 2);
            REQUIRE(p["results"].size() == 2);
            for (const json& r : p["results"]) {
                ++games;
                const std::string room = r["room"];
                listed.insert(room);
                CHECK(r["reason"] == "board_full"); // the bots never call
                CHECK_MESSAGE(w.game_ids[room] == r["game"], "room " << room << ": " << r.dump() << "\nthe bots got: " << w.seen[room] << "\n"
                                                                      << lines_about(room, logs + server->log()));
            }
        }
    CHECK(games == 30);
    CHECK_MESSAGE(listed == w.rooms, "listed " << json(listed).dump() << ", played in " << json(w.rooms).dump());
    CHECK(w.paused_seen == 0);
    MESSAGE("tournament: kills " << kills << ", games " << games << ", events compared " << t.events_compared
                                 << ", moves sent twice and refused once " << t.resends_refused);
    CHECK(kills >= 5);
    CHECK(t.errors == 0);
    CHECK(t.events_compared > 0);
    server.reset();
}
