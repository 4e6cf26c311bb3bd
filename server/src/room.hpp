// One room: two seats, spectators, and the authoritative game. All state is touched only on
// the room's strand; public methods post there and return at once.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

#include "connection.hpp"
#include "net.hpp"
#include "player_registry.hpp"
#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/messages.hpp"
#include "quarto/protocol/game_events.hpp"
#include "server_context.hpp"

namespace quarto::server {

// A tournament's game: the tournament seats both players, the game starts at once (a player
// who never shows up loses on time), there is no rematch, and the result goes back.
struct tournament_link {
    std::string tournament;
    std::optional<seat> first; // who gives first; nullopt: the coin decides
    // Called on the room's strand when the game ends; `game_id` names its archive record.
    std::function<void(const game_result&, const std::string& game_id)> on_result;
};

struct room_settings {
    std::string name;
    rules game_rules;
    clock_settings clock;
    bool is_private = false;
    std::optional<tournament_link> tournament;
};

class room : public std::enable_shared_from_this<room> {
public:
    using player_ptr = std::shared_ptr<const player_record>;
    using json = nlohmann::json;

    // Recent events kept for `sync`; older requests get a snapshot instead.
    static constexpr std::size_t ring_capacity = 256;

    room(net::io_context& ioc, protocol::room_id id, room_settings settings, server_context& context);

    const protocol::room_id& id() const { return id_; }
    bool is_private() const { return settings_.is_private; }
    // The lobby's view, safe to read from any thread. Built when asked for (the lobby asks far
    // less often than games start and end) and kept until the room changes.
    json summary() const;

    // Seats the creator at seat 0. Only before the room is visible to any other thread (the
    // registry calls it before publishing the room), so no joiner can take the seat first.
    void seat_creator(const connection_ptr& c, const player_ptr& p);
    // Seats both players of a tournament game and starts it; same precondition.
    void seat_pair(const player_ptr& first_seat, const player_ptr& second_seat);
    // The tournament removed this player: they resign the game in progress.
    void forfeit(const std::string& player_id);
    void join(connection_ptr c, player_ptr p, bool as_spectator, json req);
    void leave(connection_ptr c, player_ptr p, json req);
    // A player back on a new connection (hello with token): re-attach and send the snapshot.
    void resume(connection_ptr c, player_ptr p);
    // The connection has closed.
    void detach(connection_ptr c);
    // give, place, quarto, pass, resign, rematch.
    void act(connection_ptr c, player_ptr p, protocol::client_message message, json req);
    void sync(connection_ptr c, player_ptr p, std::uint64_t since, json req);
    // Closes the room when finished or deserted for `idle`; `remove` takes it out of the registry.
    void reclaim_if_idle(std::chrono::seconds idle);
    // Only once the io_context has stopped (no handler can run any more): lets go of the
    // connections still attached. They hold the room too; a client dropped at the end of the
    // shutdown grace never detached, and the cycle would outlive the server.
    void release_connections() { attachments_.clear(); }

private:
    struct attachment {
        connection_ptr conn;
        std::string player_id;
    };

    template <class Handler>
    void on_strand(Handler handler);

    std::optional<seat> seat_of(const std::string& player_id) const;
    bool spectating(const std::string& player_id) const;
    bool attached(const connection_ptr& c) const;
    bool has_connection(const std::string& player_id) const;
    void attach(const connection_ptr& c, const player_ptr& p);

    void start_game();
    void apply(const connection_ptr& c, seat s, const protocol::client_message& message, const json& req);
    void game_finished();
    // Hands the finished game to the archive, which writes it on its own thread.
    void archive_game();
    void arm_timer();
    void on_deadline();

    // Stamps the event with the room and the next seq, then publishes it.
    void broadcast(json event, const connection* except = nullptr);
    // The stamp of the next event; for events written straight to text (game_events.hpp).
    protocol::event_stamp next_stamp() { return {id_, ++seq_}; }
    // Keeps the stamped event for `sync` and sends it to every attached connection but `except`:
    // serialized once, shared by all.
    void publish(std::string event, const connection* except = nullptr);
    void send_snapshot(const connection_ptr& c, const std::string& player_id, const json& req);
    void send_error(const connection_ptr& c, protocol::error_code code, std::string_view message, const json& req);
    std::array<std::optional<protocol::seat_info>, 2> seat_view() const;
    // What the protocol shows of this room; `seats` (from seat_view) must outlive the result.
    protocol::room_view view(const std::array<std::optional<protocol::seat_info>, 2>& seats) const;
    std::string_view tournament_id() const
    {
        return settings_.tournament ? std::string_view{settings_.tournament->tournament} : std::string_view{};
    }
    // Tells the lobby what changed (on the strand).
    void refresh_summary();
    void set_status(protocol::room_status s);

    const protocol::room_id id_;
    const room_settings settings_;
    server_context& context_;
    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer deadline_timer_; // fires at the game's next deadline (move clock or claim window)

    std::array<std::optional<protocol::player_info>, 2> seats_;
    std::vector<protocol::player_info> spectators_;
    std::vector<attachment> attachments_;
    std::optional<game> game_;
    std::string game_id_;                                // the archive id of game_, fresh per game
    std::array<protocol::player_info, 2> game_players_;  // who sat down when game_ started
    std::int64_t game_started_unix_ms_ = 0;
    protocol::room_status status_ = protocol::room_status::waiting;
    std::array<bool, 2> rematch_wanted_{};
    std::uint64_t seq_ = 0;
    std::deque<std::shared_ptr<const std::string>> recent_; // events seq_-size+1 .. seq_
    std::mt19937 coin_;
    std::chrono::steady_clock::time_point last_activity_;
    bool closed_ = false;

    // What the lobby shows that changes; the rest of the summary is the room's constant settings.
    struct lobby_state {
        protocol::room_status status = protocol::room_status::waiting;
        std::array<std::optional<protocol::seat_info>, 2> seats;
        int spectators = 0;
    };
    mutable std::mutex summary_mutex_;
    lobby_state lobby_;                   // guarded by summary_mutex_
    mutable std::optional<json> summary_; // guarded by summary_mutex_; empty when stale
};

} // namespace quarto::server
