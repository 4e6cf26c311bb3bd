// One tournament: registration, rounds, the rooms of its games, results and standings. It lives
// on one shard (with the rooms of its games) and is touched only by that shard's thread; it
// reaches the world through its tournament_host. The record is stored after every change (and
// after the journal has the room changes that led to it); the games in progress come back from
// the journal with their rooms, and only those that do not (a server run with --journal off)
// are replayed, when the director resumes.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "quarto/core/tournament/pairing.hpp"
#include "quarto/core/tournament/standings.hpp"
#include "quarto/protocol/messages.hpp"
#include "quarto/model/tournament.hpp"
#include "tournaments/tournament_host.hpp"
#include "tournaments/tournament_views.hpp"

namespace quarto::server::tournaments {

// The pairing and scoring rules in core.
namespace scoring = ::quarto::tournament;

class tournament {
public:
    using json = nlohmann::json;

    // A registering tournament with no player whose director has left is dropped after this.
    static constexpr std::chrono::minutes deserted_after{10};

    // `quota`: its places under the caps on tournaments per director and address, held until
    // it is over.
    tournament(tournament_host& host, model::tournament_record record, std::shared_ptr<tournament_views> views,
               std::shared_ptr<void> quota = {});
    tournament(const tournament&) = delete;
    tournament& operator=(const tournament&) = delete;

    const model::tournament_id& id() const { return id_; }
    std::int64_t created_ms() const { return record_.created_ms; }

    // A new tournament: subscribes the director, stores it, arms the start time.
    void open(const play::client_ref& director_connection, const play::player_record& director);
    // Loaded from the archive at startup, before anyone can connect: its people find it again
    // when they resume (the player registry links them to it).
    void link_people();
    // Then, after the rooms came back from the journal: the games in progress report to it
    // again. If any did not come back, a running tournament comes back paused, those games to
    // be replayed when the director resumes.
    void reopen();

    // join, withdraw, start, pause, resume, remove_player, watch, unwatch, add_bot.
    void handle(const play::client_ref& c, const play::player_record& p, const protocol::tournament_action& action,
                const json& req);
    // Its director and every entrant, by id.
    std::vector<std::string> people() const;
    // A player back on a new connection: subscribed again, and sent the snapshot.
    void resubscribe(const play::client_ref& c, const play::player_record& p);
    // Every subscriber for whom `to` holds gets the snapshot again (see room::resend_snapshots).
    void resend_snapshots(const std::function<bool(const play::client_ref&)>& to);
    // The connection has closed.
    void detach(const play::client_ref& c);
    // A player or the director took a new name: the tables show it (stored, then sent).
    void rename(const model::player_info& renamed);
    // Called now and then: true when the tournament has been registering with no player and
    // no director connected for `after`. Its subscribers are then told it is closed and its
    // people forget it; the caller drops it.
    bool close_if_deserted(std::chrono::milliseconds after = deserted_after);

private:
    struct subscriber {
        play::client_ref client;
        std::string player_id; // empty for a watcher who is neither player nor director
    };

    void join(const play::client_ref& c, const play::player_record& p, const json& req);
    void withdraw(const play::client_ref& c, const play::player_record& p, const json& req);
    void start(const play::client_ref& c, const json& req);
    void pause(const play::client_ref& c, const json& req);
    void resume(const play::client_ref& c, const json& req);
    void remove(const play::client_ref& c, const std::string& player_id, const json& req);
    void add_bot(const play::client_ref& c, const model::bot_opponent& opponent, const json& req);

    void begin();
    // A rated tournament's start: each entrant's rating now, and the field ordered by it.
    void seed_by_rating();
    // Pairs rounds until one has games to play or waits for its start time, or the tournament
    // is over.
    void advance();
    // The next round's pairings; a removed player's games in it are forfeits at once.
    void pair_round();
    // Opens the rooms of the last round's games.
    void start_round();
    void start_game(std::size_t pairing_index, bool first_game);
    void replay_unfinished_games();
    // Links the restored rooms of the current round's unfinished games back to this tournament;
    // the number of those games whose room did not come back.
    int relink_unfinished_games();
    play::tournament_link::result_callback result_callback(const model::room_id& room);
    // A restored room of this tournament's that no game of the record has, seating these two.
    play::room* claim_restored_room(const std::string& first_player, const std::string& second_player);
    void on_game_over(const std::string& room_id, const game_result& result, const std::string& game_id);
    void forfeit_games_of(int player);
    bool round_complete() const;
    int total_rounds() const;
    std::vector<scoring::game_outcome> outcomes() const;
    std::vector<scoring::standing> standings() const;
    int index_of(const std::string& player_id) const;

    void subscribe(const play::client_ref& c, const std::string& player_id);
    void unsubscribe(const play::client_ref& c);
    // Stores the record, refreshes the views and, once the archive has the record, sends the
    // snapshot to every subscriber; the requester's copy carries `req`.
    void changed(const play::client_ref* requester = nullptr, const json& req = nullptr);
    void send_snapshot(const play::client_ref& c, const json& req);
    void send_error(const play::client_ref& c, protocol::error_code code, std::string_view message, const json& req);
    // `stored` runs on this loop once the archive has the record.
    void persist(std::function<void()> stored);
    void arm_start_timer();
    void on_start_time();

    // The pause between rounds (round_pause.cpp).
    bool round_waiting() const;
    // The last round starts round_pause_seconds from now: its time is set, the timer armed and
    // its players told (once the record is stored).
    void schedule_round();
    void arm_round_timer();
    void on_round_time();

    tournament_host& host_;
    const model::tournament_id id_;
    model::tournament_record record_;
    std::shared_ptr<tournament_views> views_;
    std::unique_ptr<play::alarm> start_timer_; // the start time set at creation, if any
    std::unique_ptr<play::alarm> round_timer_; // the start of a round that waits, while running
    std::vector<subscriber> subscribers_;
    std::vector<scoring::round_pairings> schedule_; // round robin: every round, fixed at the start
    std::uint64_t seq_ = 0;
    std::mt19937 coin_;
    net::frame_ptr snapshot_; // the last snapshot (without req), as sent to subscribers
    // Events for one player's connections, sent with the next stored snapshot: {player id, frame}.
    std::vector<std::pair<std::string, net::frame_ptr>> notices_;
    std::vector<model::room_id> unclaimed_rooms_; // see relink_unfinished_games
    std::shared_ptr<void> quota_;
    std::optional<instant> deserted_since_; // see close_if_deserted
};

} // namespace quarto::server::tournaments
