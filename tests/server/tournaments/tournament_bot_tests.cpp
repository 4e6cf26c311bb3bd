// The computer in a tournament: the director enters it while registration is open, and it plays
// its games as a seated player of the tournament's rooms, on a fake host whose bot pool answers
// with level 2's real moves.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "quarto/core/solver/bot.hpp"
#include "quarto/core/solver/solver.hpp"
#include "tournament_event.hpp"

namespace {

using namespace quarto::server;
using namespace quarto::server::testing; // the tournament's event and its helpers
namespace model = quarto::model;
namespace protocol = quarto::protocol;
namespace solver = quarto::solver;
using quarto::milliseconds;

const model::bot_opponent level_2{2, 0};

// Every question answered at once with the level's own move.
struct thinking {
    solver::solver search{std::size_t{1} << 20};
    std::mt19937_64 random{41};

    void serve(fake_host& host)
    {
        host.set_thinker([this](const bots::think_request& q) {
            return solver::bot_move(q.level, q.game_rules, q.position, search, random, [] { return false; });
        });
    }
};

// The person's side of a game against the computer: the first empty square and the first piece
// left, from their own snapshot, until the computer has given `gives` pieces; then they resign.
void play_the_computer(event& e, std::size_t person, play::room& r, int gives)
{
    const auto& conn = e.conns.at(person);
    const auto& who = *e.people.at(person);
    const auto snapshot = [&] {
        r.handle(conn, who, protocol::join{false}, "s");
        return e.host.take(conn).back();
    };
    const int my_seat = snapshot()["you"]["seat"];
    for (int turn = 0; turn < 40; ++turn) {
        const json snap = snapshot();
        REQUIRE(snap["status"] == "playing");
        int given = 0;
        for (const json& f : of_type(e.host.frames(conn), "given"))
            if (f["room"] == r.id() && f["seat"] != my_seat) ++given;
        if (given >= gives) break;
        const json& g = snap["game"];
        REQUIRE(g["turn"] == my_seat); // the computer, with no delay, moved within the last turn
        if (g["phase"] == "place") {
            for (int s = 0; s < 16; ++s)
                if (g["board"][s].is_null()) {
                    r.handle(conn, who, protocol::place{static_cast<quarto::square>(s)}, nullptr);
                    break;
                }
            e.host.run_deferred();
        }
        const json after = snapshot()["game"];
        REQUIRE(after["phase"] == "give");
        r.handle(conn, who, protocol::give{quarto::piece{after["available"][0].get<std::uint8_t>()}}, nullptr);
        e.host.run_deferred();
    }
    r.handle(conn, who, protocol::resign{}, nullptr);
    e.host.run_deferred();
}

} // namespace

TEST_CASE("tournament: the director enters the computer while registration is open, one at most")
{
    auto s = settings_of(model::tournament_format::round_robin);
    s.max_players = 3;
    event e{s, 3};
    e.as(0, protocol::join_tournament{});
    e.host.take(e.dc);
    e.host.take(e.conns[0]);

    e.as(0, protocol::add_bot{level_2}, "not yours");
    CHECK(error_to(e.host, e.conns[0], "not_director")["req"] == "not yours");

    e.director(protocol::add_bot{model::bot_opponent{4, 600}}, "b");
    const json snap = of_type(e.host.take(e.dc), "tournament").at(0);
    CHECK(snap["req"] == "b");
    REQUIRE(snap["players"].size() == 2);
    CHECK(snap["players"][1] == json{{"id", "bot-4"}, {"name", "Computer (level 4)"}, {"active", true}, {"bot", 4}});
    CHECK(snap["players"][0]["id"] == e.id(0));
    CHECK_FALSE(snap["players"][0].contains("bot"));
    // Its level and delay are stored with the record, and read back.
    const json stored = e.host.stored().back().state;
    CHECK(stored["tournament"]["players"][1]["bot"] == json{{"level", 4}, {"delay_ms", 600}});
    const auto record = reload(e.host, stored);
    REQUIRE(record);
    CHECK(record->players[1].bot == model::bot_opponent{4, 600});
    CHECK_FALSE(record->players[0].bot);
    // The computer is nobody's person: no token, no place in the registry.
    CHECK_FALSE(e.host.players().find_by_id("bot-4"));

    e.director(protocol::add_bot{level_2}, "again");
    CHECK(error_to(e.host, e.dc, "bot_already_registered")["req"] == "again");

    // Taken out before the start, it may be entered again; the field's cap counts it.
    e.director(protocol::remove_player{"bot-4"});
    CHECK(e.snapshot()["players"].size() == 1);
    e.director(protocol::add_bot{level_2});
    e.as(1, protocol::join_tournament{});
    e.host.take(e.dc);
    e.director(protocol::add_bot{level_2}, "full");
    CHECK(error_to(e.host, e.dc, "bot_already_registered")["req"] == "full");
    e.as(2, protocol::join_tournament{}, "third");
    CHECK(error_to(e.host, e.conns[2], "tournament_full")["req"] == "third");

    e.director(protocol::start_tournament{});
    e.host.take(e.dc);
    e.director(protocol::add_bot{model::bot_opponent{5, 0}}, "late");
    CHECK(error_to(e.host, e.dc, "registration_closed")["req"] == "late");
}

TEST_CASE("tournament: the computer plays its games in the pairing's seat, and its results count like anyone's")
{
    thinking t;
    event e{settings_of(model::tournament_format::round_robin), 2};
    t.serve(e.host);
    e.join_all();
    e.director(protocol::add_bot{level_2});
    e.director(protocol::start_tournament{});
    REQUIRE(e.snapshot()["settings"]["rounds"] == 3); // three players: a bye each round

    int computer_games = 0;
    for (int round = 1; round <= 3; ++round) {
        CAPTURE(round);
        const json current = e.current_round();
        REQUIRE(current["round"] == round);
        for (const auto& p : current["pairings"]) {
            if (p["room"].is_null()) continue; // the bye
            const std::string room_id = p["room"];
            play::room* r = e.host.find_room(room_id);
            REQUIRE(r);
            const auto side = std::find(p["players"].begin(), p["players"].end(), "bot-2");
            if (side == p["players"].end()) {
                e.finish(room_id);
                continue;
            }
            ++computer_games;
            const auto bot_seat = static_cast<std::size_t>(side - p["players"].begin());
            const auto lobby = r->lobby();
            REQUIRE(lobby.seats[bot_seat]);
            CHECK(lobby.seats[bot_seat]->id == "bot-2");
            CHECK(lobby.seats[bot_seat]->name == "Computer (level 2)");
            const std::size_t person = e.index_of(p["players"][1 - bot_seat]);
            INFO(e.host.transcript(e.conns[person]));
            // The person got the pairing and the room; the computer plays as soon as it is its turn.
            const auto pairing = of_type(e.host.frames(e.conns[person]), "tournament_pairing");
            REQUIRE_FALSE(pairing.empty());
            CHECK(pairing.back()["opponent"] == "bot-2");
            play_the_computer(e, person, *r, 2);
        }
    }
    CHECK(computer_games == 2);
    const json snap = e.snapshot();
    CHECK(snap["status"] == "finished");
    // Everyone resigned against it: two wins; Ann (registered first) beat Bo; a bye each.
    std::map<std::string, double> points;
    for (const auto& s : snap["standings"]) points[s["player"]] = s["points"].get<double>();
    CHECK(points == std::map<std::string, double>{{"bot-2", 3.0}, {e.id(0), 2.0}, {e.id(1), 1.0}});
    CHECK(snap["standings"][0]["name"] == "Computer (level 2)");
    // Its games are archived with it as a player, each with its gives in it.
    int archived_with_it = 0;
    for (const auto& g : e.host.archived())
        for (const auto& player : g.players) archived_with_it += player.id == "bot-2" ? 1 : 0;
    CHECK(archived_with_it == 2);
    CHECK(e.host.questions_asked() >= 4);
}

TEST_CASE("tournament: a registering tournament with only the computer in it goes once its director has been away")
{
    event e{settings_of(model::tournament_format::round_robin), 1};
    e.director(protocol::add_bot{level_2});
    e.t->detach(e.dc);
    CHECK_FALSE(e.t->close_if_deserted(milliseconds{1000}));
    e.host.advance(milliseconds{1000});
    CHECK(e.t->close_if_deserted(milliseconds{1000}));
}

TEST_CASE("tournament: after a restart the computer is back in seat 0 of its board, and goes on with its game")
{
    event e{settings_of(model::tournament_format::round_robin), 1};
    e.host.enable_journal();
    e.director(protocol::add_bot{level_2}); // entered before Ann: the pairing's first player
    e.join_all();
    e.director(protocol::start_tournament{});
    const json pairing = e.current_round()["pairings"].at(0);
    REQUIRE(pairing["players"] == json::array({"bot-2", e.id(0)}));
    const std::string room_id = pairing["room"];
    play::room* r = e.host.find_room(room_id);
    REQUIRE(r);
    const auto ann_snapshot = [](fake_host& host, play::room& room, const play::client_ref& c,
                                 const play::player_record& ann) {
        room.handle(c, ann, protocol::join{false}, "s");
        return host.take(c).back();
    };
    if (ann_snapshot(e.host, *r, e.conns[0], *e.people[0])["game"]["turn"] == 1) {
        r->handle(e.conns[0], *e.people[0], protocol::give{quarto::piece{0}}, nullptr);
        e.host.run_deferred();
    }
    REQUIRE(e.host.questions().size() == 1); // the computer is thinking when the server dies

    fake_host after;
    thinking t;
    t.serve(after);
    after.set_clock(e.host.now());
    play::room& back = after.restore_room(room_id, e.host.journal_of(room_id));
    after.run_deferred();
    CHECK(after.questions_asked() == 1);
    CHECK_FALSE(after.players().find_by_id("bot-2"));
    const auto c = after.connect();
    back.resume(c, *e.people[0]);
    after.run_deferred();
    const json snap = ann_snapshot(after, back, c, *e.people[0]);
    CHECK(snap["players"][0]["id"] == "bot-2");
    CHECK(snap["players"][0]["connected"] == true);
    CHECK(snap["you"]["seat"] == 1);
    CHECK(snap["game"]["turn"] == 1); // the computer has moved
    CHECK(snap["tournament"] == tid);
}

TEST_CASE("tournament: the computer is never away, so its opponent cannot claim the game from it")
{
    event e{settings_of(model::tournament_format::round_robin), 1};
    e.director(protocol::add_bot{level_2}); // entered before Ann: the pairing's first player
    e.join_all();
    e.director(protocol::start_tournament{});
    const json pairing = e.current_round()["pairings"].at(0);
    REQUIRE(pairing["players"] == json::array({"bot-2", e.id(0)}));
    play::room* r = e.host.find_room(pairing["room"]);
    REQUIRE(r);
    const auto& ann = *e.people[0];
    const auto& conn = e.conns[0];
    r->handle(conn, ann, protocol::join{false}, "s");
    const json computer = e.host.take(conn).back()["players"][0];
    CHECK(computer["connected"] == true);
    CHECK_FALSE(computer.contains("claim_victory_in_ms"));

    e.host.advance(milliseconds{31'000}); // past the 30 s an absent player has to come back
    r->handle(conn, ann, protocol::claim_victory{}, "claim");
    CHECK(error_to(e.host, conn, "wrong_phase")["req"] == "claim");
    r->handle(conn, ann, protocol::join{false}, "again");
    const json again = e.host.take(conn).back();
    CHECK(again["status"] == "playing");
    CHECK_FALSE(again["players"][0].contains("claim_victory_in_ms"));
}
