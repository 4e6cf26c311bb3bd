// One room: two seats, spectators, and the authoritative game. It lives on one shard and is
// touched only by that shard's thread; it reaches the world through its room_host. Clients
// are named by client_ref (the room never owns a connection); the room keeps the list of those
// it sends its events to, and tells the host as it changes.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "play/room_change.hpp"
#include "play/room_host.hpp"
#include "quarto/core/solver/position.hpp"
#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/game_events.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::play {

// The refusal (`unavailable`) of whatever would start a game while room_host::new_games_paused.
inline constexpr std::string_view new_games_paused_message =
    "No new game can start right now: the server cannot store games (its database is out of reach). "
    "Please try again in a moment.";

// A tournament's game: the tournament seats both players, the game starts at once (a player
// who never shows up loses on time), there is no rematch, and the result goes back.
struct tournament_link {
    std::string tournament;
    std::optional<seat> first; // who gives first; nullopt: the coin decides
    // Runs (deferred, on the room's thread) once the game has ended; `game_id` names its
    // archive record.
    using result_callback = std::function<void(const game_result&, const std::string& game_id)>;
    result_callback on_result;
};

struct room_settings {
    std::string name;
    rules game_rules;
    clock_settings clock;
    bool is_private = false;
    std::optional<tournament_link> tournament;
    // The computer plays in `bot_seat`: seat 1 in a room created against it (the creator has
    // seat 0), either seat in a tournament's game; none: the seats are people's.
    std::optional<model::bot_opponent> bot;
    // Held while the room is open: its place under the cap on rooms per address.
    std::shared_ptr<void> creator_quota;
    seat bot_seat = 1; // see bot
    // Its games change the players' ratings (rating::pool_of the rules and clock): only
    // accounts take its seats.
    bool rated = false;
};

class room {
public:
    using json = nlohmann::json;

    // Recent events kept for `sync`; older requests get a snapshot instead.
    static constexpr std::size_t ring_capacity = 256;

    room(room_host& host, model::room_id id, room_settings settings);
    // A room brought back from its journal entries (in order), as it stood at the last one,
    // its game's clocks as they were then; then everyone gets `resumed`. Null, with `problem`
    // said, for entries this code cannot replay.
    static std::unique_ptr<room> restore(room_host& host, model::room_id id,
                                         std::span<const archive::journal_entry> entries, std::string& problem);
    room(const room&) = delete;
    room& operator=(const room&) = delete;

    const model::room_id& id() const { return id_; }
    // The tournament whose game this is, if any.
    const tournament_link* tournament() const { return settings_.tournament ? &*settings_.tournament : nullptr; }
    bool is_private() const { return settings_.is_private; }
    bool rated() const { return settings_.rated; }
    // What the lobby shows, the fixed part and the changing part.
    lobby_listing listing() const;
    lobby_state lobby() const;

    // Seats the creator at seat 0 and subscribes its connection (no reply: the caller sends
    // room_created, then the snapshot follows). With a bot opponent, the bot takes seat 1 at
    // once and the game starts at the end of the turn, after the snapshot.
    void seat_creator(const client_ref& c, const player_record& p);
    // Seats both players of a tournament game and starts it.
    void seat_pair(const player_record& first_seat, const player_record& second_seat);
    // The tournament removed this player: they resign the game in progress.
    void forfeit(const std::string& player_id);
    // A restored tournament game's result goes back to its tournament, loaded again: at once
    // (deferred) when the game ended before the restart. False when this room is not a game
    // of `tournament`.
    bool relink(const std::string& tournament, tournament_link::result_callback on_result);

    // A client's message for this room: join, leave, sync, or a game action.
    void handle(const client_ref& from, const player_record& p, const protocol::room_action& action, const json& req);
    // A player back on a new connection (hello with token), or a tournament player's connection
    // taken to their game: subscribe it and send the snapshot.
    void resume(const client_ref& c, const player_record& p);
    // Every subscriber for whom `to` holds gets the snapshot again: it may have missed events
    // (a client of another node of a cluster, while Redis was out of reach).
    void resend_snapshots(const std::function<bool(const client_ref&)>& to);
    // The connection has closed.
    void detach(const client_ref& c);
    // A player in the room took a new name: everyone is told (player_renamed), the seat keeps it.
    void rename(const model::player_info& renamed);
    // Closes the room when it is empty, or finished or deserted for `idle`: everyone subscribed
    // gets room_closed. A game both players have left for `idle` first ends, lost by `abandoned`
    // by whoever left first. True when it has closed (the host then drops it).
    bool reclaim_if_idle(std::chrono::milliseconds idle);

private:
    struct subscriber {
        client_ref client;
        std::string player_id;
    };

    std::optional<seat> seat_of(const std::string& player_id) const;
    bool spectating(const std::string& player_id) const;
    bool subscribed(const client_ref& c) const;
    bool has_connection(const std::string& player_id) const;
    void subscribe(const client_ref& c, const player_record& p);

    void join(const client_ref& c, const player_record& p, bool as_spectator, const json& req);
    void leave(const client_ref& c, const player_record& p, const json& req);
    void sync(const client_ref& c, const player_record& p, std::uint64_t since, const json& req);
    // A seated player's game action; `c` is null for the bot, whose refusals are logged. True
    // when the game accepted it.
    bool act(const client_ref* c, seat s, const protocol::room_action& action, const json& req);
    void rematch(const client_ref& c, seat s, const json& req);
    void claim_victory(const client_ref& c, seat s, const json& req);
    // A seated player away from a game in progress: in how many ms (0: now) the opponent may
    // claim the win; nullopt when they are here or no game is on.
    std::optional<std::int64_t> claim_victory_in_ms(seat s) const;
    // A join has just started a game: a seated player with no connection may be claimed against
    // at once, and everyone is told so (disconnected, claim_victory_in_ms 0).
    void announce_absent_at_start();
    void end_if_deserted(std::chrono::milliseconds idle);
    // A waiting room whose one seated player has had no connection for `grace`: nobody is left
    // to play in it.
    bool host_gone(std::chrono::milliseconds grace) const;
    void rename_seat(seat s, const std::string& name);

    void start_game();
    // `cause`: the change that ended the game, journaled with game_over; an event_only when the
    // change that ended it has been journaled with its own event already.
    void game_finished(const room_change& cause);
    // Adds the finished game's result to the running score.
    void count_result();
    // ---- ratings (room_rating.cpp) ----
    // A player sits down: the rating shown beside their name, and in a rated room the one their
    // games start from.
    void seat_rating(seat s, const player_record& p);
    // A rated game has ended (live or replayed): both seats' new ratings, the same either way,
    // kept for its game_over and its archive record. Nothing before its first placement: a
    // game that never got going counts for no one.
    void rate_game();
    // What a take_seat journals of seat `s`'s rating: a rated room's only.
    std::optional<archive::stored_rating> rated_seat(seat s) const;
    // The game_over's "ratings" of the game just rated; null for an unrated one.
    const std::array<protocol::rating_change, 2>* shown_rating_changes() const;
    // Seat `s` empties; between games the room waits for a new opponent.
    void vacate(seat s);
    void archive_game();
    // On restore: a finished game the journal holds is stored unless the archive has it (the
    // process may have died between the game's end and its archive commit).
    void archive_replayed_game();
    // The room id its games are archived with: none for a private room, whose id is the key to
    // it and the archive's API is public.
    std::string archived_room_id() const { return settings_.is_private ? std::string{} : id_; }
    void arm_timer();
    void on_deadline();

    // A frame for the next event, stamped with the room and the next seq.
    protocol::event_stamp next_stamp() { return {id_, ++seq_}; }
    // Journals `change` with the event, keeps the event for `sync` and sends it to every
    // subscriber but `except`.
    void publish(net::frame_ptr event, const room_change& change, const client_ref* except = nullptr);
    void publish(std::string event, const room_change& change, const client_ref* except = nullptr);
    // The game's time now (ms since it started), while a game is on.
    std::optional<std::int64_t> game_time() const;
    change::event_only event_only() const { return {game_time()}; }
    // Journaling: a step for this room (nothing when it keeps no journal).
    void journal(const room_change& c, std::string_view event = {});
    // A summary of the room as it stands, and the cut of every entry before it.
    void journal_summary();
    // Replays one journal entry (restore); `base` is the instant the game's time counts from.
    bool replay(const room_change& c, instant base);
    void send_snapshot(const client_ref& c, const std::string& player_id, const json& req);
    void send_error(const client_ref& c, protocol::error_code code, std::string_view message, const json& req);
    // The same for an action that may be the bot's (null `c`): a bot's refusal is a bug, logged.
    void refuse(const client_ref* c, protocol::error_code code, std::string_view message, const json& req);

    // ---- the computer opponent (room_bot.cpp) ----
    struct bot_turn;
    void bot_init();
    bool bot_in(seat s) const;
    // Seats the bot (seat_creator); the game starts once the creator has its snapshot.
    void seat_bot();
    // Called after every change of the game: when the bot is to act and has not been asked
    // about this moment yet, asks the pool; otherwise forgets whatever it was doing.
    void bot_poke();
    void bot_ask();
    // The pool's answer, on this room's loop; dropped when the game has moved on since.
    void bot_answered(std::uint64_t serial, const solver::move& m);
    // Plays the answer once the delay is over (the wake alarm), through act().
    void bot_play();
    void bot_wake();
    // The human asked for a rematch: the bot asks too.
    void bot_accepts_rematch();
    // Once the creator has its snapshot, or after a restore: the game starts if both seats are
    // taken and none is on, and the bot thinks if it is its turn.
    void bot_resume();
    // Runs `task` at the end of this turn, unless the room has been dropped by then.
    void defer_while_open(std::function<void()> task);
    std::array<std::optional<model::seat_info>, 2> seat_view() const;
    // What the protocol shows of this room; `seats` (from seat_view) must outlive the result.
    protocol::room_view view(const std::array<std::optional<model::seat_info>, 2>& seats) const;
    // Tells the lobby what it shows may have changed.
    void lobby_changed();
    void set_status(model::room_status s);
    void touch() { last_activity_ = host_.now(); }

    room_host& host_;
    const model::room_id id_;
    const room_settings settings_;
    std::unique_ptr<alarm> deadline_; // the game's next deadline (move clock or claim window)

    std::array<std::optional<model::player_info>, 2> seats_;
    std::array<std::optional<instant>, 2> away_since_; // a seated player with no connection, since
    std::array<bool, 2> absent_at_start_{}; // had no connection when the game started, and still has none
    std::vector<model::player_info> spectators_;
    std::vector<subscriber> subscribers_;
    std::optional<game> game_;
    std::string game_id_;                               // the archive id of game_, fresh per game
    std::array<model::player_info, 2> game_players_; // who sat down when game_ started
    // A rated room's: the rating each seat's player brings to the next game, and the last
    // finished game's changes (none when it was not rated).
    std::array<archive::stored_rating, 2> seat_ratings_{};
    std::optional<archive::game_ratings> game_ratings_;
    std::array<protocol::rating_change, 2> shown_changes_{};
    std::int64_t game_started_unix_ms_ = 0;
    model::room_status status_ = model::room_status::waiting;
    std::array<bool, 2> rematch_wanted_{};
    model::room_score score_; // since the two seated players sat down together
    std::uint64_t seq_ = 0;
    std::array<net::frame_ptr, ring_capacity> recent_; // event n at recent_[n % ring_capacity]
    std::uint64_t ring_start_ = 1; // no event before it is kept (a restored room's start)
    // Who starts each game, and the bot's misses: 8 bytes, seeded from the system's random
    // source. A std::mt19937 is 5 KB in every room, and seeding it was a tenth of a restore.
    std::minstd_rand coin_;
    instant last_activity_;
    lobby_state shown_; // what the lobby was last told
    bool closed_ = false;
    tournament_link::result_callback report_result_; // a tournament game's
    const bool journaled_;
    std::int64_t journal_n_ = 0; // the last journal entry's n
    // The bot's state when settings_.bot; shared so that an answer from the pool, or a task
    // deferred to the end of the turn, finds it gone (through a weak_ptr) once the room is dropped.
    std::shared_ptr<bot_turn> bot_;
    bool bot_acting_ = false; // the bot's own actions are under way: no new question meanwhile
};

} // namespace quarto::server::play
