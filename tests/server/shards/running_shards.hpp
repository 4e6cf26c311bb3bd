// Shards as quarto-server runs them, in the test's process: a server_state and its shards, each
// loop on a thread of its own, and connections on socket pairs. A connection's shard end is a
// real ws_connection with its client, handed to the shard as the front hands over a WebSocket
// whose handshake is done; the test writes and reads the other end as a browser would. The
// loops run as they do in the server: the test waits for events, each with a deadline, and for a
// shard's turns to end (settle), never for a while.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "shards/server_state.hpp"
#include "shards/shard.hpp"

namespace quarto::server::testing {

using json = nlohmann::json;

// For what takes microseconds: only a failure waits it out.
inline constexpr std::chrono::seconds await_limit{5};

// The test's end of one WebSocket connection: masked text frames out, the server's frames in.
class ws_peer {
public:
    using steady = std::chrono::steady_clock;

    ws_peer(int fd, std::string name) : fd_{fd}, name_{std::move(name)} {}
    ~ws_peer() { close(); }
    ws_peer(const ws_peer&) = delete;
    ws_peer& operator=(const ws_peer&) = delete;

    // Messages, each in a frame of its own, all in one write: the shard reads them in one turn.
    void send(std::initializer_list<json> messages);
    // The next message (pings skipped; a close frame is {"type":"close","code":N}), waiting at
    // most await_limit; a failed REQUIRE when none comes.
    json next();
    // The next message, which must be of this type.
    json next(const std::string& type);
    // The messages up to and including the first of this type.
    std::vector<json> until(const std::string& type);
    // Nothing has come that next() has not returned yet (the socket is not read: any thread may
    // ask while the test's thread waits).
    bool quiet() const;
    // When the frame next() returned last was read off the socket.
    steady::time_point arrived() const { return arrived_; }
    // The peer goes: the shard reads the end of the stream.
    void close();

private:
    // Reads what has come; false at the deadline or the end of the stream.
    bool receive(steady::time_point deadline);
    // A whole frame off the front of what was read, if one is there.
    std::optional<json> take_frame();

    int fd_ = -1;
    std::string name_;
    std::string inbox_; // read, not yet taken apart
    steady::time_point arrived_{};
};

class running_shards {
public:
    // `migration`: --shard-migration. `journal`: an SQLite file for the journal of live rooms
    // (--journal on), made here; empty: none.
    explicit running_shards(std::uint16_t shards = 1, bool migration = true, const std::string& journal = {});
    // Stops the loops and closes the journal, then drops the shards (their clients close their
    // connections).
    ~running_shards();
    running_shards(const running_shards&) = delete;
    running_shards& operator=(const running_shards&) = delete;

    shards::server_state& state() { return state_; }
    shards::shard& shard(std::uint16_t i) { return *state_.shards.at(i); }

    // A new connection on shard `i`, known there by `name`.
    std::unique_ptr<ws_peer> connect(std::uint16_t i, const std::string& name);

    // Once this returns, shard `i` has handled everything that reached it before (what came in
    // its mailbox, what came on its sockets) and ended the turn that did: its deferred tasks
    // run, its frames written, its batches for other shards sent.
    void settle(std::uint16_t i);

private:
    shards::server_state state_;
    std::vector<std::thread> threads_;
};

// A new guest says hello: the welcome.
json hello(ws_peer& p, const std::string& name);
// A game in a room that `ann` creates and `bo` joins as a player (both have said hello), every
// frame of theirs read up to game_started.
struct game {
    std::string room;
    int first = 0; // the seat that gives first: 0 is Ann, 1 is Bo
};
game start_game(ws_peer& ann, ws_peer& bo);
json give(const std::string& room, int piece, json req = nullptr);
json place(const std::string& room, int square, json req = nullptr);

} // namespace quarto::server::testing
