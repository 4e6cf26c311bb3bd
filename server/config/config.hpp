// The command line of quarto-server, and the QUARTO_* environment variables that stand in for
// its long flags (QUARTO_SOME_FLAG=value is --some-flag value; the command line wins).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <spdlog/common.h>

namespace quarto::server {

// A resuming player is sent the snapshot of every room and tournament it is in at once: twice
// this many (and the welcome and resumed_all) fit any send queue (1024 messages).
inline constexpr std::size_t max_rooms_per_player_cap = 500;

struct config {
    std::string host = "0.0.0.0";
    std::uint16_t port = 8080;
    unsigned threads = 0; // 0: one per core
    unsigned bot_threads = 0; // the computer opponents' searches; 0: half the shards, 1 to 4
    // Argon2id on threads of its own (server/accounts): each hash holds a thread and 19 MiB for
    // tens of milliseconds, so few threads, and past the queue a login is refused at once.
    unsigned password_threads = 1;    // 1..16
    std::size_t password_queue = 64;  // jobs waiting for those threads, 1..4096
    std::string web_root;
    // Debian's libraries for browsers (its javascript-common's /javascript/): the client's QR
    // encoder is node-qrcode-generator's qrcode-generator/qrcode.js.
    std::string javascript_root = "/usr/share/javascript";
    spdlog::level::level_enum log_level = spdlog::level::info;
    std::size_t max_message_bytes = 4096;
    double rate_limit = 20;   // messages per second per connection
    double rate_burst = 40;   // bucket size
    // Joins, leaves, renames and creations, per connection, on top of the message rate: each
    // reaches everyone in a room or makes something that lasts. The defaults are enough to
    // click through a lobby, far too few to spam every public room with joined/left events.
    double join_rate = 2;   // per second
    double join_burst = 10; // bucket size
    std::chrono::seconds room_idle{600};  // finished or deserted rooms are reclaimed after this
    // A seated player gone this long from a game in progress: the opponent may claim the win.
    std::chrono::seconds abandon_after{30};
    std::size_t max_connections_per_address = 0; // 0: no cap
    // What one player or one client address may hold at once (0: no cap). A player's rooms
    // stay well below what resuming can send at once (1024 messages).
    std::size_t max_rooms_per_player = 32;       // rooms seated or watching in; 1..max_rooms_per_player_cap
    std::size_t max_rooms_per_address = 1000;    // open rooms created from one address
    std::size_t max_tournaments_per_player = 5;  // tournaments directed, not yet finished
    std::size_t max_tournaments_per_address = 50;
    // Guests remembered per address: beyond it, a new guest makes the address's longest-idle
    // guest (no connection, room or tournament) forgotten at once, not an hour later.
    std::size_t max_guests_per_address = 200;
    std::string db_path = "data/quarto.db"; // the archive of finished games (SQLite), made on first run
    // How long shutdown waits for queued messages and close handshakes. Below Docker's and
    // Podman's default 10 s between SIGTERM and SIGKILL, so the server still exits by itself.
    std::chrono::milliseconds shutdown_grace{5000};
    // Normalized origins ("https://quarto.example.org:8443") a WebSocket handshake may come
    // from; empty: only an Origin naming the request's own Host.
    std::vector<std::string> allowed_origins;
    bool trust_proxy = false; // take the client address from X-Forwarded-For
    // A client in nothing that joins a room (or tournament) on another shard moves there.
    bool shard_migration = true;
    // Every room's changes go to the journal before their events go out; restored on start.
    bool journal = true;
    // How much of the journal may wait in memory while its database is out of reach: past
    // half of it new games are refused, past all of it the oldest batches are dropped.
    std::size_t journal_backlog_bytes = std::size_t{64} << 20;
    // A node of a cluster: the nodes' shared Redis (redis://... or unix://...; empty: a single
    // server, no Redis) and this node's name among them (default: the host's name and the port).
    std::string redis;
    std::string node_id;
};

// A node id: 1 to 64 letters, digits, '.', '_' or '-' (it names Redis keys and metrics labels).
bool valid_node_id(std::string_view id);

struct usage_request {};               // --help
struct config_error { std::string message; };

// The QUARTO_* variables of an environment (as in `environ`), name and value.
using environment = std::vector<std::pair<std::string, std::string>>;
environment quarto_environment(char** envp);

// Settings from `env` first, then `args` on top. Variables that name no option, or are empty,
// are skipped and described in `ignored` (when given): they may belong to other tools, or
// to options of a newer or older server.
std::variant<config, usage_request, config_error> parse_command_line(const std::vector<std::string>& args,
                                                                     const environment& env = {},
                                                                     std::vector<std::string>* ignored = nullptr);
std::string usage_text();

} // namespace quarto::server
