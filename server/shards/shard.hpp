// One shard: a single-threaded event loop (net::event_loop, on epoll) that owns its
// connections (each with its client controller), its rooms and its tournaments outright. A
// move is read, applied and written on this thread alone: no lock, no post, no strand.
// Everything a turn of the loop queues (frames for connections, messages for other shards)
// goes out once, at the end of the turn.
//
// Between shards there are only messages: batches of deliveries (a frame for a client of the
// other shard) and tasks, through the other shard's lock-free mailbox. A room lives on the
// shard its id hashes to; a client that joins a room elsewhere while it is in nothing else
// moves to that shard (its socket re-registered there), so that a game's two players and its
// spectators nearly always share their room's shard.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include <spdlog/spdlog.h>

#include "net/event_loop.hpp"
#include "net/mailbox.hpp"
#include "net/ws_connection.hpp"
#include "play/lobby.hpp"
#include "play/room.hpp"
#include "cluster/relay_record.hpp"
#include "shards/migrant.hpp"
#include "shards/remote_members.hpp"
#include "shards/server_state.hpp"
#include "tournaments/tournament.hpp"

namespace quarto::server::shards {

class client;

class shard final : public net::event_loop::owner,
                    public net::ws_connection::flusher,
                    public tournaments::tournament_host {
public:
    // What one shard sends another.
    struct delivery {
        play::client_ref to;
        net::frame_ptr frame; // null: a resume's mark (see resume_mark)
        bool to_watcher = false; // may wait for watcher_delay
    };

    // How long a watcher's frames may wait for others, to leave in one write: at a few events a
    // second per room nobody watching sees it, and a closed-loop room's spectators get several
    // events per write instead of one.
    static constexpr std::chrono::milliseconds watcher_delay{20};
    using task = std::function<void(shard&)>;
    using batch = std::vector<std::variant<delivery, task>>;

    shard(std::uint16_t index, server_state& state);
    ~shard();
    shard(const shard&) = delete;
    shard& operator=(const shard&) = delete;

    std::uint16_t index() const { return index_; }
    server_state& state() { return state_; }
    net::event_loop& loop() { return loop_; }
    const metrics::shard_counters& counters_view() const { return counters_; }
    const play::lobby_board& lobby_board() const { return lobby_; }

    // Runs the loop on the calling thread until stop().
    void run();
    // From any thread.
    void stop() { loop_.stop(); }

    // ---- from any thread --------------------------------------------------------------------
    // Runs `t` on this shard.
    void post(task t);

    // ---- on this shard's thread -------------------------------------------------------------
    // Runs `f`; an exception (a bug) is logged, and the loop goes on.
    template <class F>
    void guarded(F&& f);
    // A WebSocket whose handshake is done: its connection and client. `already_read`: what the
    // front read past the upgrade request, taken apart first.
    void open_websocket(int fd, std::shared_ptr<void> ticket, std::string address, std::string remote,
                        std::string already_read, std::string session = {});
    // A client moving here from another shard.
    void immigrate(migrant m);
    // Moves a local client (whose connection has been released) to `target`.
    void emigrate(client& c, std::uint16_t target, migrant m);
    // A client whose connection has ended (or moved): its slot is free at once, the object goes
    // at the end of the turn.
    void retire(client& c);

    // Queues `t` for shard `target` (this one included), in order with everything else sent
    // there during this turn.
    void forward(std::uint16_t target, task t);
    // Runs `t` now when `target` is this shard, else forwards it.
    template <class Task>
    void run_on(std::uint16_t target, Task&& t)
    {
        if (target == index_) t(*this);
        else forward(target, std::forward<Task>(t));
    }
    client* find_client(const play::client_ref& ref);

    play::room* find_room(const model::room_id& id) override;
    std::vector<play::room*> rooms_of_tournament(const model::tournament_id& tournament) override;
    // Changes whenever a room of this shard is dropped: a room pointer kept from an earlier turn
    // is valid while it has not changed.
    std::uint64_t rooms_epoch() const { return rooms_epoch_; }
    // A client's message for a room of this shard, timed for the metrics. When there is none
    // here: on a node of a cluster, the message (`text`) goes to the node that holds the room;
    // otherwise no_such_room.
    // `ask_cluster` false: no other node is asked (the cluster named this one).
    void room_request(play::room* r, const play::client_ref& from, const play::player_record& p,
                      const protocol::room_message& m, const nlohmann::json& req, std::string_view text,
                      bool ask_cluster = true);
    // A record from another node (cluster/relay_record.hpp), for a room of this shard or a
    // client of it.
    void remote_record(const cluster::relay_record& r);
    // A player's connection `c` is back in room `id` (resume on hello, or the room moved to
    // another node): its snapshot, from this shard's room or (`ask_owner`) through the room's node.
    void resume_in(const model::room_id& id, const play::client_ref& c, const play::player_record& p,
                   bool ask_owner = true);
    // After resume_in and resume_tournament_in for some places of this shard: a mark for `c`
    // that reaches it behind every frame those sent it (held with them while the journal
    // writes), so that it knows when every snapshot of its resume is out (client::resume_mark).
    void resume_mark(const play::client_ref& c);
    // On a cluster, once Redis is back after being out of reach: events between this node and
    // others may have been lost both ways, so this shard's rooms and tournaments send their
    // members of other nodes a snapshot again, and its clients' places on other nodes are asked
    // for theirs.
    void resync_across_nodes();
    // On a cluster: the player of `c` said hello with their token; every node is told (`back`),
    // so that those holding the player's rooms and tournaments give them back.
    void announce_back(const play::client_ref& c, const play::player_record& p);
    tournaments::tournament* find_tournament(const model::tournament_id& id);
    // A new room would start a game (room_host::new_games_paused): true, and `from` answered
    // `unavailable`, while new games are paused.
    bool new_games_refused(const play::client_ref& from, const nlohmann::json& req);
    // A client's message for a tournament of this shard. When there is none here: on a node of a
    // cluster, the message (`text`) goes to the node that holds it; otherwise no_such_tournament.
    void tournament_request(tournaments::tournament* t, const play::client_ref& from, const play::player_record& p,
                            const protocol::tournament_message& m, const nlohmann::json& req, std::string_view text,
                            bool ask_cluster = true);
    // A player's connection `c` is back in tournament `id`: subscribed again, with its snapshot,
    // from this shard's tournament or through the tournament's node.
    void resume_tournament_in(const model::tournament_id& id, const play::client_ref& c, const play::player_record& p,
                              bool ask_owner = true);
    // A new room on this shard, its creator seated and subscribed.
    play::room& create_room(play::room_settings settings, const play::client_ref& creator, const play::player_record& p);
    // A room of this shard brought back from its journal (startup, before the loops run).
    // False when the entries cannot be replayed (logged; the room is lost, the server goes on).
    bool restore_room(const model::room_id& id, std::span<const archive::journal_entry> entries);
    // Startup: writes what restoring the rooms journaled (their `resumed` events).
    void write_journal() { seal_journal_batch(); }
    // A new tournament on this shard (not yet opened: its creator's reply goes first), holding
    // `quota` (its places under the caps on tournaments) until it is over.
    tournaments::tournament& create_tournament(model::tournament_settings settings, const play::player_record& director,
                                               std::shared_ptr<void> quota);
    // A tournament loaded from the archive (startup, before the loops run).
    void load_tournament(model::tournament_record record);
    // A tournament of a node that died, on this shard's thread after its rooms: this node's now,
    // and the clients of every node that were in it get it again from here.
    void adopt_tournament(model::tournament_record record);
    // The `rooms` message: a page of the public rooms of every shard.
    std::string rooms_page(const protocol::page_request& page, const nlohmann::json& req) const;
    // One room's summary, public or private, whichever shard holds it; empty when unknown.
    std::string room_summary(const model::room_id& id) const;

    // A client of this shard is in `where` (or no longer), as its owner said.
    void client_subscribed(const play::client_ref& c, const play::place& where);
    void client_unsubscribed(const play::client_ref& c, const play::place& where);
    // A client of another shard has closed: it leaves `where`, which is here.
    void detach(const play::client_ref& c, const play::place& where);

    // Shutdown: closes every connection with 1012 after what is queued. The server comes back
    // (a restart, a deploy), so clients reconnect and resume rather than give up.
    static constexpr net::close_code shutdown_code = net::close_code::service_restart;
    static constexpr std::string_view shutdown_reason = "server restarting";
    void close_all();
    // The account's sessions have ended: each of its connections here closes (4001), and whoever
    // still holds a session says hello again with it.
    void close_player(const std::string& player_id);

    // When the running turn began: one clock read serves every message of the turn.
    std::chrono::steady_clock::time_point turn_time() const { return loop_.turn_time(); }

    // ---- event_loop::owner and ws_connection::flusher ---------------------------------------
    void on_wake() override;
    void end_of_turn() override;
    void on_idle() override;
    void needs_flush(net::ws_connection& c) override { dirty_.push_back(&c); }

    // ---- tournament_host (and room_host, which it extends) ------------------------------------
    instant now() const override { return state_.clock.to_instant(loop_.turn_time()); }
    std::int64_t unix_ms() const override { return play::server_clock::unix_ms(); }
    std::chrono::milliseconds abandon_after() const override { return state_.settings.abandon_after; }
    void send(const play::client_ref& to, const net::frame_ptr& f) override;
    void send_to_watcher(const play::client_ref& to, const net::frame_ptr& f) override;
    void subscribed(const play::client_ref& c, const play::place& where) override;
    void unsubscribed(const play::client_ref& c, const play::place& where) override;
    std::unique_ptr<play::alarm> make_alarm(std::function<void()> on_time) override;
    void defer(std::function<void()> t) override { deferred_.push_back(std::move(t)); }
    bool think(const bots::think_request& request, std::function<void(const solver::move&)> answer) override;
    void archive_game(const model::room_id& room, archive::game_record record) override;
    void archive_game_if_missing(const model::room_id& room, archive::game_record record) override;
    bool journaling() const override { return state_.journal != nullptr; }
    bool new_games_paused() const override;
    void journal_append(const model::room_id& room, std::int64_t n, const play::room_change& change,
                        std::string_view event) override;
    void journal_cut(const model::room_id& room, std::int64_t below_n) override;
    void lobby_changed(const model::room_id& room, const play::lobby_state& state) override;
    play::player_registry& players() override { return state_.players; }
    metrics::shard_counters& counters() override { return counters_; }
    play::room& open_game_room(play::room_settings settings, const play::player_record& first_seat,
                               const play::player_record& second_seat) override;
    void store(const model::tournament_id& id, std::string name, std::string status, std::string state,
               std::function<void()> stored) override;

private:
    class alarm_on_loop;
    struct slot {
        std::uint32_t generation = 0;
        std::unique_ptr<client> occupant;
    };

    void send_outboxes();
    // Clients of other nodes (see remote_members): what they are sent goes out at the end of
    // the turn, one PUBLISH per node.
    void relay(const std::string& node, const cluster::relay_record& r);
    void send_relayed();
    // Tells the other nodes what the lobby shows of a room of this shard (a few times a game).
    void publish_lobby(const model::room_id& id);
    using place_kind = cluster::node::place_kind;
    // A local client's message, detach or resume for a room or tournament held by another node.
    void to_owner(const play::client_ref& from, const play::place& where, cluster::relay_record r, const nlohmann::json& req);
    // A client's message sent to the owner through Redis, which named this node: it took the
    // place over meanwhile (a node stopped or died). Handled by the place's shard here.
    void handle_here(const play::client_ref& from, const play::place& where, const std::string& player, const std::string& text,
                     const nlohmann::json& req);
    // Tells every node that this node holds `where` now (it took it over): their clients that
    // were in it, or whose player is one of `people` (its seated players, or its director and
    // entrants), get it again from here.
    void announce_moved(const play::place& where, const std::vector<std::string>& people);
    // Asks the node holding `where` to resume `c` there (its snapshot comes back).
    void ask_owner_to_resume(const play::place& where, const play::client_ref& c, const play::player_record& p);
    // Tells the other nodes what the list of tournaments shows of one of this shard's, and its
    // snapshot (after each change).
    void publish_tournament(const model::tournament_id& id);
    // The journal: what a turn journals goes out as one batch at its end, and what rooms sent
    // in that turn (or while earlier batches wait) is held until the batch has committed, so
    // no event reaches anyone before its change is on disk. Batches are released in order.
    struct held_send {
        play::client_ref to;
        net::frame_ptr frame;
        bool to_watcher;
    };
    struct pending_batch {
        std::uint64_t number;
        std::vector<held_send> sends;
        std::vector<std::function<void()>> stores; // tournaments' records, likewise held
        bool writes; // false: nothing journaled, only held behind earlier batches
    };
    bool holding() const { return !journal_batch_.empty() || !pending_.empty(); }
    // The turn's entries and held sends become a batch (the entries go to the journal's thread).
    void seal_journal_batch();
    // On the journal's thread: the batch has committed (or failed); wakes this shard.
    void journal_committed(std::uint64_t number, bool ok);
    // On this shard: sends what the committed batches held, in order.
    void release_committed();
    void deliver(const play::client_ref& to, const net::frame_ptr& f, bool to_watcher);
    // Queues `f` for a local client of this shard, to be written within watcher_delay.
    void queue_for_watcher(client& c, const net::frame_ptr& f);
    void flush_watchers();
    void tick();
    void reap();
    // A tournament dropped (see tournament::close_if_deserted): out of the lists and the archive.
    void forget_tournament(const model::tournament_id& id);
    // Runs an archive write of a tournament now, or once the journal batches held have
    // committed (what led to it is on disk first, and writes keep their order).
    void after_journal(std::function<void()> write);
    play::client_ref new_slot();
    model::room_id new_room_id() const;

    const std::uint16_t index_;
    server_state& state_;
    net::event_loop loop_;
    metrics::shard_counters counters_;
    net::mailbox<batch> inbox_;
    std::vector<batch> outboxes_; // by target shard, sent at the end of the turn

    std::vector<slot> slots_;
    std::vector<std::uint32_t> free_slots_;
    std::unordered_map<model::room_id, std::unique_ptr<play::room>> rooms_;
    remote_members remote_{index_};
    std::unordered_map<std::string, std::string> relayed_; // records by node, sent at the end of the turn
    std::unordered_map<model::tournament_id, std::unique_ptr<tournaments::tournament>> tournaments_;
    play::lobby_board lobby_;
    std::uint64_t rooms_epoch_ = 0; // bumped when a room is dropped (see client::local_room)

    std::unique_ptr<play::alarm> tick_; // once a second: keep-alive pings, idle rooms, reaping
    std::chrono::steady_clock::time_point next_sweep_;
    std::vector<net::ws_connection*> dirty_;      // connections with frames to write this turn
    std::vector<play::client_ref> watchers_;      // clients with frames that may wait (see watcher_delay)
    std::unique_ptr<play::alarm> watchers_due_;   // when the oldest of them must go
    std::vector<std::function<void()>> deferred_; // run at the end of the turn, before writing
    std::vector<std::unique_ptr<client>> ended_;  // freed at the end of the turn, when no event can name them

    archive::journal_batch journal_batch_;             // this turn's entries
    std::vector<held_send> held_;                      // this turn's sends, while holding()
    std::vector<held_send> spare_sends_;               // a released batch's, for reuse
    std::vector<std::function<void()>> held_stores_;   // this turn's tournament stores, likewise
    std::deque<pending_batch> pending_;                // sealed, oldest first
    std::uint64_t next_batch_ = 1;
    // Set by the journal's thread: the last batch committed, how many failed, and whether a
    // wake-up for them is on its way (one eventfd write however many commits it covers).
    std::atomic<std::uint64_t> committed_through_{0};
    std::atomic<std::uint64_t> journal_failures_{0};
    std::atomic<bool> commit_signalled_{false};
    std::uint64_t journal_failures_seen_ = 0;
    bool close_when_released_ = false; // close_all() waits for the pending batches

    // Rooms with finished games on their way to the archive, and the highest cut of their
    // journal asked for meanwhile (0: none), made once the archive has them all.
    struct archiving_room {
        std::size_t games = 0;
        std::int64_t cut = 0;
    };
    std::unordered_map<model::room_id, archiving_room> archiving_;
    // Counts a game of `room` sent to the archive; the answer comes back here.
    std::function<void(bool)> archiving(const model::room_id& room);
    void archived(const model::room_id& room);
};

// A node whose rooms another node has taken over (it was cut off from Redis longer than its
// lease, or paused): it must not serve them a moment longer, nor write them anywhere. It stops
// at once, as a crash would (exit code 3); its supervisor starts it again, and its clients
// reconnect to the node that holds the rooms now.
[[noreturn]] void stop_fenced_node(const std::string& node);

template <class F>
void shard::guarded(F&& f)
{
    try {
        f();
    } catch (const std::exception& e) { // a bug: keep the loop and the process alive
        spdlog::error("shard {}: {}", index_, e.what());
    }
}

} // namespace quarto::server::shards
