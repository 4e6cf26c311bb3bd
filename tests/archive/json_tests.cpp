// The JSON of archived games is built from the protocol's encoders: it reads exactly like the
// WebSocket protocol (section 15 of PROTOCOL.md shows these bodies).
#include <nlohmann/json.hpp>

#include "quarto/archive/game_json.hpp"
#include "support.hpp"

using namespace quarto::archive;
using namespace archive_tests;
using nlohmann::json;

TEST_CASE("GET /api/games/{id}: the whole record")
{
    const game_record r = quarto_game("g7mq2x9kbn4a", "Ann", "Bo", 0);
    CHECK(game_json(r) == json::parse(R"({
        "id":"g7mq2x9kbn4a","room":"k3x9abqz","room_name":"Friday night",
        "players":[{"seat":0,"id":"pAnn","name":"Ann"},{"seat":1,"id":"pBo","name":"Bo"}],
        "rules":{"squares":true,"attributes":["color","height","shape","fill"],"false_claim":"lose"},
        "clock":{"move_ms":30000,"claim_ms":5000},
        "first":0,
        "result":{"result":"win","winner":0,"reason":"quarto","line":[0,1,2,3]},
        "started_ms":1760000000000,"ended_ms":1760000000900,"rated":false,
        "moves":[{"type":"give","seat":0,"piece":0,"t_ms":100},{"type":"place","seat":1,"square":0,"t_ms":250},
                 {"type":"give","seat":1,"piece":2,"t_ms":300},{"type":"place","seat":0,"square":1,"t_ms":400},
                 {"type":"give","seat":0,"piece":4,"t_ms":500},{"type":"place","seat":1,"square":2,"t_ms":600},
                 {"type":"give","seat":1,"piece":6,"t_ms":700},{"type":"place","seat":0,"square":3,"t_ms":800},
                 {"type":"quarto","seat":0,"line":[0,1,2,3],"t_ms":900}]})"));
}

TEST_CASE("GET /api/games?player=NAME: summaries without moves")
{
    const std::vector<game_record> games{resigned_game("g2")};
    CHECK(games_list_json("Cy", games) == json::parse(R"({"player":"Cy","games":[{
        "id":"g2","room":"room2","room_name":"Zoë's room",
        "players":[{"seat":0,"id":"pz","name":"Zoë"},{"seat":1,"id":"pc","name":"Cy"}],
        "rules":{"squares":false,"attributes":["color","fill"],"false_claim":"reject"},
        "clock":{"move_ms":null,"claim_ms":10000},
        "first":1,
        "result":{"result":"win","winner":0,"reason":"resign"},
        "started_ms":5,"ended_ms":6,"move_count":3,"rated":false}]})"));
    CHECK(games_list_json("Nobody", {}) == json::parse(R"({"player":"Nobody","games":[]})"));
}

TEST_CASE("a rated game's JSON says what it did to each seat's rating, in whole points")
{
    game_record r = quarto_game("g7mq2x9kbn4a", "Ann", "Bo", 0);
    const auto pool = quarto::rating::pool::advanced;
    r.ratings = game_ratings{pool,
                             {{{{pool, 1500, 500, 0.09, 0, 0}, {pool, 1662.5, 290.49, 0.0899, 1, r.ended_ms}},
                               {{pool, 1712.4, 61.2, 0.06, 40, 5}, {pool, 1688.49, 60.5, 0.06, 41, r.ended_ms}}}}};
    const json summary = game_summary_json(r);
    CHECK(summary["rated"] == true);
    // lround: halves away from zero. RD 110 or more is provisional (rating::provisional).
    CHECK(summary["ratings"] == json::parse(R"([
        {"seat":0,"player":"pAnn","before":1500,"after":1663,"rd":290,"provisional":true},
        {"seat":1,"player":"pBo","before":1712,"after":1688,"rd":61,"provisional":false}])"));
    CHECK(game_json(r)["ratings"] == summary["ratings"]);
    CHECK(games_list_json("Ann", std::vector{r})["games"][0]["ratings"] == summary["ratings"]);

    r.ratings.reset();
    CHECK(game_summary_json(r)["rated"] == false);
    CHECK_FALSE(game_summary_json(r).contains("ratings"));
}
