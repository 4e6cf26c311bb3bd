// A tournament's game room in process, on a fake host: seated by the tournament, its result
// sent back, no rematch and no stranger in a vacated seat.
#include <doctest/doctest.h>

#include "duel.hpp"

namespace {

using namespace quarto::server;
namespace model = quarto::model;
namespace protocol = quarto::protocol;
using testing::error_to;
using testing::fake_host;
using testing::json;
using testing::move_ms;
using testing::of_type;
using testing::settings_with;
using testing::types_of;
using quarto::instant;
using quarto::seat;
using strings = std::vector<std::string>;

} // namespace

TEST_CASE("room: a tournament game starts at once with the tournament's first seat, and refuses rematch")
{
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    std::vector<std::pair<quarto::game_result, std::string>> results;
    play::room_settings s = settings_with();
    s.tournament = play::tournament_link{"tclub", seat{1}, [&](const quarto::game_result& r, const std::string& game) {
                                             results.emplace_back(r, game);
                                         }};
    play::room& r = host.open_game_room(std::move(s), *ann, *bo);
    host.run_deferred();
    CHECK(host.lobby_of(r.id())->status == model::room_status::playing);
    CHECK(r.listing().tournament == "tclub");
    CHECK(host.next_alarm() == instant{move_ms});

    const auto a = host.connect();
    r.resume(a, *ann);
    const auto got = host.take(a);
    INFO(host.transcript());
    REQUIRE(types_of(got) == strings{"room"});
    CHECK(got[0]["tournament"] == "tclub");
    CHECK(got[0]["game"]["first"] == 1);
    CHECK(got[0]["you"]["seat"] == 0);
    CHECK(got[0]["players"][1]["connected"] == false);

    r.handle(a, *ann, protocol::resign{}, nullptr);
    CHECK(results.empty()); // the result goes back in a deferred task
    host.run_deferred();
    REQUIRE(results.size() == 1);
    CHECK(results[0].first.winner == seat{1});
    CHECK(results[0].first.reason == quarto::end_reason::resign);
    const json over = of_type(host.take(a), "game_over").at(0);
    CHECK(results[0].second == over["game"]);

    r.handle(a, *ann, protocol::rematch{}, "again");
    host.run_deferred();
    CHECK(error_to(host, a, "wrong_phase")["message"] ==
          "Tournament games have no rematch; the tournament pairs the next game.");
    CHECK(results.size() == 1);
}

TEST_CASE("room: nobody takes a vacated seat of a tournament game - a stranger may watch")
{
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    const auto cy = host.players().create("Cy");
    int reported = 0;
    play::room_settings s = settings_with();
    s.tournament = play::tournament_link{"tclub", seat{0}, [&](const quarto::game_result&, const std::string&) { ++reported; }};
    play::room& r = host.open_game_room(std::move(s), *ann, *bo);
    const auto a = host.connect();
    r.resume(a, *ann);
    r.handle(a, *ann, protocol::leave{}, nullptr); // resigns, and empties seat 0
    host.run_deferred();
    CHECK(reported == 1);

    const auto c = host.connect();
    for (const auto* who : {cy.get(), ann.get()}) { // a stranger, and the player who left
        r.handle(c, *who, protocol::join{false}, "sit");
        host.run_deferred();
        const json e = error_to(host, c, "room_full");
        CHECK(e["req"] == "sit");
    }
    CHECK(host.lobby_of(r.id())->status != model::room_status::playing); // no new game
    CHECK(reported == 1);
    r.handle(c, *cy, protocol::join{true}, "watch");
    host.run_deferred();
    CHECK(of_type(host.take(c), "room").at(0)["req"] == "watch");
}

TEST_CASE("room: forfeit ends the game of a removed player and sends the result back")
{
    fake_host host;
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    int reported = 0;
    std::optional<quarto::game_result> result;
    play::room_settings s = settings_with();
    s.tournament = play::tournament_link{"tclub", seat{0}, [&](const quarto::game_result& r, const std::string&) {
                                             ++reported;
                                             result = r;
                                         }};
    play::room& r = host.open_game_room(std::move(s), *ann, *bo);
    const auto b = host.connect();
    r.resume(b, *bo);
    host.take(b);

    r.forfeit(host.players().create("Cy")->info.id); // not seated: nothing
    CHECK(host.take(b).empty());

    SUBCASE("in time: a resignation")
    {
        r.forfeit(bo->info.id);
        host.run_deferred();
        const json over = of_type(host.take(b), "game_over").at(0);
        CHECK(over["winner"] == 0);
        CHECK(over["reason"] == "resign");
        REQUIRE(result);
        CHECK(result->winner == seat{0});
        CHECK(result->reason == quarto::end_reason::resign);
    }
    SUBCASE("past the deadline: the timeout stands")
    {
        host.skew(move_ms); // Ann (first) has run out of time, the timer has not fired
        r.forfeit(bo->info.id);
        host.run_deferred();
        CHECK(of_type(host.take(b), "game_over").at(0)["reason"] == "timeout");
        REQUIRE(result);
        CHECK(result->winner == seat{1});
        CHECK(result->reason == quarto::end_reason::timeout);
    }
    CHECK(reported == 1);
    CHECK(host.archived().size() == 1);
    CHECK(host.armed_alarms() == 0);
    r.forfeit(bo->info.id); // over already
    host.run_deferred();
    CHECK(reported == 1);
    CHECK(host.take(b).empty());
}
