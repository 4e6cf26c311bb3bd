// The tournament messages: parsing with defaults and refusals, the snapshot's shape and
// points, and the stored form reading back into an equal record.
#include <string>

#include "quarto/protocol/encode_tournament.hpp"
#include "quarto/protocol/stored_tournament.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::model;
using namespace quarto::protocol;
using namespace protocol_tests;

namespace {

bool operator_equal(const tournament_record& a, const tournament_record& b)
{
    return stored_tournament(a) == stored_tournament(b);
}

// Ann beat Bo; Cy had the bye; round 2 Ann vs Cy drawn, Bo has the bye... (3 players).
tournament_record sample()
{
    tournament_record t;
    t.id = "tabc";
    t.settings.name = "Club night";
    t.settings.format = tournament_format::swiss;
    t.settings.rounds = 2;
    t.settings.games_per_pairing = 1;
    t.settings.game_rules.squares = true;
    t.settings.start_at_ms = 1795000000000;
    t.director = "pdee";
    t.director_name = "Dee";
    t.status = tournament_status::running;
    t.created_ms = 1794000000000;
    t.players = {{"pann", "Ann", true, {}}, {"pbo", "Bo", true, {}}, {"pcy", "Cy", false, {}}};
    t.rounds.push_back({1, {{0, 1, {{"r1", "r1-1", 1, true, 0, "quarto"}}}, {2, std::nullopt, {}}}, std::nullopt});
    t.rounds.push_back(
        {2, {{0, 2, {{"r2", "r2-1", 0, true, std::nullopt, "board_full"}}}, {1, std::nullopt, {}}}, std::nullopt});
    return t;
}

} // namespace

TEST_CASE("create_tournament: required fields, defaults and the tournament clock")
{
    const auto m = parse_as<create_tournament>(R"({"type":"create_tournament","name":" Club ","format":"round_robin"})");
    CHECK(m.settings.name == "Club");
    CHECK(m.settings.format == tournament_format::round_robin);
    CHECK(m.settings.games_per_pairing == 1);
    CHECK(m.settings.max_players == default_max_players);
    CHECK(m.settings.clock.move == milliseconds{60'000}); // the tournament rule
    CHECK_FALSE(m.settings.start_at_ms);

    const auto s = parse_as<create_tournament>(
        R"({"type":"create_tournament","name":"S","format":"swiss","rounds":5,"games_per_pairing":2,
            "rules":{"squares":true},"clock":{"move_ms":null,"claim_ms":2000},"max_players":8,"start_at_ms":5})");
    CHECK(s.settings.rounds == 5);
    CHECK(s.settings.games_per_pairing == 2);
    CHECK(s.settings.game_rules.squares);
    CHECK_FALSE(s.settings.clock.move);
    CHECK(s.settings.clock.claim == milliseconds{2000});
    CHECK(s.settings.max_players == 8);
    CHECK(s.settings.start_at_ms == 5);
    // "rounds" is the Swiss's; a round robin has as many as its field needs.
    CHECK(parse_as<create_tournament>(R"({"type":"create_tournament","name":"R","format":"round_robin","rounds":3})")
              .settings.rounds == 0);
}

TEST_CASE("create_tournament: every bad field is bad_message")
{
    for (const char* text : {
             R"({"type":"create_tournament","format":"swiss"})",
             R"({"type":"create_tournament","name":"","format":"swiss"})",
             R"({"type":"create_tournament","name":"X"})",
             R"({"type":"create_tournament","name":"X","format":"knockout"})",
             R"({"type":"create_tournament","name":"X","format":"swiss","rounds":0})",
             R"({"type":"create_tournament","name":"X","format":"swiss","rounds":21})",
             R"({"type":"create_tournament","name":"X","format":"swiss","games_per_pairing":3})",
             R"({"type":"create_tournament","name":"X","format":"swiss","max_players":1})",
             R"({"type":"create_tournament","name":"X","format":"swiss","max_players":65})",
             R"({"type":"create_tournament","name":"X","format":"swiss","clock":{"move_ms":50}})",
             R"({"type":"create_tournament","name":"X","format":"swiss","rules":{"attributes":[]}})",
             R"({"type":"create_tournament","name":"X","format":"swiss","start_at_ms":-1})",
             R"({"type":"create_tournament","name":"X","format":"swiss","start_at_ms":"soon"})",
         })
        check_bad_message(text);
    check_bad_message(R"({"type":"create_tournament","name":")" + std::string(65, 'n') + R"(","format":"swiss"})");
    CHECK(parse_as<create_tournament>(R"({"type":"create_tournament","name":")" + std::string(64, 'n') +
                                      R"(","format":"swiss"})")
              .settings.name.size() == 64);
}

TEST_CASE("the messages that name a tournament")
{
    CHECK(parse_as<join_tournament>(R"({"type":"join_tournament","tournament":"t1"})").tournament == "t1");
    CHECK(parse_as<withdraw_tournament>(R"({"type":"withdraw_tournament","tournament":"t1"})").tournament == "t1");
    CHECK(parse_as<start_tournament>(R"({"type":"start_tournament","tournament":"t1"})").tournament == "t1");
    CHECK(parse_as<pause_tournament>(R"({"type":"pause_tournament","tournament":"t1"})").tournament == "t1");
    CHECK(parse_as<resume_tournament>(R"({"type":"resume_tournament","tournament":"t1"})").tournament == "t1");
    CHECK(parse_as<watch_tournament>(R"({"type":"watch_tournament","tournament":"t1"})").tournament == "t1");
    CHECK(parse_as<unwatch_tournament>(R"({"type":"unwatch_tournament","tournament":"t1"})").tournament == "t1");
    const auto r = parse_as<remove_player>(R"({"type":"remove_player","tournament":"t1","player":"pbo"})");
    CHECK(r.tournament == "t1");
    CHECK(r.player == "pbo");
    parse_as<list_tournaments>(R"({"type":"list_tournaments"})");

    for (const char* type : {"join_tournament", "withdraw_tournament", "start_tournament", "pause_tournament",
                             "resume_tournament", "watch_tournament", "unwatch_tournament", "remove_player"}) {
        check_bad_message(R"({"type":")" + std::string{type} + R"("})");
        check_bad_message(R"({"type":")" + std::string{type} + R"(","tournament":""})");
        check_bad_message(R"({"type":")" + std::string{type} + R"(","tournament":7})");
    }
    check_bad_message(R"({"type":"remove_player","tournament":"t1"})");
    check_bad_message(R"({"type":"remove_player","tournament":"t1","player":""})");
}

TEST_CASE("pairing points: results, draws, byes and completeness")
{
    const tournament_record t = sample();
    CHECK(pairing_half_points(t.rounds[0].pairings[0], 1) == std::array<int, 2>{2, 0});
    CHECK(pairing_half_points(t.rounds[1].pairings[0], 1) == std::array<int, 2>{1, 1});
    CHECK(pairing_half_points(t.rounds[0].pairings[1], 2) == std::array<int, 2>{4, 0}); // a bye: every game won
    tournament_pairing two_games{0, 1, {{"a", "", 0, true, 1, "quarto"}}};
    CHECK_FALSE(pairing_complete(two_games, 2));
    CHECK(pairing_complete(two_games, 1));
    two_games.games.push_back({"b", "", 1, false, std::nullopt, ""});
    CHECK_FALSE(pairing_complete(two_games, 2));
    CHECK(pairing_half_points(two_games, 2) == std::array<int, 2>{0, 2});
}

TEST_CASE("the snapshot names players by id and scores pairings in points")
{
    const tournament_record t = sample();
    const std::vector<tournament::standing> table{{1, 0, 3, 0.5, 1.5}, {2, 1, 2, 0, 2}, {3, 2, 1, 0.75, 1.5}};
    const json s = json::parse(tournament_snapshot(t, 9, table, "q"));
    CHECK(s["type"] == "tournament");
    CHECK(s["tournament"] == "tabc");
    CHECK(s["seq"] == 9);
    CHECK(s["req"] == "q");
    CHECK(s["format"] == "swiss");
    CHECK(s["status"] == "running");
    CHECK(s["director"] == "pdee");
    CHECK(s["players"][2] == json{{"id", "pcy"}, {"name", "Cy"}, {"active", false}});
    const json& board = s["rounds"][0]["pairings"][0];
    CHECK(board["players"] == json{"pann", "pbo"});
    CHECK(board["room"] == "r1");
    CHECK(board["score"] == json{1, 0});
    CHECK(board["results"][0] ==
          json{{"room", "r1"}, {"game", "r1-1"}, {"first", "pbo"}, {"winner", "pann"}, {"reason", "quarto"}});
    const json& bye = s["rounds"][0]["pairings"][1];
    CHECK(bye["players"] == json{"pcy", nullptr});
    CHECK(bye["room"].is_null());
    CHECK(bye["score"] == json{1, 0});
    CHECK(s["rounds"][1]["pairings"][0]["score"] == json{0.5, 0.5});
    CHECK(s["rounds"][1]["pairings"][0]["results"][0]["winner"].is_null());
    CHECK(s["standings"][0] == json{{"rank", 1},
                                    {"player", "pann"},
                                    {"name", "Ann"},
                                    {"points", 1.5},
                                    {"tiebreaks", {{"sonneborn_berger", 0.5}, {"buchholz", 1.5}}}});
    CHECK(s["standings"][1]["points"] == 1);
    CHECK(s["settings"]["start_at_ms"] == 1795000000000);
    CHECK(tournament_summary(t) ==
          json{{"id", "tabc"}, {"name", "Club night"}, {"format", "swiss"}, {"status", "running"}, {"players", 2}});
}

TEST_CASE("a round robin's standings show Sonneborn-Berger only")
{
    tournament_record t = sample();
    t.settings.format = tournament_format::round_robin;
    const std::vector<tournament::standing> table{{1, 0, 3, 0.5, 1.5}};
    CHECK(json::parse(tournament_snapshot(t, 1, table, nullptr))["standings"][0]["tiebreaks"] ==
          json{{"sonneborn_berger", 0.5}});
}

TEST_CASE("the stored form reads back into an equal record, and refuses what it is not")
{
    tournament_record t = sample();
    t.players[2] = {"bot-3", "Computer (level 3)", false, bot_opponent{3, 600}}; // the director's computer
    const json stored = stored_tournament(t);
    const auto back = read_stored_tournament(json::parse(stored.dump()));
    REQUIRE(back);
    CHECK(operator_equal(*back, t));
    CHECK(back->settings.game_rules == t.settings.game_rules);
    CHECK(back->settings.clock == t.settings.clock);
    CHECK(back->rounds[1].pairings[0].games[0].winner == std::nullopt);
    CHECK(back->players[2].active == false);
    CHECK(back->players[2].bot == bot_opponent{3, 600});
    CHECK_FALSE(back->players[0].bot);

    CHECK_FALSE(read_stored_tournament(json::object()));
    json wrong_version = stored;
    wrong_version["version"] = 2;
    CHECK_FALSE(read_stored_tournament(wrong_version));
    json bad_index = stored;
    bad_index["rounds"][0]["pairings"][0]["second"] = 7;
    CHECK_FALSE(read_stored_tournament(bad_index));
    json bad_status = stored;
    bad_status["status"] = "sleeping";
    CHECK_FALSE(read_stored_tournament(bad_status));

    // Every field within what this code writes: a damaged file must not index past an array.
    const std::vector<std::pair<std::string, json>> damaged{
        {"/rounds/0/pairings/0/games/0/winner", 7},
        {"/rounds/0/pairings/0/games/0/winner", -100000},
        {"/rounds/0/pairings/0/games/0/first", 2},
        {"/rounds/0/pairings/0/first", -1},
        {"/rounds/0/round", 0},
        {"/settings/games_per_pairing", 3},
        {"/settings/max_players", 1000},
        {"/settings/rounds", -1},
        {"/settings/start_at_ms", -5},
        {"/id", ""},
        {"/players/0/id", 42},
        {"/players/0/id", ""},
        {"/director", nullptr},
        // A number is read as written or not at all (tests/fuzz/findings/stored_tournament-*).
        {"/version", 1e300},
        {"/version", 1.0},
        {"/settings/rounds", 4294967297LL},
        {"/settings/rounds", 1.5},
        {"/settings/start_at_ms", 18446744073709551615ULL},
        {"/created_ms", 1e300},
        {"/rounds/0/pairings/0/first", 4294967296LL},
        {"/rounds/0/pairings/0/games/0/winner", 0.5},
        {"/players/2/bot/level", 6},
        {"/players/2/bot/level", 2.5},
        {"/players/2/bot/delay_ms", -1},
        {"/players/2/bot/delay_ms", 5001},
        {"/players/2/bot", "level 3"},
    };
    for (const auto& [where, value] : damaged) {
        CAPTURE(where);
        CAPTURE(value);
        json d = stored;
        d[json::json_pointer{where}] = value;
        CHECK_FALSE(read_stored_tournament(d));
    }
    // Too many games for a pairing.
    json crowded = stored;
    auto& games = crowded["rounds"][0]["pairings"][0]["games"];
    while (games.size() <= 2) games.push_back(games[0]);
    CHECK_FALSE(read_stored_tournament(crowded));
}
