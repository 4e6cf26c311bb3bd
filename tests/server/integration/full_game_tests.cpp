// Full games for every result, driven through the real server.
#include "helpers.hpp"

using namespace quarto_test;

namespace {
// Pieces 0..3 are all light, short, round and solid: any 4 of them on a line align.
const std::vector<step> row0_for_first = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
// After these four steps the first giver's opponent placed on 0 and 2, the first on 1 and 3:
// the first giver placed the last piece, completing row 0.
} // namespace

TEST_CASE("game: the placer calls Quarto and wins")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    const int placer = play(d, d.first, row0_for_first);
    CHECK(placer == d.first);
    d.act(placer, "quarto", {{"line", {3, 1, 0, 2}}}, "q");
    json over = d.expect_all("game_over");
    CHECK(over["result"] == "win");
    CHECK(over["winner"] == placer);
    CHECK(over["reason"] == "quarto");
    CHECK(sorted_line(over["line"]) == std::vector<int>{0, 1, 2, 3});
    for (ws_client* ws : d.everyone()) CHECK(check_seq(ws->history(), d.room) >= 10);
    // Success gets no direct reply: the caller's next message is the answer to a ping sent
    // now (its session answers in order), not something about the call, however late.
    d.by_seat(placer)->send({{"type", "ping"}, {"req", "after the call"}});
    json next = must(d.by_seat(placer)->next(), "pong");
    CHECK(next["type"] == "pong");
    CHECK(next["req"] == "after the call");

    // The final snapshot.
    player late = connect_player(server, "Late");
    json snap = join(*late.ws, d.room, "spectator");
    CHECK(snap["status"] == "finished");
    CHECK(snap["game"]["phase"] == "finished");
    CHECK(snap["game"]["result"]["winner"] == placer);
    CHECK(snap["game"]["result"]["reason"] == "quarto");
    CHECK(snap["game"]["claim"].is_null());
    CHECK(snap["game"]["clock"]["running"].is_null());
}

TEST_CASE("game: a missed Quarto is claimed by the opponent in the window")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    const int placer = play(d, d.first, row0_for_first);
    const int other = 1 - placer;
    d.act(placer, "give", {{"piece", 4}}); // no call: the window opens for the other seat
    d.expect_all("given");
    // The placer can no longer call (it is the opponent's turn).
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}}, 1);
    json e = must(d.by_seat(placer)->next(), "not_your_turn");
    CHECK(e["code"] == "not_your_turn");
    CHECK(e["req"] == 1);
    d.act(other, "quarto", {{"line", {0, 1, 2, 3}}});
    json over = d.expect_all("game_over");
    CHECK(over["result"] == "win");
    CHECK(over["winner"] == other);
    CHECK(over["reason"] == "missed_quarto");
    CHECK(sorted_line(over["line"]) == std::vector<int>{0, 1, 2, 3});
    for (ws_client* ws : d.everyone()) check_seq(ws->history(), d.room);
}

TEST_CASE("game: the claim window closes when the opponent places")
{
    server_process server;
    duel d = start_duel(server);
    const int placer = play(d, d.first, row0_for_first);
    const int other = 1 - placer;
    play(d, placer, {{4, 15}}); // other places elsewhere: the alignment has lost its value
    d.act(other, "quarto", {{"line", {0, 1, 2, 3}}}, "late");
    json e = must(d.by_seat(other)->next(), "invalid_claim");
    CHECK(e["type"] == "error");
    CHECK(e["code"] == "invalid_claim");
    CHECK(e["req"] == "late");
}

TEST_CASE("game: the claim window closes after claim_ms")
{
    server_process server;
    duel d = start_duel(server, {{"clock", {{"move_ms", 60000}, {"claim_ms", 300}}}});
    const int placer = play(d, d.first, row0_for_first);
    const int other = 1 - placer;
    d.act(placer, "give", {{"piece", 4}});
    d.expect_all("given");
    // Let the window run out: a fresh spectator's snapshot tells us when it has closed.
    const auto deadline = in(default_wait);
    for (int i = 0;; ++i) {
        player look = connect_player(server, "Look" + std::to_string(i));
        json snap = join(*look.ws, d.room, "spectator");
        if (snap["game"]["claim"].is_null()) break;
        REQUIRE(steady::now() < deadline);
        look->pump(milliseconds{50});
    }
    d.act(other, "quarto", {{"line", {0, 1, 2, 3}}}, "late");
    json e = must(d.by_seat(other)->wait_type("error"), "invalid_claim");
    CHECK(e["code"] == "invalid_claim");
    CHECK(e["req"] == "late");
    // The game goes on.
    d.act(other, "place", {{"square", 15}});
    d.expect_all("placed");
}

TEST_CASE("game: running out of move time loses (timeout)")
{
    server_process server;
    // The clock starts when the second player's join reaches the server, after this.
    const auto before_start = steady::now();
    duel d = start_duel(server, {{"clock", {{"move_ms", 300}, {"claim_ms", 300}}}}, 1);
    // Promptly, but how promptly depends on the machine: the wait is a deadline only.
    json over = d.expect_all("game_over", in(default_wait));
    CHECK(over["result"] == "win");
    CHECK(over["reason"] == "timeout");
    CHECK(over["winner"] == 1 - d.first);
    // Not before the time was up (less 1 ms: the server's clock counts whole milliseconds).
    CHECK(steady::now() - before_start >= milliseconds{300 - 1});
    for (ws_client* ws : d.everyone()) check_seq(ws->history(), d.room);
}

TEST_CASE("game: the move clock restarts each move - timeout in mid-game")
{
    server_process server;
    // Each of the two moves played here must reach the server within move_ms: 3 s leaves a
    // loaded machine its margin (the test then waits that long for the timeout).
    duel d = start_duel(server, {{"clock", {{"move_ms", 3000}, {"claim_ms", 300}}}});
    const auto second_move_before = steady::now();
    play(d, d.first, {{0, 5}}); // the first gives; the second places; now the second must give
    json over = d.expect_all("game_over", in(default_wait));
    // A whole move's time (less 1 ms: the server's clock counts whole milliseconds).
    CHECK(steady::now() - second_move_before >= milliseconds{3000 - 1});
    CHECK(over["reason"] == "timeout");
    CHECK(over["winner"] == d.first);
}

TEST_CASE("game: resign")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    play(d, d.first, {{7, 7}});
    const int quitter = d.first; // not necessarily the mover: anyone may resign
    d.act(quitter, "resign", json::object());
    json over = d.expect_all("game_over");
    CHECK(over["result"] == "win");
    CHECK(over["winner"] == 1 - quitter);
    CHECK(over["reason"] == "resign");
}

TEST_CASE("game: leave during a game resigns")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    play(d, d.first, {{7, 7}});
    const int quitter = 1 - d.first;
    d.act(quitter, "leave", json::object());
    for (ws_client* ws : {d.by_seat(d.first).ws.get(), d.watchers[0].ws.get()}) {
        json over = must(ws->wait_type("game_over"), "game_over");
        CHECK(over["winner"] == d.first);
        CHECK(over["reason"] == "resign");
    }
    // `left` is broadcast too (before or after game_over): awaited if it has not come yet.
    bool saw_left = false;
    for (json m : d.watchers[0]->history())
        if (m["type"] == "left") saw_left = true;
    if (!saw_left) saw_left = d.watchers[0]->wait_type("left").has_value();
    CHECK(saw_left);
    check_seq(d.watchers[0]->history(), d.room);
}

TEST_CASE("game: draw when the board is full and both pass")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    const std::array<int, 16> board = drawn_board();
    std::vector<step> steps;
    for (int sq = 0; sq < 16; ++sq) steps.push_back({board[static_cast<std::size_t>(sq)], sq});
    const int last = play(d, d.first, steps);
    CHECK(last == d.first); // placements alternate starting with the second seat: the 16th is the first's

    // After the 16th placement: phase give, nothing available.
    player late = connect_player(server, "Late");
    json snap = join(*late.ws, d.room, "spectator");
    CHECK(snap["game"]["phase"] == "give");
    CHECK(snap["game"]["available"] == json::array());
    CHECK(snap["game"]["turn"] == last);
    CHECK(snap["game"]["claim"].is_null());
    d.watchers.push_back(std::move(late));

    // Giving is impossible now.
    d.act(last, "give", {{"piece", 0}}, "g");
    json e = must(d.by_seat(last)->wait_type("error"), "piece_unavailable");
    CHECK(e["code"] == "piece_unavailable");
    CHECK(e["req"] == "g");

    d.act(last, "pass", json::object());
    json passed = d.expect_all("passed");
    CHECK(passed["seat"] == last);
    CHECK(passed.contains("clock"));

    // The final claim window for the other seat.
    player later = connect_player(server, "Later");
    snap = join(*later.ws, d.room, "spectator");
    CHECK(snap["game"]["phase"] == "give");
    CHECK(snap["game"]["available"] == json::array());
    REQUIRE(snap["game"]["claim"].is_object());
    CHECK(snap["game"]["claim"]["seat"] == 1 - last);
    d.watchers.push_back(std::move(later));

    d.act(1 - last, "pass", json::object());
    json over = d.expect_all("game_over");
    CHECK(over["result"] == "draw");
    CHECK(over["winner"].is_null());
    CHECK(over["reason"] == "board_full");
    for (ws_client* ws : d.everyone()) check_seq(ws->history(), d.room);
}

TEST_CASE("game: draw when the final claim window runs out")
{
    server_process server;
    duel d = start_duel(server, {{"clock", {{"move_ms", 60000}, {"claim_ms", 300}}}});
    const std::array<int, 16> board = drawn_board();
    std::vector<step> steps;
    for (int sq = 0; sq < 16; ++sq) steps.push_back({board[static_cast<std::size_t>(sq)], sq});
    const int last = play(d, d.first, steps);
    d.act(last, "pass", json::object());
    d.expect_all("passed");
    json over = d.expect_all("game_over", in(default_wait));
    CHECK(over["result"] == "draw");
    CHECK(over["winner"].is_null());
    CHECK(over["reason"] == "board_full");
}

TEST_CASE("game: an invalid claim in the final window is rejected - pass then draws")
{
    server_process server;
    duel d = start_duel(server);
    const std::array<int, 16> board = drawn_board();
    std::vector<step> steps;
    for (int sq = 0; sq < 16; ++sq) steps.push_back({board[static_cast<std::size_t>(sq)], sq});
    const int last = play(d, d.first, steps);
    d.act(last, "pass", json::object());
    d.expect_all("passed");
    // No alignment exists, so the claim is invalid (and the game goes on in the window).
    d.act(1 - last, "quarto", {{"line", {12, 13, 14, 15}}}, "no");
    json e = must(d.by_seat(1 - last)->next(), "invalid_claim");
    CHECK(e["code"] == "invalid_claim");
    CHECK(e["req"] == "no");
    d.act(1 - last, "pass", json::object());
    CHECK(d.expect_all("game_over")["reason"] == "board_full");
}

TEST_CASE("game: a false claim loses with false_claim lose")
{
    server_process server;
    duel d = start_duel(server, {{"rules", {{"false_claim", "lose"}}}}, 1);
    const int placer = play(d, d.first, {{0, 0}});
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
    json over = d.expect_all("game_over");
    CHECK(over["result"] == "win");
    CHECK(over["winner"] == 1 - placer);
    CHECK(over["reason"] == "false_claim");
}

TEST_CASE("game: a false claim is rejected by default and the game goes on")
{
    server_process server;
    duel d = start_duel(server);
    const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 2}, {8, 3}}); // 8 is hollow: no line
    // 0, 1, 2, 8 share light, short and round.
    d.act(placer, "quarto", {{"line", {0, 1, 4, 5}}}, 1); // a 2x2 square: not a pattern by default
    CHECK(must(d.by_seat(placer)->next(), "invalid_claim")["code"] == "invalid_claim");
    d.act(placer, "quarto", {{"line", {0, 4, 8, 12}}}, 2); // a column with empty squares
    CHECK(must(d.by_seat(placer)->next(), "invalid_claim")["code"] == "invalid_claim");
    d.act(placer, "quarto", {{"line", {3, 2, 1, 0}}}, 3); // valid: row 0 shares light/short/round
    json over = d.expect_all("game_over");
    CHECK(over["reason"] == "quarto");
    CHECK(over["winner"] == placer);
}

TEST_CASE("game: a call needs a shared attribute and must contain the judged placement")
{
    server_process server;
    duel d = start_duel(server);
    // Row 0 with 0, 1, 14, 15: 0=0000 1=0001 14=1110 15=1111 share nothing.
    const int placer = play(d, d.first, {{0, 0}, {1, 1}, {14, 2}, {15, 3}});
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}}, "none");
    json e1 = must(d.by_seat(placer)->next(), "invalid_claim");
    CHECK(e1["code"] == "invalid_claim");
    CHECK(e1["req"] == "none");
    // Column 0 aligned by pieces the placer did not just place: 2 on 4, 4 on 8, 6 on 12 with 0.
    // (0,2,4,6 share light and solid.) The last placement is on 12 by the next placer.
    d.act(placer, "give", {{"piece", 2}});
    d.expect_all("given");
    const int p2 = 1 - placer;
    d.act(p2, "place", {{"square", 4}});
    d.expect_all("placed");
    play(d, p2, {{4, 8}, {6, 12}}); // p2 gives 4 -> placer puts on 8; placer gives 6 -> p2 puts on 12
    // p2 gives without calling; the placer places (closing the window) and then calls the
    // aligned column, which misses the placement now judged (their own, on 13).
    play(d, p2, {{9, 13}});
    d.act(placer, "quarto", {{"line", {0, 4, 8, 12}}}, "miss");
    json e2 = must(d.by_seat(placer)->next(), "invalid_claim");
    CHECK(e2["code"] == "invalid_claim");
    CHECK(e2["req"] == "miss");
    // The game goes on.
    d.act(placer, "give", {{"piece", 10}});
    CHECK(d.expect_all("given")["piece"] == 10);
}

TEST_CASE("game: squares rules make a 2x2 square win - beginner attributes restrict")
{
    server_process server;
    SUBCASE("squares")
    {
        duel d = start_duel(server, {{"rules", {{"squares", true}}}});
        // 2x2 at 0,1,4,5 with pieces 0,1,2,3 (all short, round, solid).
        const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 4}, {3, 5}});
        d.act(placer, "quarto", {{"line", {0, 1, 4, 5}}});
        json over = d.expect_all("game_over");
        CHECK(over["reason"] == "quarto");
        CHECK(over["winner"] == placer);
    }
    SUBCASE("attributes")
    {
        // Only colour counts: 0,2,4,6 (all light) align; 1,2,4,8 share only "solid"... use
        // 0,1,2,3: they share height/shape/fill but not colour (1 and 3 are dark).
        duel d = start_duel(server, {{"rules", {{"attributes", {"color"}}}}});
        const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
        d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}}, "c");
        json e = must(d.by_seat(placer)->next(), "invalid_claim");
        CHECK(e["code"] == "invalid_claim");
        CHECK(e["req"] == "c");
    }
}

TEST_CASE("game: rematch when both ask starts a new game")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    d.act(d.first, "resign", json::object());
    d.expect_all("game_over");
    d.act(0, "rematch", json::object());
    json r0 = d.expect_all("rematch_requested");
    CHECK(r0["seat"] == 0);
    d.act(1, "rematch", json::object());
    // (The second request may or may not be broadcast before the new game starts.)
    json again = d.expect_all("game_started");
    CHECK((again["first"] == 0 || again["first"] == 1));
    CHECK(again["players"] == d.started["players"]);
    d.first = again["first"].get<int>();
    // The new game is playable from scratch.
    const int placer = play(d, d.first, row0_for_first);
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
    CHECK(d.expect_all("game_over")["reason"] == "quarto");
    for (ws_client* ws : d.everyone()) check_seq(ws->history(), d.room);
}

TEST_CASE("game: rematch before the game is over is wrong_phase")
{
    server_process server;
    duel d = start_duel(server);
    d.act(0, "rematch", json::object(), "r");
    json e = must(d.by_seat(0)->next(), "wrong_phase");
    CHECK(e["code"] == "wrong_phase");
    CHECK(e["req"] == "r");
}

TEST_CASE("game: the coin flip gives both seats the first move over many games")
{
    server_process server;
    int firsts[2] = {0, 0};
    duel d = start_duel(server);
    ++firsts[d.first];
    for (int i = 0; i < 15 && (firsts[0] == 0 || firsts[1] == 0); ++i) {
        d.act(0, "resign", json::object());
        d.expect_all("game_over");
        d.act(0, "rematch", json::object());
        d.act(1, "rematch", json::object());
        ++firsts[d.expect_all("game_started")["first"].get<int>()];
    }
    CHECK(firsts[0] > 0);
    CHECK(firsts[1] > 0);
}

TEST_CASE("game: after the 16th placement and a pass, the opponent claims the missed Quarto")
{
    server_process server;
    duel d = start_duel(server, json::object(), 1);
    // Piece n on square n: row 3 holds 12..15, all tall and hollow.
    std::vector<step> steps;
    for (int sq = 0; sq < 16; ++sq) steps.push_back({sq, sq});
    const int last = play(d, d.first, steps);
    d.act(last, "pass", json::object());
    json passed = d.expect_all("passed");
    CHECK(passed["seat"] == last);
    d.act(1 - last, "quarto", {{"line", {15, 14, 13, 12}}});
    json over = d.expect_all("game_over");
    CHECK(over["result"] == "win");
    CHECK(over["winner"] == 1 - last);
    CHECK(over["reason"] == "missed_quarto");
    CHECK(sorted_line(over["line"]) == std::vector<int>{12, 13, 14, 15});
    for (ws_client* ws : d.everyone()) check_seq(ws->history(), d.room);
}

TEST_CASE("game: the 16th placer may call instead of passing")
{
    server_process server;
    duel d = start_duel(server);
    std::vector<step> steps;
    for (int sq = 0; sq < 16; ++sq) steps.push_back({sq, sq});
    const int last = play(d, d.first, steps);
    // Column 3 holds 3, 7, 11, 15: all dark and tall.
    d.act(last, "quarto", {{"line", {3, 7, 11, 15}}});
    json over = d.expect_all("game_over");
    CHECK(over["winner"] == last);
    CHECK(over["reason"] == "quarto");
}
