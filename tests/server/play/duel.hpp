// A room on a fake host with Ann seated and Bo about to join: what the room's unit tests share.
// Seat 0 is Ann (the creator), seat 1 is Bo; the coin decides who gives first, so the tests read
// `first` from game_started and play from there.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fake_host.hpp"

namespace quarto::server::testing {

using strings = std::vector<std::string>;

// The rooms' idle time (--room-idle-seconds) in these tests.
inline constexpr milliseconds idle{600'000};

struct step {
    int piece;
    int square;
};
// Pieces 0..3 are all short, round and solid: any 4 of them on a line align. Played from the
// first give, the first giver places the last of them, on square 3, completing row 0.
inline const std::vector<step> row0 = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};

inline play::room_settings settings_with(quarto::clock_settings clock = {move_ms, claim_ms})
{
    play::room_settings s;
    s.name = "Friday night";
    s.clock = clock;
    return s;
}

// A room with Ann seated (created at instant 0); start() seats Bo, which starts the game.
struct duel {
    fake_host host;
    play::client_ref a = host.connect();
    play::client_ref b = host.connect();
    std::shared_ptr<const play::player_record> ann = host.players().create("Ann");
    std::shared_ptr<const play::player_record> bo = host.players().create("Bo");
    play::room* room = nullptr;
    std::string id;
    seat first = 0;

    explicit duel(play::room_settings settings = settings_with())
    {
        room = &host.create_room(std::move(settings), a, *ann);
        id = room->id();
        host.run_deferred();
    }

    // Bo joins: the game starts. Returns Bo's snapshot.
    json start()
    {
        act(b, *bo, protocol::join{false}, "j");
        const auto to_b = host.take(b);
        INFO(host.transcript());
        REQUIRE(types_of(to_b) == strings{"room", "game_started"});
        first = to_b[1]["first"].get<seat>();
        host.take(a);
        return to_b[0];
    }

    const play::client_ref& conn(seat s) const { return s == 0 ? a : b; }
    const play::player_record& player(seat s) const { return s == 0 ? *ann : *bo; }

    // A client message, then the end of the turn (the deferred tasks).
    void act(const play::client_ref& c, const play::player_record& p, protocol::room_action action, json req = nullptr)
    {
        room->handle(c, p, action, req);
        host.run_deferred();
    }
    void act(seat s, protocol::room_action action, json req = nullptr) { act(conn(s), player(s), action, std::move(req)); }
    void give(seat s, int piece, json req = nullptr)
    {
        act(s, protocol::give{quarto::piece{static_cast<std::uint8_t>(piece)}}, std::move(req));
    }
    void place(seat s, int square, json req = nullptr)
    {
        act(s, protocol::place{static_cast<quarto::square>(square)}, std::move(req));
    }
    void call(seat s, std::initializer_list<int> line, json req = nullptr)
    {
        act(s, protocol::call_quarto{mask(line)}, std::move(req));
    }

    // The frames `c` got since the last look: exactly one, of this type.
    json only(const play::client_ref& c, const std::string& type)
    {
        const auto got = host.take(c);
        INFO(host.transcript(c));
        REQUIRE(types_of(got) == strings{type});
        return got[0];
    }
    // Both players got exactly this one event (the same one); returns it.
    json both(const std::string& type)
    {
        const json to_a = only(a, type);
        const json to_b = only(b, type);
        CHECK(to_a == to_b);
        return to_a;
    }

    // Plays give/place steps from `giver`'s give, each answered by its event to both players.
    // Returns the last placer.
    seat play(seat giver, const std::vector<step>& steps)
    {
        seat placer = giver;
        for (const step& s : steps) {
            give(giver, s.piece);
            const json given = both("given");
            CHECK(given["seat"] == giver);
            CHECK(given["piece"] == s.piece);
            placer = quarto::opponent(giver);
            place(placer, s.square);
            const json placed = both("placed");
            CHECK(placed["seat"] == placer);
            CHECK(placed["square"] == s.square);
            giver = placer;
        }
        return placer;
    }

    // The snapshot as another connection of seat `as` (Ann's by default) sees it (the player is
    // still connected: no event), the connection then closed again.
    json peek(seat as = 0)
    {
        const auto look = host.connect();
        room->resume(look, player(as));
        const auto got = host.take(look);
        room->detach(look);
        INFO(host.transcript(look));
        REQUIRE(types_of(got) == strings{"room"});
        return got[0];
    }
};

} // namespace quarto::server::testing
