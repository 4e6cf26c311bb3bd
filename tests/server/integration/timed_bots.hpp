// Bots that play timed random games against a real server, for the tests that kill, stop and
// restart servers under them (crash_tests.cpp: one server; cluster_chaos_tests.cpp: nodes).
// Each bot keeps a replica of its game built from the events it gets (the rules engine fed the
// same moves) and every event of its room by seq, as sent: an event seen twice (again after a
// restart, by a sync) must be the same bytes, and the replica checks that every move the
// server announced is legal. A bot that sees a gap in its room's seq asks for a sync, as the
// browser does.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "quarto/core/game.hpp"

namespace quarto_test::timed_bots {

// Far above a bot's think time: nobody loses on time. The clock runs while the bots reconnect
// after each restart, which took over 10 s under load (a game lost on time then).
constexpr std::int64_t move_ms = 60'000;
constexpr std::int64_t claim_ms = 2'000;
constexpr std::int64_t clock_tolerance_ms = 50;

struct totals {
    int events_compared = 0;
    int clocks_compared = 0;
    int claim_windows_at_restart = 0;
    int games_finished = 0;
    int errors = 0;
    int late_passes = 0;  // a pass that reached the server after the game's last window had closed
    int unavailable = 0;  // actions refused `unavailable` (a room of another node, Redis out of reach): sent again
    int gaps = 0;         // events that came after a gap in their room's seq: a sync was asked for
    int resends_refused = 0; // a move sent twice for one turn (see bot::sent), the second refused
};

// One bot: a seat in one room, a replica of its game, and every event of the room it has
// received, by seq, as sent.
struct bot {
    std::string name, token, id, room;
    int seat = 0;
    std::unique_ptr<ws_client> ws;
    std::optional<quarto::game> replica;
    std::uint64_t replica_seq = 0; // the last seq the replica reflects
    std::uint64_t game_seq = 0;    // the seq of the current game's game_started
    std::map<std::uint64_t, std::string> events;
    std::size_t moves_when_sent = SIZE_MAX; // the replica's move count when this bot last acted
    // Every move sent, by its req: its turn as "room/game_seq/moves" (the replica's move count
    // when sent). A snapshot that comes while a move is on its way (a room taken over, the
    // snapshots after Redis came back) shows the turn still the bot's: it moves again, and the
    // server takes one of the two and refuses the other. Only such a refusal is expected.
    std::map<std::string, std::string> sent;
    steady::time_point act_after{};
    bool rematch_asked = false;
    std::uint64_t sync_asked_at = 0; // the replica_seq a sync was asked from (0: none pending)
};

// What a bot knows, for a failure's message: where its game stands and the last events it got.
std::string describe(const bot& b);
void rebuild_from_snapshot(bot& b, const json& snapshot);
// One message for bot `b`: events go to the record and the replica.
void take(bot& b, const json& m, const std::string& raw, totals& t);
void read_all(bot& b, totals& t);
// The bot's move, if it is its turn: a random legal give, placement or pass (never a call).
void act(bot& b, std::mt19937& rng, bool rematch);
void run_for(std::vector<bot>& bots, milliseconds d, std::mt19937& rng, totals& t, bool rematch = true);
// After a (re)start, or through another node: each bot resumes by token on `port`, gets its room
// back (the snapshot resume sends), and syncs from its game's start; the `resumed` events' clocks
// are checked against the restart rule.
void reconnect(const std::vector<bot*>& bots, unsigned short port, totals& t);
inline void reconnect(std::vector<bot>& bots, const server_process& server, totals& t)
{
    std::vector<bot*> all;
    for (auto& b : bots) all.push_back(&b);
    reconnect(all, server.port(), t);
}

// ---- tournaments: a bot's room changes with each pairing ----------------------------------

struct tournament_watch {
    std::set<std::string> rooms;                 // every room a bot was paired or seated in
    std::map<std::string, std::string> game_ids; // room -> game id, from the bots' game_over
    std::map<std::string, std::string> seen;     // room -> what the bots got of it, for a failure's message
    json last = json::object();                  // the director's latest snapshot
    int paused_seen = 0;
};

void read_tournament(bot& b, totals& t, tournament_watch& w);
void read_director(ws_client& director, tournament_watch& w);
void run_tournament_for(std::vector<bot>& bots, ws_client& director, milliseconds d, std::mt19937& rng, totals& t,
                        tournament_watch& w);
// The server's log lines that name `what`: a failure's story.
std::string lines_about(const std::string& what, const std::string& log);

} // namespace quarto_test::timed_bots
