// Test vocabulary on top of ws_client: hello, create/join a room, start a game between two
// players, play a list of moves, and check the per-room seq order a client saw.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "server_process.hpp"
#include "ws_client.hpp"

// Readable failures for close codes (json prints itself through operator<<).
template <>
struct doctest::StringMaker<std::optional<std::uint16_t>> {
    static doctest::String convert(const std::optional<std::uint16_t>& code)
    {
        return code ? doctest::toString(static_cast<unsigned>(*code)) : doctest::String{"no close code"};
    }
};

namespace quarto_test {

// The message or a failed REQUIRE naming what was awaited.
json must(std::optional<json> message, const std::string& what);

// The header fields of a hand-made WebSocket upgrade request (for http_get), plus `extra`.
header_list websocket_upgrade(const header_list& extra = {});

// Sends hello with a name; returns the welcome.
json hello(ws_client& ws, const std::string& name);

// A connected, greeted client.
struct player {
    std::unique_ptr<ws_client> ws;
    json id;
    std::string token;
    std::string name;
    ws_client* operator->() const { return ws.get(); }
};
player connect_player(const server_process& server, const std::string& name);

// create_room with these fields (name, rules, clock, private); awaits room_created and the
// waiting snapshot. Returns the room id; `snapshot` receives the room snapshot.
json create_room(ws_client& ws, const json& options = json::object(), json* snapshot = nullptr);
// join as "player" or "spectator"; returns the room snapshot.
json join(ws_client& ws, const json& room, const std::string& as = "player");

// An action message for a room.
json action(const std::string& type, const json& room, json fields = json::object());

// Two players seated in one room, game started. seat_of(p) and by_seat(s) map between them.
struct duel {
    player creator; // seat 0
    player joiner;  // seat 1
    std::vector<player> watchers;
    json room;
    int first = 0;      // the seat that gives first
    json started;       // the game_started event
    json options;       // what create_room was sent

    player& by_seat(int seat) { return seat == 0 ? creator : joiner; }
    // Everyone in the room we hold a connection for.
    std::vector<ws_client*> everyone();
    // Sends `type` with `fields` for `seat` in this room.
    void act(int seat, const std::string& type, json fields = json::object(), const json& req = nullptr);
    // Every client in the room receives the next event of this type; returns it (checking
    // that all received the same JSON).
    json expect_all(const std::string& type, steady::time_point deadline = in(default_wait));
};

// Creates a room (options as for create_room), seats two players, adds `spectators` watchers
// who join before the second player, and awaits game_started everywhere.
duel start_duel(const server_process& server, const json& options = json::object(), int spectators = 0);

// One step: the giver gives `piece`, then the other seat places it on `square`.
struct step {
    int piece;
    int square;
};
// Plays `steps` from the current give of `giver`, awaiting given/placed events in every client.
// Returns the seat of the last placer (who is now to give, call or pass).
int play(duel& d, int giver, const std::vector<step>& steps);

// A full board (piece code per square) with no aligned line in the standard rules.
std::array<int, 16> drawn_board();

// A fresh empty path for a test's archive file `name` (its -wal and -shm gone too), in a
// directory of this test process's own, removed with its contents when the process exits.
std::filesystem::path scratch_file(const std::string& name);

// Runs SQL on an SQLite archive file through another connection than the server's.
void exec_sql(const std::string& db, const std::string& sql);

// Checks that every event of `room` in `history` has seq one more than the previous one
// (a `room` snapshot sets the position; `synced` is not an event). Returns the count checked.
int check_seq(const std::vector<json>& history, const json& room);

// The 4 squares of a line as a sorted vector (for comparing `line` fields).
std::vector<int> sorted_line(const json& line);

} // namespace quarto_test
