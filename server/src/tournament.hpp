// One tournament: registration, rounds, the rooms of its games, results and standings. All
// state is touched only on the tournament's strand; public methods post there and return. The
// record is stored in the archive after every change, so a restart loses nothing but the games
// in progress, which are replayed when the director resumes.
#pragma once

#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "connection.hpp"
#include "net.hpp"
#include "player_registry.hpp"
#include "quarto/core/tournament/pairing.hpp"
#include "quarto/core/tournament/standings.hpp"
#include "quarto/protocol/messages.hpp"
#include "quarto/protocol/tournament.hpp"
#include "server_context.hpp"

namespace quarto::server {

// The pairing and scoring rules in core (the class below takes the name `tournament` here).
namespace scoring = ::quarto::tournament;

class tournament : public std::enable_shared_from_this<tournament> {
public:
    using player_ptr = std::shared_ptr<const player_record>;
    using json = nlohmann::json;

    tournament(net::io_context& ioc, protocol::tournament_record record, server_context& context);

    const protocol::tournament_id& id() const { return id_; }
    // Safe from any thread: the lobby's line and the full snapshot (GET /api/tournaments/{id}).
    json summary() const;
    std::shared_ptr<const std::string> snapshot_text() const;

    // A new tournament: subscribes the director, stores it, arms the start time.
    void open(connection_ptr director_connection, player_ptr director);
    // Loaded from the archive at startup: a running tournament comes back paused, its
    // unfinished games to be replayed when the director resumes.
    void reopen();

    // join, withdraw, start, pause, resume, remove_player, watch, unwatch.
    void handle(connection_ptr c, player_ptr p, protocol::client_message message, json req);
    // A player back on a new connection: subscribed again, and sent the snapshot.
    void resubscribe(connection_ptr c, player_ptr p);
    // The connection has closed.
    void detach(connection_ptr c);
    // Only once the io_context has stopped: lets go of the subscribed connections, which hold
    // the tournament too (see room::release_connections).
    void release_connections() { subscribers_.clear(); }

private:
    struct subscriber {
        connection_ptr conn;
        std::string player_id; // empty for a watcher who is neither player nor director
    };

    template <class Handler>
    void on_strand(Handler handler);

    void join(const connection_ptr& c, const player_ptr& p, const json& req);
    void withdraw(const connection_ptr& c, const player_ptr& p, const json& req);
    void start(const connection_ptr& c, const json& req);
    void pause(const connection_ptr& c, const json& req);
    void resume(const connection_ptr& c, const json& req);
    void remove(const connection_ptr& c, const std::string& player_id, const json& req);

    void begin();
    // Starts rounds until one has games to play, or the tournament is over.
    void advance();
    void begin_round();
    void start_game(std::size_t pairing_index, bool first_game);
    void replay_unfinished_games();
    void on_game_over(const std::string& room_id, const game_result& result, const std::string& game_id);
    void forfeit_games_of(int player);
    bool round_complete() const;
    int total_rounds() const;
    std::vector<scoring::game_outcome> outcomes() const;
    std::vector<scoring::standing> standings() const;
    int index_of(const std::string& player_id) const;

    void subscribe(const connection_ptr& c, const std::string& player_id);
    // Stores the record, refreshes the cached views and sends the snapshot to every
    // subscriber; the requester's copy carries `req`.
    void changed(const connection_ptr& requester = nullptr, const json& req = nullptr);
    void send_snapshot(const connection_ptr& c, const json& req);
    void send_error(const connection_ptr& c, protocol::error_code code, std::string_view message, const json& req);
    void persist();
    void arm_start_timer();

    const protocol::tournament_id id_;
    server_context& context_;
    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer start_timer_;
    protocol::tournament_record record_;
    std::vector<subscriber> subscribers_;
    std::vector<scoring::round_pairings> schedule_; // round robin: every round, fixed at the start
    std::uint64_t seq_ = 0;
    std::mt19937 coin_;

    mutable std::mutex views_mutex_;
    json summary_;
    std::shared_ptr<const std::string> snapshot_;
};

} // namespace quarto::server
