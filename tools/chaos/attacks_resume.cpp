// Coming back: hello with a token (a real one, one the server has forgotten, or one made up)
// and a sync of every room it brings back; and pairs of players whose game is cut by a reset,
// who come back with the token and must get exactly the events they missed (PROTOCOL.md 11, 12).
#include <cstdlib>
#include <set>

#include "bot_player.hpp"
#include "client_messages.hpp"
#include "raw_field.hpp"
#include "scripted_attacker.hpp"

namespace quarto::chaos {

namespace {

// A sync in flight: which seqs came back for it, and the first one missing once it is done.
struct sync_check {
    std::int64_t since = 0;
    std::int64_t snapshot_seq = -1; // a snapshot covers everything up to its seq
    std::set<std::int64_t> seen;

    void take(const load::server_message& m)
    {
        if (m.type == "room") snapshot_seq = std::max(snapshot_seq, m.seq);
        else if (m.seq >= 0) seen.insert(m.seq);
    }
    // The first seq in (since, upto] that neither an event nor a snapshot brought; -1 if none.
    std::int64_t first_missing(std::int64_t upto) const
    {
        for (std::int64_t s = since + 1; s <= upto; ++s)
            if (s > snapshot_seq && !seen.contains(s)) return s;
        return -1;
    }
};

std::string made_up_token(std::mt19937_64& random)
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string t(32, '0');
    for (auto& c : t) c = hex[std::uniform_int_distribution<int>{0, 15}(random)];
    return t;
}

class resume final : public attacker {
public:
    explicit resume(attack_context& c) : attacker{c, attack_kind::resume} {}

    void start() override
    {
        const int r = uniform(0, 99);
        if (const auto known = context_.tokens.pick(random()); known && r < 75) token_ = *known, kind_ = "a token seen";
        else if (r < 92) token_ = made_up_token(random()), kind_ = "a made-up token";
        else token_ = std::string(129, 'f'), kind_ = "a token of 129 bytes";
        conn_ = connect();
    }

private:
    void opened(ws_client& c) override
    {
        if (token_.size() > 128) ask(c, "hello with " + kind_, hello_token(token_), {"error:bad_message"});
        else ask(c, "hello with " + kind_, hello_token(token_), {"welcome", "error:unknown_token"});
    }

    void text(ws_client& c, std::string_view payload, const load::server_message& m) override
    {
        if (m.type == "welcome") return after(between(2000, 15'000), [this] { leave(); });
        if (m.type == "error" && (m.code == "unknown_token" || m.code == "bad_message") && !named_) {
            named_ = true;
            if (chance(0.5)) return send(c, hello_named(attacker_name("rn")));
            return end_connection(c);
        }
        if (m.room.empty()) return;
        const std::string room{m.room};
        if (m.type == "synced") {
            const auto check = syncs_.find(room);
            if (check == syncs_.end()) return;
            const auto missing = check->second.first_missing(m.seq);
            if (missing < 0) outcome("sync complete");
            else surprise("sync did not bring seq " + std::to_string(missing), std::string{payload.substr(0, 200)});
            syncs_.erase(check);
            return;
        }
        if (const auto check = syncs_.find(room); check != syncs_.end()) check->second.take(m);
        if (m.type == "room" && !synced_.contains(room)) {
            synced_.insert(room);
            rooms_.push_back(room);
            // Ask from the snapshot's seq, a few before it, from the start, or from far beyond.
            const int r = uniform(0, 9);
            const std::int64_t since = r < 4   ? m.seq
                                       : r < 7 ? std::max<std::int64_t>(0, m.seq - uniform(1, 5))
                                       : r < 9 ? 0
                                               : (std::int64_t{1} << 62);
            syncs_[room] = sync_check{.since = since, .snapshot_seq = -1, .seen = {}};
            ask(c, "sync", sync_room(room, since), {"synced", "error:not_in_room", "error:no_such_room"});
        }
    }

    void leave()
    {
        if (!rooms_.empty() && chance(0.3)) send(*conn_, room_message("leave", rooms_.front()));
        after(ms{300}, [this] { end_connection(*conn_); });
    }

    std::shared_ptr<ws_client> conn_;
    std::string token_;
    std::string kind_;
    bool named_ = false;
    std::set<std::string> synced_;
    std::vector<std::string> rooms_;
    std::map<std::string, sync_check> syncs_;
};

// Two players in a private room play random legal moves; after a few, one of them is reset,
// comes back with its token, syncs from the last seq it had, then resigns. Both must see the
// events of all that in order, and the game end the same way.
class drop_resume final : public attacker {
public:
    explicit drop_resume(attack_context& c) : attacker{c, attack_kind::drop_resume} { share_tokens_ = false; }

    void start() override
    {
        drop_after_ = uniform(2, 14);
        sides_[0].conn = connect(true, 0, &context_.pairs);
    }

    void stop() override
    {
        stage_ = stage::leaving;
        attacker::stop();
    }

private:
    enum class stage { setup, playing, dropped, syncing, resigning, leaving };
    struct side {
        std::shared_ptr<ws_client> conn;
        std::optional<load::bot_player> bot;
        std::string token;
        std::int64_t last_seq = -1;
        bool awaiting = false; // sent an action, its event not back yet
        bool disconnected_seen = false, reconnected_seen = false;
        std::string ended_by; // the game_over's reason
        int winner = -2;
        std::string player;   // the server's id, to find it in the server's log
        std::string trail;    // the events seen since the reset, for the report
    };

    // Who was reset, when it came back, and what each side saw since: enough to find the case
    // in the server's log.
    std::string story() const
    {
        if (dropper_ < 0) return {};
        const auto millis = [](clock_type::duration d) {
            return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
        };
        return "room " + room_ + ", reset " + sides_[dropper_].player + " (seq " + std::to_string(seq_at_drop_) +
               "), back after " + millis(back_at_ - dropped_at_) + " ms; it saw [" + sides_[dropper_].trail + "], " +
               sides_[1 - dropper_].player + " saw [" + sides_[1 - dropper_].trail + "]";
    }

    int side_of(const ws_client& c) const { return &c == sides_[0].conn.get() ? 0 : 1; }

    void opened(ws_client& c) override
    {
        side& s = sides_[side_of(c)];
        if (!s.token.empty()) return ask(c, "hello with the token", hello_token(s.token), {"welcome"});
        send(c, hello_named(attacker_name(side_of(c) == 0 ? "da" : "db")));
    }

    void text(ws_client& c, std::string_view payload, const load::server_message& m) override
    {
        const int i = side_of(c);
        side& s = sides_[i];
        if (m.type == "welcome") {
            if (s.token.empty())
                if (const auto t = raw_field(payload, "token")) s.token = std::string{t->text};
            if (const auto p = raw_field(payload, "player")) s.player = std::string{p->text};
            if (stage_ == stage::dropped && i == dropper_) back_at_ = clock_type::now();
            if (stage_ != stage::setup) return;
            if (i == 0)
                return ask(c, "create_room", load::create_room_message("pair", 20'000),
                           {"room_created", "error:too_many_rooms"});
            return ask(c, "join", load::join_message(room_, false), {"room"});
        }
        if (m.type == "error" && stage_ == stage::setup) return stop(); // no room for us now: counted, go
        if (m.type == "room_created") {
            room_ = std::string{m.room};
            sides_[1].conn = connect(true, 0, &context_.pairs);
            return;
        }
        if (m.type == "synced") {
            if (i == dropper_ && stage_ == stage::syncing) synced(m, payload);
            return;
        }
        if (m.room != room_ || m.seq < 0) return;
        if (dropper_ >= 0) s.trail += (s.trail.empty() ? "" : " ") + std::string{m.type} + ":" + std::to_string(m.seq);
        if (m.type == "room") return snapshot(i, m);
        if (stage_ == stage::syncing && i == dropper_) {
            sync_.take(m);
            s.last_seq = std::max(s.last_seq, m.seq); // replays repeat seqs: no gap check here
        } else {
            if (s.last_seq >= 0 && m.seq != s.last_seq + 1)
                surprise("seq " + std::to_string(m.seq) + " after " + std::to_string(s.last_seq), std::string{m.type});
            s.last_seq = m.seq;
        }
        event(i, m, payload);
    }

    void snapshot(int i, const load::server_message& m)
    {
        side& s = sides_[i];
        if (stage_ == stage::dropped && i == dropper_) {
            // The resumed player's snapshot counts its own reconnected event.
            if (m.seq < s.last_seq + 1) surprise("the resume snapshot counts no reconnected event", story());
            stage_ = stage::syncing;
            sync_ = sync_check{.since = s.last_seq, .snapshot_seq = -1, .seen = {}};
            ask(*s.conn, "sync after the reset", sync_room(room_, s.last_seq), {"synced"});
            return;
        }
        s.last_seq = m.seq;
        if (m.you_seat == 0 || m.you_seat == 1) s.bot.emplace(static_cast<seat>(m.you_seat), random()());
    }

    void event(int i, const load::server_message& m, std::string_view payload)
    {
        side& s = sides_[i];
        const std::string_view type = m.type;
        if (type == "disconnected") s.disconnected_seen = true;
        else if (type == "reconnected") s.reconnected_seen = true;
        else if (type == "game_over") {
            s.ended_by = std::string{m.reason};
            const auto winner = raw_field(payload, "winner");
            s.winner = !winner || winner->text == "null" ? -1 : std::atoi(std::string{winner->text}.c_str());
            if (s.bot) s.bot->on_game_over();
            s.awaiting = false;
            return after_game_over();
        }
        if (!s.bot || (stage_ == stage::syncing && i == dropper_) || stage_ == stage::resigning) return;
        bool fits = true;
        if (type == "game_started") {
            if (m.first == 0 || m.first == 1) s.bot->on_game_started(static_cast<seat>(m.first));
            stage_ = stage::playing;
        } else if (type == "given" || type == "placed" || type == "passed") {
            const auto by = static_cast<seat>(m.seat);
            fits = type == "given" ? s.bot->on_given(by, static_cast<std::uint8_t>(m.piece))
                 : type == "placed" ? s.bot->on_placed(by, static_cast<std::uint8_t>(m.square))
                                    : s.bot->on_passed(by);
            if (by == s.bot->me()) s.awaiting = false;
            if (i == 0) ++moves_;
        } else {
            return;
        }
        if (!fits) surprise("an event the game refuses", std::string{type});
        if (stage_ != stage::playing) return;
        if (moves_ >= drop_after_ && i == 1) return drop();
        play_soon();
    }

    void play_soon()
    {
        after(between(20, 120), [this] {
            for (auto& s : sides_) {
                if (!s.bot || s.awaiting || !s.conn || s.conn->ended()) continue;
                if (const auto a = s.bot->next_action()) {
                    s.awaiting = true;
                    send(*s.conn, load::action_message(room_, *a));
                }
            }
        });
    }

    void drop()
    {
        stage_ = stage::dropped;
        dropper_ = uniform(0, 1);
        seq_at_drop_ = sides_[dropper_].last_seq;
        dropped_at_ = clock_type::now();
        sides_[dropper_].conn->abort(); // a reset: the server learns of it at once
    }

    void synced(const load::server_message& m, std::string_view payload)
    {
        const auto missing = sync_.first_missing(m.seq);
        if (missing < 0) outcome("reset, resume and sync complete");
        else
            surprise("sync after the reset did not bring a seq",
                     "seq " + std::to_string(missing) + "; " + story() + " | " + std::string{payload.substr(0, 200)});
        resumed_ = true;
        if (!sides_[1 - dropper_].ended_by.empty()) return leave(); // the game had ended before the reset
        stage_ = stage::resigning;
        send(*sides_[dropper_].conn, room_message("resign", room_));
        after(ms{5000}, [this] {
            surprise("no game_over after the resignation");
            leave();
        });
    }

    void after_game_over()
    {
        if (stage_ == stage::playing) return drop(); // a short game: reset anyway, resume with no game on
        if (stage_ != stage::resigning || sides_[0].ended_by.empty() || sides_[1].ended_by.empty()) return;
        const int survivor = sides_[1 - dropper_].bot ? int{sides_[1 - dropper_].bot->me()} : -1;
        if (sides_[0].ended_by == "resign" && sides_[1].ended_by == "resign" && sides_[0].winner == survivor &&
            sides_[1].winner == survivor)
            outcome("resignation seen by both");
        else
            surprise("game_over " + sides_[0].ended_by + "/" + sides_[1].ended_by + ", winner " +
                     std::to_string(sides_[0].winner) + "/" + std::to_string(sides_[1].winner) + ", survivor " +
                     std::to_string(survivor));
        leave();
    }

    void leave()
    {
        if (stage_ == stage::leaving) return;
        if (resumed_) {
            // Checked only now: the survivor's socket may be read after the resumer's.
            const side& other = sides_[1 - dropper_];
            if (other.disconnected_seen && other.reconnected_seen) outcome("opponent saw disconnected and reconnected");
            else surprise("opponent did not see disconnected and reconnected", story());
        }
        stage_ = stage::leaving;
        for (auto& s : sides_)
            if (s.conn) send(*s.conn, room_message("leave", room_)); // an empty room is reclaimed
        after(ms{300}, [this] {
            for (auto& s : sides_)
                if (s.conn) end_connection(*s.conn);
        });
    }

    void ended(ws_client& c, const ws_client::ending& e) override
    {
        const int i = side_of(c);
        if (stage_ == stage::dropped && i == dropper_ && e.ours == "abort") {
            return after(between(200, 3000), [this] { sides_[dropper_].conn = connect(true, 0, &context_.pairs); });
        }
        if (stage_ != stage::leaving) {
            if (e.ours.empty()) surprise("closed by the server", e.describe());
            return stop();
        }
        if (all_ended()) finish();
    }

    side sides_[2];
    std::string room_;
    stage stage_ = stage::setup;
    int moves_ = 0;
    int drop_after_ = 0;
    int dropper_ = -1;
    bool resumed_ = false;
    sync_check sync_;
    std::int64_t seq_at_drop_ = -1;
    clock_type::time_point dropped_at_{}, back_at_{};
};

} // namespace

std::shared_ptr<attacker> make_resume_attacker(attack_kind kind, attack_context& context)
{
    switch (kind) {
    case attack_kind::resume: return std::make_shared<resume>(context);
    case attack_kind::drop_resume: return std::make_shared<drop_resume>(context);
    default: return nullptr;
    }
}

} // namespace quarto::chaos
