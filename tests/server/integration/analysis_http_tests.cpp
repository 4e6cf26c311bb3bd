// The analysis API through the real server: GET /api/analysis evaluates a position (its value,
// distance and every legal move's), refusing malformed and impossible ones with 400 and a
// reason; GET /api/games/{id}/analysis analyses a finished game, marks the moves that changed
// its result, and keeps the analysis in the archive for the next request; a full queue is 503.
#include <algorithm>
#include <future>
#include <sstream>

#include <sqlite3.h>
#include <sys/wait.h>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

json analysis_json(const server_process& server, const std::string& target, unsigned expected_status)
{
    const http_response res = http_get(server.port(), target, in(std::chrono::seconds{30}));
    CHECK_MESSAGE(res.status == expected_status, target << " answered " << res.status << ": " << res.body);
    CHECK_MESSAGE(res.content_type == "application/json", target << ": " << res.content_type);
    json body = json::parse(res.body, nullptr, false);
    REQUIRE_MESSAGE(!body.is_discarded(), target << " sent no JSON: " << res.body);
    return body;
}

// A 400 whose message contains `reason`.
void check_bad(const server_process& server, const std::string& query, const std::string& reason)
{
    const json body = analysis_json(server, "/api/analysis?" + query, 400);
    CHECK_MESSAGE(body.value("type", "") == "error", query << ": " << body.dump());
    CHECK_MESSAGE(body.value("code", "") == "bad_request", query << ": " << body.dump());
    CHECK_MESSAGE(body.value("message", "").find(reason) != std::string::npos, query << ": " << body.dump());
}

json evaluation(const std::string& value, int distance, bool exact = true)
{
    return {{"value", value}, {"distance", distance}, {"exact", exact}};
}

json move(const json& square, const json& give, bool quarto)
{
    return {{"square", square}, {"give", give}, {"quarto", quarto}};
}

// The members of an analysed move that say what it does.
json move_of(const json& entry)
{
    return move(entry.at("square"), entry.at("give"), entry.at("quarto").get<bool>());
}

std::string count_rows(const std::string& db, const std::string& sql)
{
    sqlite3* handle = nullptr;
    REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(handle, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
    std::string out;
    if (sqlite3_step(statement) == SQLITE_ROW) out = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(handle);
    return out;
}

} // namespace

TEST_CASE("analysis: a position with an immediate win is a win in 1, and every legal move has its value")
{
    server_process server;
    // Row 0 holds the dark pieces 1, 3, 5; the player to move holds the dark 7.
    const json a = analysis_json(server, "/api/analysis?rules=lines&board=135.............&hand=7", 200);
    CHECK(a["rules"] == json{{"squares", false}, {"attributes", {"color", "height", "shape", "fill"}}});
    CHECK(a["board"] == "135.............");
    CHECK(a["hand"] == 7);
    CHECK(a["value"] == "win");
    CHECK(a["distance"] == 1);
    CHECK(a["exact"] == true);
    // 13 empty squares times the 12 pieces left to give, and the winning call on square 3.
    const json& moves = a["moves"];
    REQUIRE(moves.size() == 13 * 12 + 1);
    CHECK(move_of(moves[0]) == move(3, nullptr, true));
    CHECK(moves[0]["value"] == "win");
    CHECK(moves[0]["distance"] == 1);
    for (const json& m : moves) {
        CAPTURE(m.dump());
        CHECK(m["square"].is_number_integer());
        CHECK((m["quarto"] == true) == m["give"].is_null());
        CHECK((m["value"] == "win" || m["value"] == "draw" || m["value"] == "loss"));
        CHECK(m["distance"].is_number_unsigned());
        CHECK(m["exact"].is_boolean());
    }
    // Best first: nothing after the win is one.
    for (std::size_t i = 1; i < moves.size(); ++i) CHECK(moves[i]["value"] != "win");
    // Row 0 is dark and solid: with 7 placed elsewhere, giving a dark or a solid piece hands the
    // opponent the row, a loss in 2 (their placement is the second).
    int losing_gives = 0;
    for (const json& m : moves) {
        if (m["square"] == 3) continue; // placed there uncalled: the opponent claims it, a loss in 1
        const int given = m["give"].get<int>();
        if ((given & 1) == 0 && (given & 8) != 0) continue; // light and hollow: safe on square 3
        CAPTURE(m.dump());
        CHECK(m["value"] == "loss");
        CHECK(m["distance"] == 2);
        CHECK(m["exact"] == true);
        ++losing_gives;
    }
    CHECK(losing_gives == 12 * 8); // 0, 2, 4, 6 (solid) and 9, 11, 13, 15 (dark)
}

TEST_CASE("analysis: a Quarto on the board counts only while `callable` says it may still be called or claimed")
{
    server_process server;
    // Row 0 holds the dark 1, 3, 5 and 7, the last placed on square 3.
    const std::string board = "1357............";
    const json call = analysis_json(server, "/api/analysis?rules=lines&board=" + board + "&hand=-&callable=3", 200);
    CHECK(call["callable"] == 3);
    CHECK(call["value"] == "win");
    CHECK(call["distance"] == 0);
    CHECK(call["exact"] == true);
    CHECK(call["moves"][0]["quarto"] == true);
    CHECK(call["moves"][0]["value"] == "win");
    CHECK(call["moves"][0]["distance"] == 0);
    // The opponent placed there and gave 8 without calling: a claim wins at once.
    const json claim = analysis_json(server, "/api/analysis?rules=lines&board=" + board + "&hand=8&callable=3", 200);
    CHECK(claim["value"] == "win");
    CHECK(claim["distance"] == 0);
    CHECK(claim["moves"][0]["quarto"] == true);
    CHECK(claim["moves"][0]["square"].is_null());
    // Without it the line counts for nothing: no move is a call, and no win is at distance 0.
    const json gone = analysis_json(server, "/api/analysis?rules=lines&board=" + board + "&hand=8", 200);
    CHECK(gone["callable"].is_null());
    CHECK(gone["distance"] != 0);
    for (const json& m : gone["moves"]) CHECK(m["quarto"] == false);
    // An empty square cannot be the last placement.
    check_bad(server, "rules=lines&board=" + board + "&hand=8&callable=9", "square 9, which is empty");
}

TEST_CASE("analysis: the last empty square is a draw in 1, and a give that every piece loses is a loss in 1")
{
    server_process server;
    // A full board without a Quarto, square 15 emptied: its piece is the one in hand.
    const auto full = drawn_board();
    std::string board;
    for (int sq = 0; sq < 15; ++sq) board += "0123456789abcdef"[full[static_cast<std::size_t>(sq)]];
    board += '.';
    const json last = analysis_json(server, "/api/analysis?rules=lines&board=" + board + "&hand=" +
                                                std::string(1, "0123456789abcdef"[full[15]]), 200);
    CHECK(last["value"] == "draw");
    CHECK(last["distance"] == 1);
    CHECK(last["exact"] == true);
    REQUIRE(last["moves"].size() == 1);
    CHECK(move_of(last["moves"][0]) == move(15, nullptr, false));
    CHECK(last["moves"][0]["value"] == "draw");

    // Row 0: three dark pieces; row 1: three light ones. Every piece left is dark or light, so
    // whatever is given completes one of the rows: the player to move gives, and loses.
    const json lost = analysis_json(server, "/api/analysis?rules=lines&board=135.024.........&hand=-", 200);
    CHECK(lost["hand"].is_null());
    CHECK(lost["value"] == "loss");
    CHECK(lost["distance"] == 1);
    CHECK(lost["exact"] == true);
    REQUIRE(lost["moves"].size() == 10);
    std::vector<int> given;
    for (const json& m : lost["moves"]) {
        CHECK(m["square"].is_null());
        CHECK(m["quarto"] == false);
        CHECK(m["value"] == "loss");
        CHECK(m["distance"] == 1);
        given.push_back(m["give"].get<int>());
    }
    std::sort(given.begin(), given.end());
    CHECK(given == std::vector<int>{6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
}

TEST_CASE("analysis: the rules decide the value - 2x2 squares and the attributes that count")
{
    server_process server;
    // Dark 1, 3 on squares 0, 1 and dark 5 on square 4: the dark 7 on square 5 fills a 2x2 square.
    const json squares = analysis_json(server, "/api/analysis?rules=squares&board=13..5...........&hand=7", 200);
    CHECK(squares["rules"]["squares"] == true);
    CHECK(squares["value"] == "win");
    CHECK(squares["distance"] == 1);
    CHECK(move_of(squares["moves"][0]) == move(5, nullptr, true));
    const json lines = analysis_json(server, "/api/analysis?rules=lines&board=13..5...........&hand=7", 200);
    CHECK_FALSE((lines["value"] == "win" && lines["distance"] == 1));

    // Only height counts: 1, 3, 5 are short, tall, short, so 7 completes nothing on square 3.
    const json height = analysis_json(server, "/api/analysis?rules=lines&attributes=height&board=135.............&hand=7", 200);
    CHECK(height["rules"]["attributes"] == json{"height"});
    CHECK_FALSE((height["value"] == "win" && height["distance"] == 1));
    for (const json& m : height["moves"]) CHECK(m["quarto"] == false);
}

TEST_CASE("analysis: malformed and impossible positions are 400 with the reason")
{
    server_process server;
    const std::string empty = "board=................";
    check_bad(server, empty + "&hand=-", "Say which rules");
    check_bad(server, "rules=diagonals&" + empty + "&hand=-", "\"lines\" or \"squares\"");
    check_bad(server, "rules=lines&attributes=colour&" + empty + "&hand=-", "\"colour\" is none of them");
    check_bad(server, "rules=lines&attributes=&" + empty + "&hand=-", "one to four of color");
    check_bad(server, "rules=lines&attributes=fill,fill&" + empty + "&hand=-", "repeats \"fill\"");
    check_bad(server, "rules=lines&hand=-", "Say which board");
    check_bad(server, "rules=lines&board=135&hand=-", "16 characters");
    check_bad(server, "rules=lines&board=135..............&hand=-", "it has 17");
    check_bad(server, "rules=lines&board=135x............&hand=-", "'x' at square 3");
    check_bad(server, "rules=lines&" + empty, "Say which piece");
    check_bad(server, "rules=lines&" + empty + "&hand=16", "one hex digit");
    check_bad(server, "rules=lines&" + empty + "&hand=%zz", "%-escape");
    check_bad(server, "rules=lines&board=1..1............&hand=-", "Piece 1 is on the board twice");
    check_bad(server, "rules=lines&board=135.............&hand=3", "piece in hand, 3, is already on the board");
    check_bad(server, "rules=lines&board=0123456789abcdef&hand=-", "The board is full");
    check_bad(server, "rules=lines&board=0123456789abcdef&hand=0", "The board is full");
    // A position that is fine, to show that the refusals are the queries' own: f on square 15
    // completes column 3 (3, 7, b, f are all dark and tall), called or not.
    const json last = analysis_json(server, "/api/analysis?rules=lines&board=0123456789abcde.&hand=f", 200);
    CHECK(last["value"] == "win");
    CHECK(last["moves"].size() == 2);
}

TEST_CASE("analysis: a finished game's analysis marks the thrown-away win and its winning move, then comes from the archive")
{
    server_process server;
    duel d = start_duel(server);
    const int a = d.first, b = 1 - d.first;
    // Row 0 gets the dark 1, 3, 5; b then gives a the dark 7, which wins on square 3. a places it
    // on square 8 instead and gives the dark 9, which wins there for b; b resigns.
    REQUIRE(play(d, a, {{1, 0}, {3, 1}, {5, 2}, {7, 8}}) == a);
    d.act(a, "give", {{"piece", 9}});
    d.expect_all("given");
    d.act(b, "resign");
    const std::string id = d.expect_all("game_over")["game"].get<std::string>();

    const std::string target = "/api/games/" + id + "/analysis";
    const json first = analysis_json(server, target, 200);
    CHECK(first["game"] == id);
    CHECK(first["cached"] == false);
    // The budget itself is checked by the unit test; here, at nice 10 on a machine the other
    // tests load, only that the search did stop.
    CHECK(first["ms"].get<int>() <= 10000);
    const json& positions = first["positions"];
    REQUIRE(positions.size() == 6);
    const int steps[] = {0, 1, 3, 5, 7, 9};
    for (std::size_t i = 0; i < positions.size(); ++i) {
        CAPTURE(i);
        CHECK(positions[i]["step"] == steps[i]);
        CHECK(positions[i]["seat"] == (i % 2 == 0 ? a : b));
    }
    CHECK(positions[0]["board"] == "................");
    CHECK(positions[0]["hand"].is_null());
    CHECK(positions[0]["played"] == move(nullptr, 1, false));

    // b's give of the fourth dark piece: lost in 2.
    CHECK(positions[3]["played"] == move(2, 7, false));
    CHECK(positions[3]["after"] == evaluation("loss", 2));
    CHECK(positions[3]["changed"] == true);

    // a's thrown-away win, with the move that won.
    const json& threw = positions[4];
    CHECK(threw["board"] == "135.............");
    CHECK(threw["hand"] == 7);
    CHECK(threw["before"] == evaluation("win", 1));
    CHECK(threw["played"] == move(8, 9, false));
    CHECK(threw["after"] == evaluation("loss", 2));
    CHECK(threw["changed"] == true);
    CHECK(threw["best"] == json::array({move(3, nullptr, true)}));
    CHECK(threw["ended_by"].is_null());

    // b resigned a won position.
    const json& resigned = positions[5];
    CHECK(resigned["played"].is_null());
    CHECK(resigned["ended_by"] == "resign");
    CHECK(resigned["before"] == evaluation("win", 1));
    CHECK(resigned["after"] == evaluation("loss", 0));
    CHECK(resigned["changed"] == true);

    // A move that kept the value is not marked and names no best move.
    CHECK(positions[2]["changed"] == false);
    CHECK(positions[2]["best"] == json::array());

    // The second request is served from the archive, as computed the first time.
    const json second = analysis_json(server, target, 200);
    CHECK(second["cached"] == true);
    json same = second;
    same["cached"] = false;
    CHECK(same == first);
    CHECK(count_rows(server.db_path(), "SELECT count(*) FROM game_analysis WHERE game_id = '" + id + "'") == "1");
    CHECK(count_rows(server.db_path(), "SELECT exact FROM game_analysis") == (first["exact"] == true ? "1" : "0"));

    // Unknown games are 404, as for the record itself.
    const json unknown = analysis_json(server, "/api/games/nosuchgame123/analysis", 404);
    CHECK(unknown["code"] == "not_found");
    CHECK(analysis_json(server, "/api/games/a/b/analysis", 404)["code"] == "not_found");
}

TEST_CASE("analysis: requests beyond the worker's queue are refused with 503 at once, the others answered")
{
    server_process server;
    // The empty board takes the whole 1 s budget: 24 at once are more than the 2 searches and
    // the 16 places of the queue.
    constexpr int requests = 24;
    std::vector<std::future<http_response>> answers;
    for (int i = 0; i < requests; ++i)
        answers.push_back(std::async(std::launch::async, [&server] {
            return http_get(server.port(), "/api/analysis?rules=lines&board=................&hand=-",
                            in(std::chrono::seconds{50}));
        }));
    int ok = 0, busy = 0;
    for (auto& f : answers) {
        const http_response res = f.get();
        if (res.status == 200) {
            ++ok;
            CHECK(json::parse(res.body)["moves"].size() == 16);
        } else {
            CHECK_MESSAGE(res.status == 503, res.status << ": " << res.body);
            CHECK(json::parse(res.body)["code"] == "analysis_busy");
            ++busy;
        }
    }
    CHECK(busy >= 1);
    CHECK(ok >= 2);
    CHECK(ok + busy == requests);
}

TEST_CASE("analysis: SIGTERM during searches ends them at once and exits cleanly")
{
    server_process server{{"--shutdown-grace", "0.5"}};
    // Two searches of the empty board running and the queue full: nine seconds of search, had
    // the worker to finish them before it let the server exit.
    constexpr int requests = 18;
    std::vector<std::future<void>> pending;
    for (int i = 0; i < requests; ++i)
        pending.push_back(std::async(std::launch::async, [&server] {
            try {
                (void)http_get(server.port(), "/api/analysis?rules=lines&board=................&hand=-",
                               in(std::chrono::seconds{20}));
            } catch (const std::exception&) { // the server went away: what this test does
            }
        }));
    // Every request has been routed once the server has counted them besides the scrapes
    // (each counts itself).
    int scrapes = 0;
    const auto routed = [&] {
        const std::string text = http_get(server.port(), "/metrics").body;
        ++scrapes;
        constexpr std::string_view name = "\nquarto_http_requests_total ";
        const auto at = text.find(name);
        return at != std::string::npos && std::stoi(text.substr(at + name.size())) >= requests + scrapes;
    };
    const auto deadline = in(std::chrono::seconds{10});
    while (!routed()) REQUIRE(steady::now() < deadline);

    const auto signalled = steady::now();
    const std::optional<int> status = server.stop();
    const auto took = steady::now() - signalled;
    REQUIRE_MESSAGE(status.has_value(), "the server did not exit on SIGTERM; its log:\n" << server.log());
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 0);
    // Besides the 0.5 s grace, the sanitizers' own work at exit (a second or more here).
    CHECK_MESSAGE(took < std::chrono::seconds{5},
                  "stopping took " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms");
    for (auto& p : pending) p.wait();
}
