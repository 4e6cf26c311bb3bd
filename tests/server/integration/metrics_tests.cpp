// GET /metrics: the Prometheus counters move as games are played.
#include <cmath>
#include <sstream>

#include "helpers.hpp"

using namespace quarto_test;

namespace {

// The value of the sample `series` (name with its labels, exactly as exposed), or -1 when the
// exposition has no such line or its value is not a number.
double sample(const std::string& exposition, const std::string& series)
{
    std::istringstream lines{exposition};
    for (std::string line; std::getline(lines, line);) {
        if (line.size() <= series.size() || line.compare(0, series.size(), series) != 0 || line[series.size()] != ' ')
            continue;
        const std::string value = line.substr(series.size() + 1);
        try {
            std::size_t used = 0;
            const double number = std::stod(value, &used);
            return used == value.size() && std::isfinite(number) ? number : -1;
        } catch (const std::exception&) {
            return -1;
        }
    }
    return -1;
}

std::string scrape(const server_process& server)
{
    const http_response res = http_get(server.port(), "/metrics");
    REQUIRE(res.status == 200);
    CHECK(res.content_type.find("text/plain") == 0);
    return res.body;
}

} // namespace

TEST_CASE("metrics: counters move as a game is played")
{
    server_process server;
    const std::string before = scrape(server);
    CHECK(sample(before, "quarto_games_started_total") == 0);
    CHECK(sample(before, "quarto_connections") == 0);
    CHECK(sample(before, "process_resident_memory_bytes") > 0);

    duel d = start_duel(server, json::object(), 1);
    const std::string playing = scrape(server);
    CHECK(sample(playing, "quarto_connections") == 3);
    CHECK(sample(playing, "quarto_connections_total") == 3);
    CHECK(sample(playing, R"(quarto_rooms{status="playing"})") == 1);
    CHECK(sample(playing, "quarto_games_started_total") == 1);

    // A refused action is counted under its code.
    d.act(1 - d.first, "give", {{"piece", 0}}, "early");
    must(d.by_seat(1 - d.first)->wait_for([](const json& m) { return m["type"] == "error"; }), "not_your_turn");

    const int placer = play(d, d.first, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
    d.act(placer, "quarto", {{"line", {0, 1, 2, 3}}});
    d.expect_all("game_over");
    // A message's handling time is recorded once its handling is over, which may be after its
    // effects have reached the clients. The placer's session reads one message at a time, so
    // once it has answered this ping it has recorded the call. (The room records the call's
    // handling after it has sent game_over; the room count below leaves room for that.)
    d.by_seat(placer)->send({{"type", "ping"}, {"req", "barrier"}});
    CHECK(must(d.by_seat(placer)->wait_type("pong"), "pong")["req"] == "barrier");

    const std::string after = scrape(server);
    CHECK(sample(after, R"(quarto_rooms{status="playing"})") == 0);
    CHECK(sample(after, R"(quarto_rooms{status="finished"})") == 1);
    CHECK(sample(after, R"(quarto_games_finished_total{reason="quarto"})") == 1);
    CHECK(sample(after, R"(quarto_errors_total{code="not_your_turn"})") == 1);
    // 3 hellos, create, 2 joins, 8 moves, the refused give and the call, at the least (the
    // ping is not counted: its own handling may still be on the way).
    CHECK(sample(after, "quarto_messages_in_total") >= 16);
    CHECK(sample(after, "quarto_messages_out_total") > sample(after, "quarto_messages_in_total"));
    CHECK(sample(after, R"(quarto_message_handling_seconds_count{stage="session"})") >= 16);
    CHECK(sample(after, R"(quarto_message_handling_seconds_count{stage="room"})") >= 10);
    // CPU time: present, a number, never negative and never decreasing between scrapes. Not
    // "above zero": a fast build plays this game within a few milliseconds of CPU.
    const double cpu_before = sample(before, "process_cpu_seconds_total");
    const double cpu_after = sample(after, "process_cpu_seconds_total");
    CHECK(cpu_before >= 0);
    CHECK(cpu_after >= cpu_before);
}
