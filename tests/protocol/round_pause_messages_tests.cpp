// The pause between a tournament's rounds on the wire: `round_pause_seconds` in create_tournament
// (its default, its range, its refusals), in the settings the snapshot and the stored form echo,
// a waiting round's `starts_at_ms`, the `tournament_round` notice, and stored tournaments from
// before the pause existed.
#include <string>

#include "quarto/protocol/encode_tournament.hpp"
#include "quarto/protocol/stored_tournament.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::model;
using namespace quarto::protocol;
using namespace protocol_tests;

namespace {

// Round 1 played (Ann beat Bo), round 2 paired and waiting for its start: Ann vs Bo again.
tournament_record record_with_waiting_round()
{
    tournament_record t;
    t.id = "tpause";
    t.settings.name = "Pause cup";
    t.settings.format = tournament_format::swiss;
    t.settings.rounds = 2;
    t.settings.round_pause_seconds = 45;
    t.director = "pdee";
    t.director_name = "Dee";
    t.status = tournament_status::running;
    t.created_ms = 1794000000000;
    t.players = {{"pann", "Ann", true, {}}, {"pbo", "Bo", true, {}}};
    t.rounds.push_back({1, {{0, 1, {{"r1", "g1", 0, true, 0, "quarto"}}}}, std::nullopt});
    t.rounds.push_back({2, {{1, 0, {}}}, 1795000045000});
    return t;
}

} // namespace

TEST_CASE("create_tournament: round_pause_seconds is 20 by default, 0 to 600 when given")
{
    const auto base = std::string{R"({"type":"create_tournament","name":"P","format":"swiss")"};
    CHECK(parse_as<create_tournament>(base + "}").settings.round_pause_seconds == 20);
    CHECK(parse_as<create_tournament>(base + R"(,"round_pause_seconds":null})").settings.round_pause_seconds == 20);
    CHECK(parse_as<create_tournament>(base + R"(,"round_pause_seconds":0})").settings.round_pause_seconds == 0);
    CHECK(parse_as<create_tournament>(base + R"(,"round_pause_seconds":600})").settings.round_pause_seconds == 600);
    for (const char* bad : {"-1", "601", "1.5", "\"20\"", "true", "[]", "18446744073709551616"}) {
        CAPTURE(bad);
        const auto e = parse_refused(base + R"(,"round_pause_seconds":)" + bad + "}");
        CHECK(wire_name(e.code) == "bad_message");
        CHECK(e.message.find("round_pause_seconds") != std::string::npos);
    }
    CHECK(parse_refused(base + R"(,"round_pause_seconds":601})").message ==
          R"("round_pause_seconds" must be between 0 and 600)");
}

TEST_CASE("the snapshot shows round_pause_seconds in the settings and a waiting round's start time")
{
    const tournament_record t = record_with_waiting_round();
    const json s = json::parse(tournament_snapshot(t, 3, {}, nullptr));
    CHECK(s["settings"]["round_pause_seconds"] == 45);
    CHECK(s["rounds"][0]["starts_at_ms"].is_null()); // started
    CHECK(s["rounds"][1]["starts_at_ms"] == 1795000045000);
    CHECK(s["rounds"][1]["pairings"][0]["room"].is_null());
    CHECK(s["rounds"][1]["pairings"][0]["players"] == json{"pbo", "pann"});
}

TEST_CASE("the tournament_round notice: the round, its start time and the opponent (null for a bye)")
{
    const tournament_record t = record_with_waiting_round();
    const std::string ann = "pann";
    CHECK(tournament_round_event(t, t.rounds[1], &ann) == json{{"type", "tournament_round"},
                                                              {"tournament", "tpause"},
                                                              {"round", 2},
                                                              {"starts_at_ms", 1795000045000},
                                                              {"opponent", "pann"}});
    CHECK(tournament_round_event(t, t.rounds[1], nullptr)["opponent"].is_null());
}

TEST_CASE("the stored form keeps the pause and a waiting round, and reads older records with the default")
{
    const tournament_record t = record_with_waiting_round();
    const json stored = stored_tournament(t);
    CHECK(stored["settings"]["round_pause_seconds"] == 45);
    CHECK(stored["rounds"][1]["starts_at_ms"] == 1795000045000);
    const auto back = read_stored_tournament(json::parse(stored.dump()));
    REQUIRE(back);
    CHECK(back->settings.round_pause_seconds == 45);
    CHECK_FALSE(back->rounds[0].starts_at_ms);
    CHECK(back->rounds[1].starts_at_ms == 1795000045000);
    CHECK(stored_tournament(*back) == stored);

    // Stored before the pause existed: no setting (the default), no start time (started).
    json older = stored;
    older["settings"].erase("round_pause_seconds");
    for (auto& r : older["rounds"]) r.erase("starts_at_ms");
    const auto old = read_stored_tournament(older);
    REQUIRE(old);
    CHECK(old->settings.round_pause_seconds == default_round_pause_seconds);
    CHECK_FALSE(old->rounds[1].starts_at_ms);

    // Damage is refused: out of range, not a whole number, a waiting round before the last, or
    // one with a game begun.
    const std::vector<std::pair<std::string, json>> damaged{
        {"/settings/round_pause_seconds", -1},
        {"/settings/round_pause_seconds", 601},
        {"/settings/round_pause_seconds", 1.5},
        {"/settings/round_pause_seconds", "20"},
        {"/settings/round_pause_seconds", nullptr},
        {"/settings/round_pause_seconds", 4294967316LL},
        {"/rounds/1/starts_at_ms", -5},
        {"/rounds/1/starts_at_ms", 1.5},
        {"/rounds/1/starts_at_ms", "soon"},
        {"/rounds/1/starts_at_ms", 18446744073709551615ULL},
        {"/rounds/0/starts_at_ms", 1795000000000},
        {"/rounds/1/pairings/0/games", json::array({{{"room", "r2"}, {"game", ""}, {"first", 0}, {"finished", false},
                                                     {"winner", nullptr}, {"reason", ""}}})},
    };
    for (const auto& [where, value] : damaged) {
        CAPTURE(where);
        CAPTURE(value);
        json d = stored;
        d[json::json_pointer{where}] = value;
        CHECK_FALSE(read_stored_tournament(d));
    }
    // A forfeit (a player removed during the pause) is a game without a room: kept.
    json forfeit = stored;
    forfeit["rounds"][1]["pairings"][0]["games"] = json::array(
        {{{"room", ""}, {"game", ""}, {"first", 0}, {"finished", true}, {"winner", 1}, {"reason", "forfeit"}}});
    CHECK(read_stored_tournament(forfeit));
}

TEST_CASE("a rated tournament: rated in its settings, each account's rating beside its name, kept when stored")
{
    tournament_record t = record_with_waiting_round();
    t.settings.rated = true;
    t.players[0].rating = quarto::model::shown_rating{1712, false};
    t.players[1].rating = quarto::model::shown_rating{1500, true};
    const json stored = stored_tournament(t);
    CHECK(stored["settings"]["rated"] == true);
    CHECK(stored["players"][0]["rating"] == json{{"points", 1712}, {"provisional", false}});
    const auto back = read_stored_tournament(json::parse(stored.dump()));
    REQUIRE(back);
    CHECK(back->settings.rated);
    CHECK(back->players[0].rating == t.players[0].rating);
    CHECK(back->players[1].rating == t.players[1].rating);
    const json snapshot = json::parse(quarto::protocol::tournament_snapshot(*back, 3, {}, nullptr));
    CHECK(snapshot["settings"]["rated"] == true);
    CHECK(snapshot["players"][0]["rating"] == 1712);
    CHECK(snapshot["players"][1]["provisional"] == true);

    // Stored before ratings: a casual tournament of guests.
    json older = stored;
    older["settings"].erase("rated");
    for (auto& p : older["players"]) p.erase("rating");
    const auto old = read_stored_tournament(older);
    REQUIRE(old);
    CHECK_FALSE(old->settings.rated);
    CHECK_FALSE(old->players[0].rating);
}
