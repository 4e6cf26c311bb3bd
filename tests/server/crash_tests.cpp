// Live games through crashes and restarts (the journal, end to end): 20 rooms of timed random
// bots on a real server, killed with SIGKILL at random moments and restarted on the same --db,
// then stopped once with SIGTERM. After each start the bots reconnect with their tokens and
// sync. Checked every time: each room comes back; every event a bot had received of its game
// is in the restored history, byte for byte; the `resumed` event's clock is the one of the last
// event before it (the time the server was down is nobody's); and, at the end, every game went
// to its end as a replica of the rules engine fed the same events says it must. Then the same
// for a tournament's games: its rounds go on through the kills, no game is played again.
#include <csignal>
#include <map>
#include <set>
#include <sstream>
#include <random>
#include <sys/wait.h>

#include "helpers.hpp"
#include "quarto/core/game.hpp"

using namespace quarto_test;

namespace {

constexpr int room_count = 20;
constexpr int kill_count = 10;
// Far above a bot's think time: nobody loses on time. The clock runs while the 40 bots
// reconnect after each restart, which took over 10 s under load (a game lost on time then).
constexpr std::int64_t move_ms = 60'000;
constexpr std::int64_t claim_ms = 2'000;
constexpr std::int64_t clock_tolerance_ms = 50;

const quarto::instant no_time{}; // the replicas ignore time: the server judges it

struct totals {
    int events_compared = 0;
    int clocks_compared = 0;
    int claim_windows_at_restart = 0;
    int games_finished = 0;
    int errors = 0;
    int late_passes = 0; // a pass that reached the server after the game's last window had closed
};

// One bot: a seat in one room, a replica of its game built from the events it gets, and every
// event of the room it has received, by seq, as sent.
struct bot {
    std::string name, token, id, room;
    int seat = 0;
    std::unique_ptr<ws_client> ws;
    std::optional<quarto::game> replica;
    std::uint64_t replica_seq = 0; // the last seq the replica reflects
    std::uint64_t game_seq = 0;    // the seq of the current game's game_started
    std::map<std::uint64_t, std::string> events;
    std::size_t moves_when_sent = SIZE_MAX; // the replica's move count when this bot last acted
    steady::time_point act_after{};
    bool rematch_asked = false;
};

// What a bot knows, for a failure's message: where its game stands and the last events it got.
std::string describe(const bot& b)
{
    std::ostringstream out;
    out << b.name << " (seat " << b.seat << ", room " << b.room << ", connection "
        << (b.ws->closed() ? "closed" : "open") << ")";
    if (b.replica)
        out << ": replica in phase " << quarto::to_string(b.replica->phase()) << ", turn " << int(b.replica->turn())
            << ", " << b.replica->moves().size() << " moves, acted at " << b.moves_when_sent;
    else
        out << ": no game";
    int shown = 0;
    for (auto it = b.events.rbegin(); it != b.events.rend() && shown < 4; ++it, ++shown)
        out << "\n  seq " << it->first << ": " << it->second;
    return out.str();
}

void rebuild_from_snapshot(bot& b, const json& snapshot)
{
    b.replica.reset();
    b.replica_seq = snapshot["seq"].get<std::uint64_t>();
    b.moves_when_sent = SIZE_MAX;
    if (snapshot["you"].is_object() && snapshot["you"]["seat"].is_number()) b.seat = snapshot["you"]["seat"].get<int>();
    const json& g = snapshot["game"];
    if (g.is_null()) return;
    b.replica.emplace(quarto::rules{}, quarto::clock_settings{std::nullopt, quarto::milliseconds{claim_ms}},
                      g["first"].get<quarto::seat>(), no_time);
    for (const json& m : g["moves"]) {
        const auto by = m["seat"].get<quarto::seat>();
        const std::string type = m["type"];
        quarto::outcome r = quarto::outcome::failure(quarto::action_error::wrong_phase);
        if (type == "give") r = b.replica->give(by, quarto::piece{m["piece"].get<std::uint8_t>()}, no_time);
        else if (type == "place") r = b.replica->place(by, m["square"].get<quarto::square>(), no_time);
        else if (type == "pass") r = b.replica->pass(by, no_time);
        else continue; // a call or a resignation: the game is over, as `result` says
        REQUIRE_MESSAGE(r.ok(), "snapshot move " << m.dump());
    }
    // A game that ended on the server's clock after the events the bot saw (a final claim
    // window that ran out while the bots reconnected): its game_over is older than this
    // snapshot, so the replica ends here, as the room says.
    if (snapshot.value("status", "") == "finished" && !b.replica->finished())
        (void)b.replica->expire(no_time + std::chrono::hours{1});
}

// One message for bot `b`: events go to the record and the replica.
void take(bot& b, const json& m, const std::string& raw, totals& t)
{
    const std::string type = m.value("type", "");
    if (type == "error") {
        // The bots' replicas keep no time: a bot may pass just after the full board's last claim
        // window ran out on the server (game_over follows). Any other refusal is a defect.
        if (m.value("code", "") == "wrong_phase" && m.value("message", "") == "The game is over.") {
            ++t.late_passes;
            return;
        }
        ++t.errors;
        MESSAGE(b.name << " got " << raw << "\n" << describe(b));
        return;
    }
    if (type == "room" && m["room"] == b.room) return rebuild_from_snapshot(b, m);
    if (!m.contains("seq") || m.value("room", "") != b.room || type == "synced") return;
    const auto seq = m["seq"].get<std::uint64_t>();
    const auto [known, added] = b.events.emplace(seq, raw);
    if (!added) {
        CHECK_MESSAGE(known->second == raw, b.name << " seq " << seq << ": " << known->second << " then " << raw);
        ++t.events_compared;
    }
    if (seq <= b.replica_seq) return;
    b.replica_seq = seq;
    const auto by = m.contains("seat") && m["seat"].is_number() ? m["seat"].get<quarto::seat>() : quarto::seat{0};
    if (type == "game_started") {
        b.replica.emplace(quarto::rules{}, quarto::clock_settings{std::nullopt, quarto::milliseconds{claim_ms}},
                          m["first"].get<quarto::seat>(), no_time);
        b.game_seq = seq;
        b.rematch_asked = false;
        b.moves_when_sent = SIZE_MAX;
    } else if (type == "given") {
        CHECK(b.replica->give(by, quarto::piece{m["piece"].get<std::uint8_t>()}, no_time).ok());
    } else if (type == "placed") {
        CHECK(b.replica->place(by, m["square"].get<quarto::square>(), no_time).ok());
    } else if (type == "passed") {
        CHECK(b.replica->pass(by, no_time).ok());
    } else if (type == "game_over") {
        // The bots never call: the engine fed the same moves has drawn the game too.
        REQUIRE(b.replica);
        CHECK_MESSAGE(m["reason"] == "board_full", raw);
        // A full board's last claim window may have run out on the server's clock (on a loaded
        // machine the bots are slow to pass): the replica's time runs out too.
        if (!b.replica->finished()) (void)b.replica->expire(no_time + std::chrono::hours{1});
        CHECK(b.replica->finished());
        CHECK(b.replica->result() == quarto::game_result{std::nullopt, quarto::end_reason::board_full});
        if (b.seat == 0) ++t.games_finished;
    }
}

void read_all(bot& b, totals& t)
{
    b.ws->poll();
    while (!b.ws->pending().empty()) {
        const std::size_t index = b.ws->history().size() - b.ws->pending().size();
        const std::string raw = b.ws->raw_history()[index];
        const json m = *b.ws->next(in(milliseconds{0}));
        take(b, m, raw, t);
    }
}

// The bot's move, if it is its turn: a random legal give, placement or pass (never a call).
void act(bot& b, std::mt19937& rng, bool rematch)
{
    if (!b.replica || b.ws->closed() || steady::now() < b.act_after) return;
    if (b.replica->finished()) {
        if (rematch && !b.rematch_asked) {
            b.rematch_asked = true;
            b.ws->send(action("rematch", b.room));
        }
        return;
    }
    if (b.replica->turn() != b.seat || b.replica->moves().size() == b.moves_when_sent) return;
    quarto::action_list legal;
    b.replica->legal_actions(legal);
    std::vector<quarto::action> choices;
    for (const auto& a : legal)
        if (a.kind != quarto::move_kind::call) choices.push_back(a);
    REQUIRE_FALSE(choices.empty());
    const auto a = choices[std::uniform_int_distribution<std::size_t>{0, choices.size() - 1}(rng)];
    if (a.kind == quarto::move_kind::give) b.ws->send(action("give", b.room, {{"piece", a.value}}));
    else if (a.kind == quarto::move_kind::place) b.ws->send(action("place", b.room, {{"square", a.value}}));
    else b.ws->send(action("pass", b.room));
    b.moves_when_sent = b.replica->moves().size();
    b.act_after = steady::now() + milliseconds{std::uniform_int_distribution<int>{0, 15}(rng)};
}

void run_for(std::vector<bot>& bots, milliseconds d, std::mt19937& rng, totals& t, bool rematch = true)
{
    const auto until = in(d);
    while (steady::now() < until) {
        for (auto& b : bots) {
            read_all(b, t);
            act(b, rng, rematch);
        }
        std::this_thread::sleep_for(milliseconds{1}); // the bots' think time, not a wait on an event
    }
}

// After a start: each bot resumes by token, gets its room back, and syncs from its game's start.
void reconnect(std::vector<bot>& bots, const server_process& server, totals& t)
{
    for (auto& b : bots) {
        b.ws = std::make_unique<ws_client>(server.port());
        b.ws->send({{"type", "hello"}, {"token", b.token}});
    }
    for (auto& b : bots) {
        const json welcome = must(b.ws->wait_type("welcome"), "welcome for " + b.name);
        CHECK(welcome["player"] == b.id);
        // The room came back: its snapshot arrives (resume sends one per room).
        const auto snapshot = b.ws->wait_for([&](const json& m) { return m["type"] == "room" && m["room"] == b.room; });
        REQUIRE_MESSAGE(snapshot, b.name << ": room " << b.room << " did not come back");
        rebuild_from_snapshot(b, *snapshot);
        b.ws->send(action("sync", b.room, {{"since", b.game_seq - 1}, {"req", "restart"}}));
    }
    for (auto& b : bots) {
        std::vector<json> replayed;
        std::vector<std::string> raw;
        for (;;) {
            const auto m = b.ws->next();
            REQUIRE_MESSAGE(m, b.name << ": no synced");
            if ((*m)["type"] == "synced") break;
            replayed.push_back(*m);
            raw.push_back(b.ws->raw_history()[b.ws->history().size() - b.ws->pending().size() - 1]);
        }
        // Into the record (each seq seen before compared); the replica takes only what is newer.
        for (std::size_t i = 0; i < replayed.size(); ++i) take(b, replayed[i], raw[i], t);
        // The clock rule: `resumed` shows the clocks of the last event before it.
        for (std::size_t i = 0; i < replayed.size(); ++i) {
            if (replayed[i]["type"] != "resumed" || replayed[i]["status"] != "playing") continue;
            const json& now = replayed[i];
            if (now["claim"].is_object()) ++t.claim_windows_at_restart;
            bool events_between = false; // events without a clock (a connection, a watcher) came after it
            for (std::size_t j = i; j-- > 0; events_between = true) {
                const json& before = replayed[j];
                if (!before.contains("clock")) continue;
                REQUIRE(before["clock"]["running"] == now["clock"]["running"]);
                if (now["clock"]["running"].is_null()) break; // nobody's clock runs (the final window)
                const auto mover = now["clock"]["running"].get<int>();
                const auto was = before["clock"]["remaining_ms"][mover].get<std::int64_t>();
                const auto is = now["clock"]["remaining_ms"][mover].get<std::int64_t>();
                if (events_between) {
                    // The rule counts the time up to the last event, whose time these events do
                    // not show: the clock has not gone back, nor lost more than they could span.
                    CHECK_MESSAGE(was - is >= -clock_tolerance_ms, before.dump() << " / " << now.dump());
                    CHECK_MESSAGE(was - is <= 2'000, before.dump() << " / " << now.dump());
                } else {
                    CHECK_MESSAGE(std::abs(was - is) <= clock_tolerance_ms, before.dump() << " / " << now.dump());
                }
                if (before.contains("claim") && before["claim"].is_object() && now["claim"].is_object()) {
                    const auto claim_was = before["claim"]["remaining_ms"].get<std::int64_t>();
                    const auto claim_is = now["claim"]["remaining_ms"].get<std::int64_t>();
                    // As for the move clock: events between may span time the window has used.
                    if (events_between) CHECK(claim_was - claim_is >= -clock_tolerance_ms);
                    else CHECK(std::abs(claim_was - claim_is) <= clock_tolerance_ms);
                }
                ++t.clocks_compared;
                break;
            }
        }
    }
}

} // namespace

TEST_CASE("crash: 20 rooms of timed bots survive 10 kill -9 and a SIGTERM, losing no room, event or clock")
{
    const auto dir = std::filesystem::temp_directory_path() / ("quarto-crash-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    // Bots think for 0-15 ms: above the 20 messages a second a person's browser is allowed.
    const std::vector<std::string> args{"--db", (dir / "quarto.db").string(), "--rate-limit", "500", "--rate-burst", "1000"};
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
    std::filesystem::remove_all(dir);
}

namespace {

// A tournament bot's room changes with each pairing: the record and the replica start afresh.
void switch_room(bot& b, const std::string& room)
{
    if (b.room == room) return;
    b.room = room;
    b.events.clear();
    b.replica.reset();
    b.replica_seq = 0;
    b.game_seq = 0;
    b.moves_when_sent = SIZE_MAX;
}

struct tournament_watch {
    std::set<std::string> rooms;                 // every room a bot was paired or seated in
    std::map<std::string, std::string> game_ids; // room -> game id, from the bots' game_over
    std::map<std::string, std::string> seen;     // room -> what the bots got of it, for a failure's message
    json last = json::object();                  // the director's latest snapshot
    int paused_seen = 0;
};

void read_tournament(bot& b, totals& t, tournament_watch& w)
{
    b.ws->poll();
    while (!b.ws->pending().empty()) {
        const std::size_t index = b.ws->history().size() - b.ws->pending().size();
        const std::string raw = b.ws->raw_history()[index];
        const json m = *b.ws->next(in(milliseconds{0}));
        const std::string type = m.value("type", "");
        if (m.contains("room") && m["room"].is_string() && type != "given" && type != "placed" && type != "passed")
            w.seen[m["room"].get<std::string>()] += b.name + ":" + type + (type == "room" ? "/" + m.value("status", "") : "") + " ";
        if (type == "tournament_pairing") {
            switch_room(b, m["room"]);
        } else if (type == "room" && m["tournament"].is_string() && m["status"] == "playing") {
            switch_room(b, m["room"]); // a game begun while the bot was away
        } else if (type == "tournament") {
            continue;
        } else if (type == "game_over") {
            // Of any room of the bot's: after a restart its sync may bring the end of a game
            // it has already moved on from.
            w.game_ids[m["room"].get<std::string>()] = m["game"].get<std::string>();
        } else if (type == "room" && m["status"] == "finished" && m["game"].is_object() && m["game"].contains("id")) {
            // A game whose game_over was committed but not yet delivered when the server was
            // killed, while the next round's pairing (sent without waiting for the journal) had
            // already moved the bot on: the resume's snapshot of that room says how it ended.
            w.game_ids[m["room"].get<std::string>()] = m["game"]["id"].get<std::string>();
        }
        if (!b.room.empty()) w.rooms.insert(b.room);
        take(b, m, raw, t);
    }
}

// The server's log lines that name `what`: a failure's story.
std::string lines_about(const std::string& what, const std::string& log)
{
    std::istringstream in{log};
    std::string line, found;
    while (std::getline(in, line))
        if (line.find(what) != std::string::npos || line.find("listening on") != std::string::npos) found += line + '\n';
    return found;
}

void read_director(ws_client& director, tournament_watch& w)
{
    director.poll();
    while (!director.pending().empty()) {
        const json m = *director.next(in(milliseconds{0}));
        if (m.value("type", "") != "tournament") continue;
        if (m["status"] == "paused") ++w.paused_seen;
        w.last = m;
    }
}

void run_tournament_for(std::vector<bot>& bots, ws_client& director, milliseconds d, std::mt19937& rng, totals& t,
                        tournament_watch& w)
{
    const auto until = in(d);
    while (steady::now() < until && w.last.value("status", "") != "finished") {
        for (auto& b : bots) {
            read_tournament(b, t, w);
            act(b, rng, /*rematch=*/false);
        }
        read_director(director, w);
        std::this_thread::sleep_for(milliseconds{1});
    }
}

} // namespace

TEST_CASE("crash: a tournament's rounds go on through kill -9, each game played once, in its own room")
{
    constexpr int players = 6; // 5 rounds of 3 boards, 2 games a board: 30 games, 10 in a row for each player
    const auto dir = std::filesystem::temp_directory_path() / ("quarto-crash-tournament-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::vector<std::string> args{"--db", (dir / "quarto.db").string(), "--rate-limit", "500", "--rate-burst", "1000"};
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
    MESSAGE("tournament: kills " << kills << ", games " << games << ", events compared " << t.events_compared);
    CHECK(kills >= 5);
    CHECK(t.errors == 0);
    CHECK(t.events_compared > 0);
    server.reset();
    std::filesystem::remove_all(dir);
}
