// The journal through the real server: an event waits for its change's commit (the test holds
// the file's write lock to keep the commit from happening), a game survives kill -9 and goes on
// where it stood, and --journal off keeps nothing.
#include <csignal>
#include <filesystem>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

// The archive file's write lock, held by another connection (as a long write by someone else
// would hold it): the server's journal cannot commit until it is released.
class write_lock {
public:
    explicit write_lock(const std::filesystem::path& db)
    {
        REQUIRE(sqlite3_open(db.c_str(), &handle_) == SQLITE_OK);
        REQUIRE(sqlite3_exec(handle_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
    }
    ~write_lock() { release(); }
    write_lock(const write_lock&) = delete;
    write_lock& operator=(const write_lock&) = delete;
    void release()
    {
        if (!handle_) return;
        sqlite3_exec(handle_, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(handle_);
        handle_ = nullptr;
    }

private:
    sqlite3* handle_ = nullptr;
};


bool received(const ws_client& ws, const std::string& type)
{
    for (const auto& m : ws.history())
        if (m.value("type", "") == type) return true;
    return false;
}

} // namespace

TEST_CASE("journal: no event reaches anyone before its change is committed, and what was never committed never happened")
{
    const auto db = scratch_file("hold.db");
    const std::vector<std::string> args{"--db", db.string()};
    auto server = std::make_unique<server_process>(args);
    duel d = start_duel(*server, {{"clock", {{"move_ms", 30000}}}});
    const int giver = d.first, placer = 1 - d.first;

    {
        write_lock lock{db};
        d.act(giver, "give", {{"piece", 5}});
        d.by_seat(placer)->pump(milliseconds{300});
        d.by_seat(giver)->pump(milliseconds{10});
        CHECK_FALSE(received(*d.by_seat(placer).ws, "given")); // held: the change is not on disk
        CHECK_FALSE(received(*d.by_seat(giver).ws, "given"));
        lock.release();
        const json given = d.expect_all("given");
        CHECK(given["piece"] == 5);
    }
    {
        write_lock lock{db};
        d.act(placer, "place", {{"square", 10}});
        d.by_seat(giver)->pump(milliseconds{300});
        CHECK_FALSE(received(*d.by_seat(giver).ws, "placed"));
        ::kill(server->pid(), SIGKILL); // the placement was never committed
        server->wait_exit();
    }
    CHECK_FALSE(received(*d.by_seat(giver).ws, "placed"));
    CHECK_FALSE(received(*d.by_seat(placer).ws, "placed"));

    // After the restart the placement never happened: the piece is still in the placer's hand.
    server = std::make_unique<server_process>(args);
    ws_client back{server->port()};
    back.send({{"type", "hello"}, {"token", d.by_seat(placer).token}});
    must(back.wait_type("welcome"), "welcome");
    const json snapshot = must(back.wait_type("room"), "the room back");
    CHECK(snapshot["status"] == "playing");
    CHECK(snapshot["game"]["in_hand"] == 5);
    CHECK(snapshot["game"]["board"][10].is_null());
    back.send(action("place", d.room, {{"square", 10}}));
    CHECK(must(back.wait_type("placed"), "placed")["square"] == 10);
}

TEST_CASE("journal: a game killed mid-way comes back with its clock as at its last event and is played to its end")
{
    const auto db = scratch_file("game.db");
    const std::vector<std::string> args{"--db", db.string()};
    auto server = std::make_unique<server_process>(args);
    duel d = start_duel(*server, {{"clock", {{"move_ms", 20000}, {"claim_ms", 3000}}}});
    const int giver = d.first;
    play(d, giver, {{0, 0}, {1, 1}});
    const json last = d.creator->history().back();
    REQUIRE(last["type"] == "placed");
    // Every event went out after its commit: the journal has committed at least once.
    const std::string metrics = http_get(server->port(), "/metrics").body;
    CHECK_MESSAGE(metrics.find("\nquarto_journal_commits_total 0\n") == std::string::npos, metrics);
    CHECK_MESSAGE(metrics.find("\nquarto_journal_commits_total ") != std::string::npos, metrics);
    CHECK_MESSAGE(metrics.find("\nquarto_journal_syncs_total ") != std::string::npos, metrics);
    std::this_thread::sleep_for(milliseconds{700}); // the mover thinks; then the server dies
    ::kill(server->pid(), SIGKILL);
    server->wait_exit();

    server = std::make_unique<server_process>(args);
    CHECK(server->log().find("journal: 1 rooms restored") != std::string::npos);
    for (int s : {0, 1}) {
        auto& p = d.by_seat(s);
        p.ws = std::make_unique<ws_client>(server->port());
        p->send({{"type", "hello"}, {"token", p.token}});
        CHECK(must(p->wait_type("welcome"), "welcome")["player"] == p.id);
        must(p->wait_type("room"), "the room back");
    }
    d.creator->send(action("sync", d.room, {{"since", last["seq"]}}));
    const json resumed = must(d.creator->wait_type("resumed"), "resumed");
    CHECK(resumed["seq"] == last["seq"].get<int>() + 1);
    CHECK(resumed["status"] == "playing");
    // The mover (the last placer, to give) has what they had at the placement, not 700 ms less.
    const int mover = last["clock"]["running"].get<int>();
    CHECK(resumed["clock"]["running"] == mover);
    CHECK(std::abs(resumed["clock"]["remaining_ms"][mover].get<int>() - last["clock"]["remaining_ms"][mover].get<int>()) <= 50);

    // And the game goes on to a Quarto: pieces 0..3 on row 0.
    const int placer = play(d, mover, {{2, 2}, {3, 3}});
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
    const json over = d.expect_all("game_over");
    CHECK(over["winner"] == placer);
    CHECK(over["reason"] == "quarto");
}

TEST_CASE("journal: with --journal off nothing is kept, and a restart forgets the rooms")
{
    const auto db = scratch_file("off.db");
    const std::vector<std::string> args{"--db", db.string(), "--journal", "off"};
    auto server = std::make_unique<server_process>(args);
    duel d = start_duel(*server);
    d.act(d.first, "give", {{"piece", 3}});
    d.expect_all("given");
    CHECK(http_get(server->port(), "/metrics").body.find("quarto_journal_commits_total") == std::string::npos);
    server->stop(); // one server a file: the next starts once this one has gone
    server = std::make_unique<server_process>(args);
    ws_client back{server->port()};
    back.send({{"type", "hello"}, {"token", d.creator.token}});
    CHECK(must(back.wait_type("error"), "error")["code"] == "unknown_token");
}

TEST_CASE("journal: a game that ended just before a kill -9 is in the archive after the restart, also past a rematch")
{
    const auto db = scratch_file("ended.db");
    const std::vector<std::string> args{"--db", db.string()};
    auto server = std::make_unique<server_process>(args);
    duel d = start_duel(*server);
    d.act(d.first, "resign");
    const json over = d.expect_all("game_over");
    SUBCASE("killed at once") {} // within the archive's commit window (20 ms), as likely as not
    SUBCASE("killed after a rematch")
    {
        // The new game's summary cuts the finished game's entries from the journal: were that
        // cut committed before the archive had stored the game, a kill in between would lose it.
        d.act(0, "rematch");
        d.act(1, "rematch");
        d.expect_all("game_started");
        std::this_thread::sleep_for(milliseconds{5}); // past the journal's window (1 ms), within the archive's
    }
    ::kill(server->pid(), SIGKILL);
    server->wait_exit();

    server = std::make_unique<server_process>(args);
    const std::string id = over["game"];
    const auto deadline = in(milliseconds{5000});
    http_response r;
    do r = http_get(server->port(), "/api/games/" + id);
    while (r.status != 200 && steady::now() < deadline);
    REQUIRE(r.status == 200);
    const json game = json::parse(r.body);
    CHECK(game["result"]["reason"] == "resign");
    CHECK(game["result"]["winner"] == 1 - d.first);
}

TEST_CASE("journal: while its database refuses writes the game goes on, and once half of --journal-backlog-mib waits no new game starts")
{
    const auto db = scratch_file("backlog.db");
    // About 1 KiB: half of it is a few moves' entries.
    server_process server{{"--db", db.string(), "--journal-backlog-mib", "0.001"}};
    duel d = start_duel(server, {{"clock", {{"move_ms", 30000}}}});
    player carol = connect_player(server, "Carol");
    carol->send({{"type", "create_room"}, {"req", "before"}});
    must(carol->wait_type("room_created"), "a room, while the database takes writes");
    // The database refuses every journal write from now on (as one out of reach would).
    exec_sql(db, "CREATE TRIGGER refuse BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const auto board = drawn_board();
    std::vector<step> steps;
    for (int square = 0; square < 15; ++square) steps.push_back({board[static_cast<std::size_t>(square)], square});
    // The game goes on, move after move: every event still reaches everyone.
    const int last_placer = play(d, d.first, steps);
    // By now more than half the backlog waits: a new room is refused, and nothing was made.
    carol->send({{"type", "create_room"}, {"req", "during"}});
    const json refused = must(carol->wait_type("error"), "create_room refused");
    CHECK(refused["code"] == "unavailable");
    CHECK(refused["req"] == "during");
    CHECK(json::parse(http_get(server.port(), "/api/rooms").body)["total"] == 2);
    // Once the database takes writes again, the next commit writes what waited, and new games
    // start again.
    exec_sql(db, "DROP TRIGGER refuse");
    d.act(last_placer, "give", {{"piece", board[15]}});
    d.expect_all("given");
    carol->send({{"type", "create_room"}, {"req", "after"}});
    must(carol->wait_type("room_created"), "a room once the database is back");
}
