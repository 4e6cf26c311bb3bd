// A host for rooms and tournaments in one process, without a loop, a socket or a clock read:
// a manual clock whose alarms fire in time order as the shard's timer queue fires them, every
// frame sent recorded per client (and parsed as JSON), the places each client is in, the
// deferred tasks (run when the test says, as the shard runs them at the end of a turn), the
// archived games, the lobby's states and the stored tournaments.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "play/room.hpp"
#include "play/room_host.hpp"
#include "tournaments/tournament.hpp"
#include "tournaments/tournament_host.hpp"

namespace quarto::server::testing {

using json = nlohmann::json;

class fake_host final : public tournaments::tournament_host {
public:
    // The wall clock (unix_ms) at instant 0 of the manual clock; both move together.
    static constexpr std::int64_t unix_at_zero = 1'795'000'000'000;

    // Quiets the rooms' and tournaments' info lines (a game started, over, reclaimed): the
    // tests read frames, not logs.
    fake_host();
    ~fake_host() override;
    fake_host(const fake_host&) = delete;
    fake_host& operator=(const fake_host&) = delete;

    // ---- clients ----------------------------------------------------------------------------
    // A new connection's handle (a slot never used before).
    play::client_ref connect();

    // Every frame sent to `c`, in order, parsed.
    const std::vector<json>& frames(const play::client_ref& c) const;
    // The frames sent to `c` since the last take (or since it connected).
    std::vector<json> take(const play::client_ref& c);
    // The payload of every frame sent to `c`, exactly as sent.
    const std::vector<std::string>& payloads(const play::client_ref& c) const;
    // One line per frame sent to `c`, for INFO on failure.
    std::string transcript(const play::client_ref& c) const;
    // Every frame sent to anyone, for INFO on failure.
    std::string transcript() const;

    // Where `c` is subscribed, as the room and tournament said (subscribed/unsubscribed).
    std::vector<play::place> places(const play::client_ref& c) const;
    bool in_room(const play::client_ref& c, const std::string& room_id) const;
    // How many of the frames `c` got were sent as to a watcher.
    std::size_t sent_to_watcher(const play::client_ref& c) const;
    bool in_tournament(const play::client_ref& c, const std::string& tournament_id) const;

    // ---- time ---------------------------------------------------------------------------------
    // Moves the clock on by `d`, firing every alarm that comes due on the way, earliest first,
    // each at its own instant and in a turn of its own (its deferred tasks run after it). An
    // alarm set again from its callback fires again if its new time is within the advance.
    void advance(milliseconds d);
    void advance_to(instant t);
    // Moves the clock on without firing anything: a timer that has not fired yet although its
    // time has come (a message read in the same turn, before the loop's timer).
    void skew(milliseconds d) { now_ += d; }
    // The earliest armed alarm's time.
    std::optional<instant> next_alarm() const;
    std::size_t armed_alarms() const;
    std::size_t alarms() const { return alarms_.size(); }

    // ---- deferred tasks -----------------------------------------------------------------------
    // Runs the deferred tasks, and those they defer, until none is left; how many ran.
    std::size_t run_deferred();
    std::size_t deferred_pending() const { return deferred_.size(); }

    // ---- what was stored and shown ------------------------------------------------------------
    const std::vector<archive::game_record>& archived() const { return archived_; }
    struct lobby_update {
        model::room_id room;
        play::lobby_state state;
    };
    const std::vector<lobby_update>& lobby_updates() const { return lobby_updates_; }
    // What the lobby was last told of `room`.
    std::optional<play::lobby_state> lobby_of(const model::room_id& room) const;
    struct stored_tournament {
        model::tournament_id id;
        std::string name;
        std::string status;
        json state;
    };
    const std::vector<stored_tournament>& stored() const { return stored_; }

    // ---- rooms --------------------------------------------------------------------------------
    // A room with its creator seated, as a create_room message makes it (the creator's
    // connection gets the snapshot).
    play::room& create_room(play::room_settings settings, const play::client_ref& creator, const play::player_record& p);
    // The shard's sweep: closes the rooms reclaim_if_idle closes, and drops them. Their ids.
    std::vector<model::room_id> sweep(milliseconds idle);
    const std::map<model::room_id, std::unique_ptr<play::room>>& rooms() const { return rooms_; }
    // The room ids in the order open_game_room made them.
    const std::vector<model::room_id>& game_rooms() const { return game_rooms_; }

    // ---- the journal --------------------------------------------------------------------------
    // Rooms made from now on keep a journal (as with --journal on); the steps are applied to an
    // in-memory table as the archive's journal applies them to its file.
    void enable_journal() { journaling_ = true; }
    // The room's entries as the journal holds them now, in order.
    std::vector<archive::journal_entry> journal_of(const model::room_id& room) const;
    std::size_t journal_steps() const { return journal_steps_; }
    // A room brought back from entries (another host: another process), and kept here.
    play::room& restore_room(const model::room_id& id, const std::vector<archive::journal_entry>& entries);
    // Moves the clock to `t` without firing anything (a new process's clock).
    void set_clock(instant t) { now_ = t; }

    // ---- the computer opponent's thinking ------------------------------------------------------
    // A question a room put to the bot pool, with the way to answer it (on this host's "loop").
    struct question {
        bots::think_request request;
        std::function<void(const solver::move&)> answer;
    };
    // With a thinker every question is answered with its move at the end of the turn (the
    // pool's answer comes back through the mailbox, never within think()); without one the
    // questions wait in questions() for the test to answer, late or never.
    void set_thinker(std::function<solver::move(const bots::think_request&)> thinker) { thinker_ = std::move(thinker); }
    // The pool's queue is full: think() refuses, and counts the refusal.
    void set_pool_full(bool full) { pool_full_ = full; }
    std::vector<question>& questions() { return questions_; }
    std::size_t questions_asked() const { return questions_asked_; }
    std::size_t questions_refused() const { return questions_refused_; }

    // ---- tournament_host (and room_host, which it extends) ------------------------------------
    instant now() const override { return now_; }
    std::int64_t unix_ms() const override { return unix_at_zero + now_.time_since_epoch().count(); }
    void send(const play::client_ref& to, const net::frame_ptr& f) override;
    // Recorded like send(), and counted: the frames the room let wait (a watcher's).
    void send_to_watcher(const play::client_ref& to, const net::frame_ptr& f) override;
    void subscribed(const play::client_ref& c, const play::place& where) override;
    void unsubscribed(const play::client_ref& c, const play::place& where) override;
    std::unique_ptr<play::alarm> make_alarm(std::function<void()> on_time) override;
    void defer(std::function<void()> task) override { deferred_.push_back(std::move(task)); }
    bool think(const bots::think_request& request, std::function<void(const solver::move&)> answer) override;
    void archive_game(const model::room_id& room, archive::game_record record) override
    {
        (void)room;
        archived_.push_back(std::move(record));
    }
    bool journaling() const override { return journaling_; }
    void journal_append(const model::room_id& room, std::int64_t n, const play::room_change& change,
                        std::string_view event) override;
    void journal_cut(const model::room_id& room, std::int64_t below_n) override;
    void lobby_changed(const model::room_id& room, const play::lobby_state& state) override
    {
        lobby_updates_.push_back({room, state});
    }
    play::player_registry& players() override { return players_; }
    metrics::shard_counters& counters() override { return counters_; }
    play::room& open_game_room(play::room_settings settings, const play::player_record& first_seat,
                               const play::player_record& second_seat) override;
    play::room* find_room(const model::room_id& id) override;
    std::vector<play::room*> rooms_of_tournament(const model::tournament_id& tournament) override;
    // Stored at once: `stored` runs before this returns.
    void store(const model::tournament_id& id, std::string name, std::string status, std::string state,
               std::function<void()> stored) override;

private:
    class manual_alarm;
    struct alarm_entry {
        std::function<void()> on_time;
        std::optional<instant> at;
        std::uint64_t order = 0; // alarms due at the same instant fire in the order they were set
    };
    using client_key = std::tuple<std::uint16_t, std::uint32_t, std::uint32_t>;
    static client_key key(const play::client_ref& c) { return {c.shard, c.slot, c.generation}; }
    struct inbox {
        std::vector<json> frames;
        std::vector<std::string> payloads;
        std::size_t to_watcher = 0; // of the frames, those sent with send_to_watcher
        std::size_t taken = 0;
        std::vector<play::place> places;
    };
    inbox& box(const play::client_ref& c) { return clients_[key(c)]; }
    const inbox* find_box(const play::client_ref& c) const;
    model::room_id new_room_id();

    instant now_{};
    std::uint32_t next_slot_ = 0;
    std::map<client_key, inbox> clients_;
    std::vector<std::pair<client_key, std::string>> sent_; // every frame, in order, for transcripts

    std::map<std::uint64_t, alarm_entry> alarms_;
    std::uint64_t next_alarm_id_ = 0;
    std::uint64_t next_order_ = 0;

    std::vector<std::function<void()>> deferred_;
    std::vector<archive::game_record> archived_;
    std::vector<lobby_update> lobby_updates_;
    std::vector<stored_tournament> stored_;

    play::player_registry players_;
    metrics::shard_counters counters_;
    std::uint32_t host_number_ = 0; // in room ids, from the first room on
    std::uint32_t next_room_ = 0;
    std::map<model::room_id, std::unique_ptr<play::room>> rooms_;
    std::vector<model::room_id> game_rooms_;

    std::function<solver::move(const bots::think_request&)> thinker_;
    bool pool_full_ = false;
    std::vector<question> questions_;
    std::size_t questions_asked_ = 0;
    std::size_t questions_refused_ = 0;

    bool journaling_ = false;
    std::map<std::pair<model::room_id, std::int64_t>, archive::journal_entry> journal_;
    std::size_t journal_steps_ = 0;
};

// The clock of the rooms most tests play in: a minute a move, ten seconds to claim a Quarto.
inline constexpr milliseconds move_ms{60'000};
inline constexpr milliseconds claim_ms{10'000};

// The squares of a line, as a mask: mask({0, 1, 2, 3}) is row 0.
inline square_mask mask(std::initializer_list<int> squares)
{
    square_mask m = 0;
    for (int s : squares) m = static_cast<square_mask>(m | bit(static_cast<square>(s)));
    return m;
}

// The types of a list of frames, for short assertions: {"given", "placed"}.
std::vector<std::string> types_of(const std::vector<json>& frames);
// The frames of one type.
std::vector<json> of_type(const std::vector<json>& frames, const std::string& type);
// The last frame of one type; a failed REQUIRE when there is none.
json last_of(const std::vector<json>& frames, const std::string& type);
// Checks that the room's events (frames with a seq, snapshots and `synced` aside) in `frames`
// go up by exactly 1, and that a snapshot never goes back; how many events it checked.
int check_seq(const std::vector<json>& frames, const std::string& room_id);
// The one frame `c` has waiting: an error with this code (checked); for more checks on it.
json error_to(fake_host& host, const play::client_ref& c, const std::string& code);

} // namespace quarto::server::testing

template <>
struct doctest::StringMaker<quarto::server::play::client_ref> {
    static doctest::String convert(const quarto::server::play::client_ref& c)
    {
        const std::string text = "client{" + std::to_string(c.shard) + "," + std::to_string(c.slot) + "," +
                                 std::to_string(c.generation) + "}";
        return text.c_str();
    }
};
