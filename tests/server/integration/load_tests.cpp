// Many rooms played at once by many clients.
#include <atomic>
#include <mutex>
#include <sstream>
#include <thread>

#include "helpers.hpp"

using namespace quarto_test;

TEST_CASE("load: 10 rooms x 2 players + 2 spectators, played concurrently, all finish correctly")
{
    server_process server{{"--threads", "4"}};
    const std::array<int, 16> board = drawn_board();
    constexpr int rooms = 10;
    std::mutex mutex;
    std::vector<std::string> failures;
    std::atomic<int> finished{0};

    auto play_room = [&](int index) {
        try {
            duel d = start_duel(server, json::object(), 2);
            std::string expected_reason;
            if (index % 2 == 0) {
                const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
                d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
                expected_reason = "quarto";
            } else {
                std::vector<step> steps;
                for (int sq = 0; sq < 16; ++sq) steps.push_back({board[static_cast<std::size_t>(sq)], sq});
                const int last = play(d, d.first, steps);
                d.act(last, "pass", json::object());
                d.expect_all("passed");
                d.act(1 - last, "pass", json::object());
                expected_reason = "board_full";
            }
            json over = d.expect_all("game_over", in(milliseconds{10000}));
            std::ostringstream problems;
            if (over["reason"] != expected_reason) problems << "reason " << over.dump() << "; ";
            for (ws_client* ws : d.everyone()) {
                // Every event of this room, and nothing of another room.
                std::optional<long long> last;
                for (json m : ws->history()) {
                    if (m.contains("room") && m["room"] != d.room) problems << "foreign " << m.dump() << "; ";
                    if (!m.contains("seq") || m["type"] == "synced") continue;
                    const long long seq = m["seq"].get<long long>();
                    if (m["type"] != "room" && last && seq != *last + 1)
                        problems << "seq " << *last << " -> " << seq << "; ";
                    last = seq;
                }
            }
            if (!problems.str().empty()) {
                std::lock_guard lock{mutex};
                failures.push_back("room " + std::to_string(index) + ": " + problems.str());
            }
            ++finished;
        } catch (const std::exception& e) {
            std::lock_guard lock{mutex};
            failures.push_back("room " + std::to_string(index) + ": " + e.what());
        } catch (...) {
            std::lock_guard lock{mutex};
            failures.push_back("room " + std::to_string(index) + ": assertion failed in thread");
        }
    };

    std::vector<std::thread> threads;
    for (int i = 0; i < rooms; ++i) threads.emplace_back(play_room, i);
    for (auto& t : threads) t.join();
    for (const std::string& f : failures) FAIL_CHECK(f);
    CHECK(finished == rooms);

    // The lobby shows them all finished. A room refreshes its lobby summary just after it has
    // sent game_over, so the list may lag the event by a moment: asked again until it agrees,
    // up to a deadline.
    player looker = connect_player(server, "Looker");
    const auto deadline = in(default_wait);
    int done = 0;
    for (;;) {
        looker->send({{"type", "list_rooms"}});
        json list = must(looker->wait_type("rooms"), "rooms");
        done = 0;
        for (json r : list["rooms"])
            if (r["status"] == "finished") ++done;
        if (done == rooms || steady::now() >= deadline) break;
        looker->pump(milliseconds{100}); // under the 20 messages/s of its rate limit
    }
    CHECK(done == rooms);
}
