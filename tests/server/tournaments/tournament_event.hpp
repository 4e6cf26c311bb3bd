// A tournament on a fake host, directed by Dee, with people to join it and helpers to finish
// its games and read its snapshots: shared by the tournament's unit tests.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fake_host.hpp"
#include "quarto/protocol/stored_tournament.hpp"

namespace quarto::server::testing {

using strings = std::vector<std::string>;

inline const std::string tid = "tclub";

inline model::tournament_settings settings_of(model::tournament_format format, int games_per_pairing = 1)
{
    model::tournament_settings s;
    s.name = "Club night";
    s.format = format;
    s.games_per_pairing = games_per_pairing;
    // Rounds back to back: most tests are about what happens in them; the pause between them
    // has tests of its own (round_pause_tests.cpp).
    s.round_pause_seconds = 0;
    return s;
}

// What a restart reads of a stored state: its people (known to `host` again by their token
// hashes) and the record.
inline std::optional<model::tournament_record> reload(fake_host& host, const json& state)
{
    for (const auto& person : state["people"])
        host.players().restore(
            {{person["id"].get<std::string>(), person["name"].get<std::string>()}, person["token_hash"].get<std::string>()});
    return protocol::read_stored_tournament(state["tournament"]);
}

// A tournament directed by Dee on her connection `dc`, and `n` people who may join it, each on
// a connection of their own. The host is declared first: it outlives the tournament.
struct event {
    fake_host host;
    play::client_ref dc = host.connect();
    std::shared_ptr<const play::player_record> dee = host.players().create("Dee");
    std::vector<std::shared_ptr<const play::player_record>> people;
    std::vector<play::client_ref> conns;
    std::shared_ptr<tournaments::tournament_views> views = std::make_shared<tournaments::tournament_views>();
    std::unique_ptr<tournaments::tournament> t;

    explicit event(model::tournament_settings settings, int n = 4)
    {
        const strings names{"Ann", "Bo", "Cy", "Di", "Ed", "Flo"};
        for (int i = 0; i < n; ++i) {
            people.push_back(host.players().create(names.at(static_cast<std::size_t>(i))));
            conns.push_back(host.connect());
        }
        model::tournament_record record;
        record.id = tid;
        record.settings = std::move(settings);
        record.director = dee->info.id;
        record.director_name = dee->info.name;
        record.created_ms = host.unix_ms();
        t = std::make_unique<tournaments::tournament>(host, std::move(record), views);
        t->open(dc, *dee);
        host.run_deferred();
    }

    void as(const play::client_ref& c, const play::player_record& p, protocol::tournament_action a, json req = nullptr)
    {
        t->handle(c, p, a, req);
        host.run_deferred();
    }
    void as(std::size_t i, protocol::tournament_action a, json req = nullptr)
    {
        as(conns.at(i), *people.at(i), a, std::move(req));
    }
    void director(protocol::tournament_action a, json req = nullptr) { as(dc, *dee, a, std::move(req)); }
    void join_all()
    {
        for (std::size_t i = 0; i < people.size(); ++i) as(i, protocol::join_tournament{});
    }

    std::size_t index_of(const std::string& player_id) const
    {
        for (std::size_t i = 0; i < people.size(); ++i)
            if (people[i]->info.id == player_id) return i;
        FAIL("no such player: " << player_id);
        return 0;
    }
    const std::string& id(std::size_t i) const { return people.at(i)->info.id; }

    // The latest snapshot, as the director's connection got it.
    json snapshot() const { return last_of(host.frames(dc), "tournament"); }
    json current_round() const
    {
        const json rounds = snapshot()["rounds"];
        REQUIRE_FALSE(rounds.empty());
        return rounds.back();
    }

    // Ends the game in play in `room_id`: the pairing's player with the higher index (later
    // registration) resigns, unless `loser` names who does. Then the turn's deferred tasks (the
    // result going back to the tournament).
    void finish(const std::string& room_id, std::optional<std::size_t> loser = std::nullopt)
    {
        play::room* r = host.find_room(room_id);
        REQUIRE_MESSAGE(r, "no room " << room_id);
        const auto lobby = r->lobby();
        REQUIRE(lobby.seats[0]);
        REQUIRE(lobby.seats[1]);
        const std::size_t a = index_of(lobby.seats[0]->id);
        const std::size_t b = index_of(lobby.seats[1]->id);
        const std::size_t who = loser ? *loser : std::max(a, b);
        r->handle(conns.at(who), *people.at(who), protocol::resign{}, nullptr);
        host.run_deferred();
    }
    // Finishes every game in play of the current round (as finish()), and those they start
    // (the second game of a pairing), until the round is over.
    void finish_round()
    {
        const int number = current_round()["round"];
        for (int guard = 0; guard < 20; ++guard) {
            const json round = snapshot()["rounds"].at(static_cast<std::size_t>(number - 1));
            std::optional<std::string> open;
            for (const auto& p : round["pairings"]) {
                if (p["room"].is_null()) continue;
                const std::size_t played = p["results"].size();
                if (played < p["rooms"].size()) open = p["room"].get<std::string>();
            }
            if (!open) return;
            finish(*open);
        }
        FAIL("round " << number << " does not end");
    }

    // The standings as {player index: points}.
    std::map<std::size_t, double> points() const
    {
        std::map<std::size_t, double> out;
        const json snap = snapshot();
        for (const auto& s : snap["standings"]) out[index_of(s["player"])] = s["points"].get<double>();
        return out;
    }
};

} // namespace quarto::server::testing
