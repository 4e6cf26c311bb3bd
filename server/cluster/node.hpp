// This server's part in a cluster of nodes sharing one Redis (--redis): a thread of its own
// whose event loop drives the node's Redis connection.
//
// Every second the node renews its lease, quarto:node:{id} (a 3 s TTL holding the node's fencing
// token, from the counter quarto:node-epoch at each acquisition: it only grows), writes its figures
// beside it, and reads every live node's figures back, all in one script run: /metrics and
// /api/nodes show each node and the totals. A second process started with the same --node-id
// waits until the first one's lease has expired; a node whose lease expired under it (a pause
// or a partition longer than the TTL) says so loudly and takes a new token, so that whatever
// was fenced with the old one stays fenced.
//
// Rooms and tournaments: each node records those it holds (quarto:room:{id} and
// quarto:tournament:{id} = its id, again after every reconnection). A client's message for one
// held by another node goes there as a relay record (relay_record.hpp), published on that
// node's channel (quarto:node:{id}) by a script that reads the owner and publishes in one step,
// so that a client's messages keep their order; what the owner sends back comes the same way.
// The node's thread runs only this traffic, never a room: what arrives is handed to the shards
// (`inbound`).
//
// Failover: every node that may hold rooms is listed among the owners with its token. A
// heartbeat also finds the owners with no lease (dead, or stopped); the first live node to mark
// one takes it over (hooks::dead_node: the server moves its journal and restores its rooms).
// The keys and scripts are in scripts.hpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cluster/redis_connection.hpp"
#include "config/redis_address.hpp"
#include "net/event_loop.hpp"

namespace quarto::server::cluster {

class node final : private net::event_loop::owner {
public:
    static constexpr std::chrono::milliseconds lease_ttl{3000};
    static constexpr std::chrono::milliseconds heartbeat{1000};

    // This node's figures as a JSON object, on the node's thread (so from atomics only).
    using describe = std::function<std::string()>;
    // Records from other nodes (a PUBLISH's payload), on the node's thread.
    using inbound = std::function<void(std::string_view payload)>;
    // What a node holds, one node at a time.
    enum class place_kind : std::uint8_t { room, tournament };
    // Why a record for an owner went nowhere: no node holds that room or tournament (or this one
    // did and has dropped it), or it could not be sent (Redis is out of reach, or the owner is down).
    // here: Redis names this node as the owner (it took the place over while the message was
    // on its way): the caller handles it itself.
    enum class undelivered { no_owner, unavailable, here };
    // Every entry of a list the nodes publish (id, text), read after each heartbeat, with the
    // live nodes' ids.
    using listing = std::function<void(std::vector<std::pair<std::string, std::string>> entries, std::vector<std::string> live)>;

    struct peer {
        std::string id;
        std::string figures; // a JSON object, as that node described itself
        bool self = false;
    };

    // What the node tells the server, on the node's thread.
    struct hooks {
        describe figures;
        inbound records;
        // The lease was taken with `token` (previous: the token before, 0 the first time).
        std::function<void(std::int64_t token, std::int64_t previous)> new_token;
        // `dead` (whose last token was `token`) has rooms and no lease, and this node is the
        // one to take them over: call took_over() when done.
        std::function<void(const std::string& dead, std::int64_t token)> dead_node;
        // What every node published of its rooms (for the lobby) and of its tournaments.
        listing rooms;
        listing tournaments;
        // The node's channel is subscribed again after Redis was out of reach: what nodes sent
        // each other meanwhile may be lost (called a moment after, so that the other nodes'
        // channels are likely back too).
        std::function<void()> redis_back;
    };

    node(redis_address redis, std::string id, hooks h);
    ~node(); // stop()
    node(const node&) = delete;
    node& operator=(const node&) = delete;

    void start();
    // Gives the lease back (the others see this node gone at once, not after the TTL), waiting
    // at most half a second for Redis, then stops the thread.
    void stop();

    const std::string& id() const { return id_; }
    // Any thread: what the last heartbeat read (this node first), and the state of the lease.
    std::vector<peer> peers() const;
    bool redis_up() const { return redis_up_.load(std::memory_order_relaxed); }
    bool lease_held() const { return token_held_.load(std::memory_order_relaxed) != 0; }
    std::int64_t fencing_token() const { return token_held_.load(std::memory_order_relaxed); }
    std::uint64_t lease_losses() const { return lease_losses_.load(std::memory_order_relaxed); }

    // Any thread. This node holds the room or tournament `id` from now on / no longer.
    void claim(place_kind kind, const std::string& id);
    void release(place_kind kind, const std::string& id);
    // Any thread: `records` to the node holding `id`; `failed` (on the node's thread) when they
    // went nowhere.
    void to_owner(place_kind kind, const std::string& id, std::string records, std::function<void(undelivered)> failed);
    // Any thread: `records` to the node `id`, in the order of the calls (lost if it is gone).
    void to_node(const std::string& id, std::string records);
    // Any thread: `records` to every node, this one included.
    void to_all(std::string records);
    // Any thread: a heartbeat now (another node said it is gone: its rooms are to be taken over).
    void beat_now();
    // Any thread: what the lobby shows of a room of this node, or the list of tournaments of a
    // tournament, for the other nodes' (gone with release).
    void publish_listing(place_kind kind, const std::string& id, std::string text);
    // Any thread: a tournament's snapshot, for GET /api/tournaments/{id} on every node; and
    // another node's, `found` on the node's thread (nullopt: none, or Redis out of reach).
    void publish_view(const std::string& tournament, std::string snapshot);
    void find_view(const std::string& tournament, std::function<void(std::optional<std::string>)> found);

    // Players: any node knows a token any node made. Any thread: the player's record (a JSON
    // object, {"id","name"}) under its token's hash, kept `player_ttl` after its last hello.
    static constexpr std::chrono::hours player_ttl{24 * 30};
    void publish_player(const std::string& token_hash, std::string record);
    // Any thread: the record published for `token_hash`; `found` (on the node's thread) gets it,
    // or nullopt when there is none or Redis cannot be asked.
    void find_player(const std::string& token_hash, std::function<void(std::optional<std::string>)> found);

    // Any thread: the rooms of `dead` are taken over (`all`: else another try is allowed).
    void took_over(const std::string& dead, std::int64_t token, bool all);

private:
    // net::event_loop::owner
    void on_wake() override;
    void end_of_turn() override {}

    void beat();
    void take_token();
    void renew(bool acquiring);
    void renewed(const redis_reply& r, bool acquiring, std::chrono::steady_clock::time_point sent);
    void release_lease();
    void post(std::function<void()> task);
    void claim_all(); // everything held, again (Redis may have restarted empty)
    void send_to_owner(std::string owner_key, std::string records, std::function<void(undelivered)> failed, int attempt);
    void read_listing(std::string_view key, const listing& to, std::vector<std::string> live);
    // Runs `task` owner_retry_delay from now, on the node's thread, in the order of the calls.
    void later(std::function<void()> task);
    void run_retries();
    static constexpr int owner_retries = 4;
    static constexpr int owner_gone_retries = 20; // 1 s: a handover after a SIGTERM takes tens of ms
    static constexpr std::chrono::milliseconds owner_retry_delay{50};
    static constexpr std::chrono::milliseconds redis_back_delay{250};
    void found_dead(const std::string& dead, const std::string& token);

    const redis_address redis_;
    const std::string id_;
    const hooks hooks_;
    net::event_loop loop_;
    redis_connection redis_connection_;
    redis_connection subscriber_; // this node's channel
    net::timer_queue::id beat_timer_;
    net::timer_queue::id retry_timer_;
    net::timer_queue::id redis_back_timer_;
    bool subscribed_before_ = false; // on the node's thread
    std::deque<std::pair<std::chrono::steady_clock::time_point, std::function<void()>>> retries_;
    std::thread thread_;

    // On the node's thread.
    std::int64_t token_ = 0;   // the token of the lease held or being acquired; 0: none yet
    bool acquiring_ = true;    // the lease is not (or no longer) this node's
    bool beat_pending_ = false; // a heartbeat is on its way: never two at once
    std::string waiting_for_;  // the holder of this id when it was not free (logged once)
    std::chrono::steady_clock::time_point waiting_since_;
    bool held_elsewhere_logged_ = false;
    std::chrono::steady_clock::time_point last_renewed_; // when the last renewal that took was sent
    struct held_place {
        place_kind kind;
        std::string id;
        std::string listing; // its lobby line, or its line in the list of tournaments
        std::string view;    // a tournament's snapshot
    };
    std::unordered_map<std::string, held_place> held_; // by owner key
    std::unordered_set<std::string> taking_over_; // dead nodes this node is taking over
    std::int64_t previous_token_ = 0;

    // Shared with other threads.
    std::atomic<bool> redis_up_{false};
    std::atomic<std::int64_t> token_held_{0};
    std::atomic<std::uint64_t> lease_losses_{0};
    mutable std::mutex mutex_;
    std::vector<peer> peers_;                 // guarded by mutex_
    std::vector<std::function<void()>> tasks_; // guarded by mutex_: run on the node's thread
};

} // namespace quarto::server::cluster
