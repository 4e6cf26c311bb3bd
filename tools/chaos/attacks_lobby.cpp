// Lobby abuse: polling the lists, creating rooms and tournaments in a loop, joining and leaving.
// All of it is legal one message at a time; the server's answer to the volume is its limits
// (rate_limited, too_many_rooms, too_many_tournaments), which the expectations accept.
#include "scripted_attacker.hpp"

namespace quarto::chaos {

namespace {

class list_poll final : public scripted_attacker {
public:
    explicit list_poll(attack_context& c)
        : scripted_attacker{c, attack_kind::list_poll, random_life(c, 10'000, 60'000), "lp"}
    {
    }

private:
    ms act() override
    {
        const int r = uniform(0, 99);
        if (r < 70) ask(*conn_, "list_rooms", list_rooms(uniform(0, 1200), uniform(1, 200)), {"rooms"});
        else if (r < 85) ask(*conn_, "list_tournaments", R"({"type":"list_tournaments","limit":100})", {"tournaments"});
        else {
            static constexpr std::string_view bad[] = {
                R"({"type":"list_rooms","limit":0})",      R"({"type":"list_rooms","limit":201})",
                R"({"type":"list_rooms","offset":-1})",    R"({"type":"list_rooms","limit":1.5})",
                R"({"type":"list_rooms","offset":"10"})", R"({"type":"list_tournaments","limit":1000})",
            };
            ask(*conn_, "bad page", one_of(random(), bad), {"error:bad_message"});
        }
        return between(300, 2000);
    }

    void reply(std::string_view payload, const load::server_message& m) override
    {
        if (m.type == "rooms") each_listed_id(payload, [&](std::string_view id) { context_.rooms.add(std::string{id}); });
        if (m.type == "tournaments")
            each_listed_id(payload, [&](std::string_view id) { context_.tournaments.add(std::string{id}); });
    }
};

class room_spam final : public scripted_attacker {
public:
    explicit room_spam(attack_context& c)
        : scripted_attacker{c, attack_kind::room_spam, random_life(c, 5'000, 40'000), "rs"}
    {
    }

private:
    ms act() override
    {
        const int r = uniform(0, 99);
        if (r < 10 && !mine_.empty()) {
            // Leaving is no reply when accepted, so it is not asked.
            send(*conn_, room_message("leave",
                                      mine_[static_cast<std::size_t>(uniform(0, static_cast<int>(mine_.size()) - 1))]));
        } else if (r < 15) {
            static constexpr std::string_view bad[] = {
                R"({"type":"create_room","clock":{"move_ms":50}})",
                R"({"type":"create_room","clock":{"move_ms":3000.0}})",
                R"({"type":"create_room","name":"a name far longer than thirty-two bytes"})",
                R"({"type":"create_room","rules":{"attributes":[]}})",
                R"({"type":"create_room","rules":{"false_claim":"maybe"}})",
            };
            ask(*conn_, "bad create_room", one_of(random(), bad), {"error:bad_message"});
        } else {
            ask(*conn_, "create_room", random_create_room(random(), "spam"), {"room_created", "error:too_many_rooms"});
        }
        return between(150, 700); // about 2.4 a second on average: past the 2/s creation rate at times
    }

    void reply(std::string_view, const load::server_message& m) override
    {
        if (m.type == "room_created") mine_.emplace_back(m.room);
    }

    std::vector<std::string> mine_;
};

class tournament_spam final : public scripted_attacker {
public:
    explicit tournament_spam(attack_context& c)
        : scripted_attacker{c, attack_kind::tournament_spam, random_life(c, 10'000, 40'000), "ts"}
    {
    }

private:
    ms act() override
    {
        const int r = uniform(0, 99);
        const auto any = context_.tournaments.pick(random());
        if (r < 35) {
            ask(*conn_, "create_tournament", random_create_tournament(random(), attacker_name("cup ")),
                {"tournament_created", "error:too_many_tournaments"});
        } else if (r < 55) {
            ask(*conn_, "list_tournaments", R"({"type":"list_tournaments","limit":100})", {"tournaments"});
        } else if (r < 80 && any) {
            ask(*conn_, "join_tournament", tournament_message("join_tournament", *any),
                {"tournament", "error:registration_closed", "error:tournament_full", "error:no_such_tournament",
                 "error:too_many_tournaments"});
        } else if (r < 90 && !mine_.empty()) {
            ask(*conn_, "start_tournament", tournament_message("start_tournament", mine_.back()),
                {"tournament", "error:not_enough_players", "error:wrong_status", "error:no_such_tournament"});
        } else if (any) {
            ask(*conn_, "watch_tournament", tournament_message("watch_tournament", *any),
                {"tournament", "error:no_such_tournament"});
            if (chance(0.5)) send(*conn_, tournament_message("unwatch_tournament", *any));
        }
        return between(300, 1500);
    }

    void reply(std::string_view payload, const load::server_message&) override
    {
        // tournament_created names the tournament in "tournament" (the scanner reads "room").
        if (payload.find(R"("type":"tournament_created")") != std::string_view::npos) {
            constexpr std::string_view key = R"("tournament":")";
            if (const auto at = payload.find(key); at != std::string_view::npos) {
                const auto start = at + key.size();
                const auto id = std::string{payload.substr(start, payload.find('"', start) - start)};
                mine_.push_back(id);
                context_.tournaments.add(id);
            }
        }
        if (payload.find(R"("type":"tournaments")") != std::string_view::npos)
            each_listed_id(payload, [&](std::string_view id) { context_.tournaments.add(std::string{id}); });
    }

    std::vector<std::string> mine_;
};

class spectator_churn final : public scripted_attacker {
public:
    explicit spectator_churn(attack_context& c)
        : scripted_attacker{c, attack_kind::spectator_churn, random_life(c, 10'000, 40'000), "sc"}
    {
    }

private:
    ms act() override
    {
        if (!in_.empty() && chance(0.5)) {
            send(*conn_, room_message("leave", in_.back()));
            in_.pop_back();
        } else if (const auto room = target()) {
            const bool watch = chance(0.8); // else try a seat: room_full in the honest rooms
            ask(*conn_, watch ? "join as spectator" : "join as player", join_room(*room, watch),
                {"room", "error:room_full", "error:no_such_room", "error:too_many_rooms"});
        }
        return between(150, 600); // about 2.7 joins and leaves a second: past the 2/s join rate
    }

    std::optional<std::string> target()
    {
        if (!context_.honest_rooms.empty() && chance(0.5))
            return context_
                .honest_rooms[static_cast<std::size_t>(uniform(0, static_cast<int>(context_.honest_rooms.size()) - 1))];
        return context_.rooms.pick(random());
    }

    void reply(std::string_view, const load::server_message& m) override
    {
        if (m.type == "room" && !m.room.empty()) in_.emplace_back(m.room);
    }

    std::vector<std::string> in_;
};

} // namespace

std::shared_ptr<attacker> make_lobby_attacker(attack_kind kind, attack_context& context)
{
    switch (kind) {
    case attack_kind::list_poll: return std::make_shared<list_poll>(context);
    case attack_kind::room_spam: return std::make_shared<room_spam>(context);
    case attack_kind::tournament_spam: return std::make_shared<tournament_spam>(context);
    case attack_kind::spectator_churn: return std::make_shared<spectator_churn>(context);
    default: return nullptr;
    }
}

} // namespace quarto::chaos
