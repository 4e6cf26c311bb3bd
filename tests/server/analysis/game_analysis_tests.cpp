// An archived game as the analysis sees it: the positions where a player chose a move, each
// with the move made (turns_of), and the analysis of a whole game on the worker, which marks
// the move that threw a win away and names the winning move instead.
#include <future>

#include <doctest/doctest.h>

#include "analysis/analysis_worker.hpp"
#include "analysis/game_analysis.hpp"
#include "analysis/game_turns.hpp"

using namespace quarto;
using namespace quarto::server::analysis;

namespace {

constexpr square_mask row_0 = 0x000F;

// A game played through core, 100 ms a action, seat 0 giving first.
class playing {
public:
    explicit playing(rules r = {}, clock_settings c = {}) : g_{r, c, 0, at_ms(0)} {}
    playing& give(int p) { return act(g_.give(g_.turn(), piece{static_cast<std::uint8_t>(p)}, next())); }
    playing& place(int s) { return act(g_.place(g_.turn(), static_cast<square>(s), next())); }
    playing& call(square_mask line) { return act(g_.call_quarto(g_.turn(), line, next())); }
    playing& resign(seat by) { return act(g_.resign(by, next())); }
    game& now() { return g_; }
    archive::game_record record()
    {
        REQUIRE(g_.finished());
        return archive::make_game_record({"g1", "r1", "Room", {}, 0, 0}, g_);
    }

private:
    playing& act(outcome o)
    {
        REQUIRE(o.ok());
        return *this;
    }
    instant next() { return at_ms(t_ += 100); }
    game g_;
    std::int64_t t_ = 0;
};

// Row 0 gets the dark pieces 1, 3, 5 (squares 0, 1, 2), and seat 1 gives seat 0 the fourth
// dark piece, 7: seat 0 wins by placing it on square 3 and calling. Seat 0 places it on square
// 8 instead and gives another dark piece, 9, which wins for seat 1 the same way; seat 1 resigns.
archive::game_record thrown_away_win()
{
    playing p;
    p.give(1).place(0).give(3).place(1).give(5).place(2).give(7).place(8).give(9).resign(1);
    return p.record();
}

solver::move place_give(int s, int p)
{
    return {static_cast<square>(s), piece{static_cast<std::uint8_t>(p)}, false};
}

// Runs `f` on a worker thread with its context, and waits for it.
template <class F>
auto on_worker(analysis_worker& w, F f)
{
    std::promise<decltype(f(std::declval<analysis_worker::context&>()))> done;
    auto answer = done.get_future();
    REQUIRE(w.try_submit([&](analysis_worker::context& c) { done.set_value(f(c)); }));
    REQUIRE(answer.wait_for(std::chrono::seconds{30}) == std::future_status::ready);
    return answer.get();
}

} // namespace

TEST_CASE("game turns: one per move chosen, each with the position it was chosen in and the move made")
{
    const auto turns = turns_of(thrown_away_win());
    REQUIRE(turns.size() == 6);
    const std::size_t steps[] = {0, 1, 3, 5, 7, 9};
    const seat movers[] = {0, 1, 0, 1, 0, 1};
    for (std::size_t i = 0; i < turns.size(); ++i) {
        CAPTURE(i);
        CHECK(turns[i].step == steps[i]);
        CHECK(turns[i].mover == movers[i]);
    }
    CHECK(turns[0].at == solver::position{});
    CHECK(turns[0].played == solver::move{std::nullopt, piece{1}, false});
    CHECK(turns[1].played == place_give(0, 3));
    CHECK(turns[4].played == place_give(8, 9));
    CHECK(solver::board_text(turns[4].at.placed) == "135.............");
    CHECK(turns[4].at.hand == piece{7});
    // The last: seat 1 held piece 9 and resigned.
    CHECK_FALSE(turns[5].played.has_value());
    CHECK(turns[5].ended_by == end_reason::resign);
    CHECK(turns[5].lost_by_mover);
    CHECK(turns[5].at.hand == piece{9});
    CHECK(solver::board_text(turns[5].at.placed) == "135.....7.......");
}

TEST_CASE("game turns: a missed Quarto, claimed by the opponent in the claim window")
{
    playing p;
    p.give(1).place(0).give(3).place(1).give(5).place(2).give(7).place(3).give(0); // seat 0 does not call
    p.call(row_0);                                                                   // seat 1 claims it
    const auto record = p.record();
    REQUIRE(record.result.reason == end_reason::missed_quarto);
    const auto turns = turns_of(record);
    REQUIRE(turns.size() == 6);
    CHECK(turns[4].played == place_give(3, 0));
    CHECK(turns[5].step == 9);
    CHECK(turns[5].at.callable == square{3});
    CHECK(turns[5].played == solver::move{std::nullopt, std::nullopt, true});
    CHECK_FALSE(turns[5].ended_by.has_value());
}

TEST_CASE("game turns: a game lost on time before its first give, and a false call under the losing policy")
{
    playing timed;
    REQUIRE(timed.now().expire(at_ms(default_move_allowance.count())) == time_event::game_over);
    const auto lost_on_time = turns_of(timed.record());
    REQUIRE(lost_on_time.size() == 1);
    CHECK(lost_on_time[0].step == 0);
    CHECK(lost_on_time[0].ended_by == end_reason::timeout);
    CHECK_FALSE(lost_on_time[0].played.has_value());
    CHECK_FALSE(lost_on_time[0].lost_by_mover);

    playing wrong{rules{.false_claim = false_claim_policy::lose}};
    wrong.give(1).place(0).call(row_0); // row 0 holds one piece: no Quarto
    const auto record = wrong.record();
    REQUIRE(record.result.reason == end_reason::false_claim);
    const auto turns = turns_of(record);
    REQUIRE(turns.size() == 2);
    CHECK(turns[1].ended_by == end_reason::false_claim);
    CHECK(turns[1].lost_by_mover);
    CHECK_FALSE(turns[1].played.has_value());
}

TEST_CASE("game analysis: the move that threw a win away is marked, with the winning move, within the budget")
{
    // At the loops' priority: this checks the budget, not how a loaded machine treats nice 10.
    analysis_worker worker{{.threads = 1, .queue_capacity = 1, .table_bytes = std::size_t{16} << 20, .nice = 0}};
    const auto analysis = on_worker(worker, [](analysis_worker::context& c) {
        (void)c.solver();
        return analyse_game(c, thrown_away_win(), std::chrono::steady_clock::now() + game_budget);
    });
    CHECK(analysis.game == "g1");
    CHECK(analysis.ms <= 2000);
    REQUIRE(analysis.positions.size() == 6);

    // Seat 1 gave the fourth dark piece: a loss in 2 (seat 0 places it, and calls).
    const auto& gave_it = analysis.positions[3];
    REQUIRE(gave_it.after.has_value());
    CHECK(*gave_it.after == solver::evaluation{solver::game_value::loss, 2});
    CHECK(gave_it.after_exact);
    CHECK(gave_it.changed);

    // Seat 0 held it and had only to place it on square 3; the dark piece it gave instead
    // loses the same way.
    const solver::move winning_call{square{3}, std::nullopt, true};
    const auto& threw = analysis.positions[4];
    CHECK(threw.step == 7);
    CHECK(threw.before == solver::evaluation{solver::game_value::win, 1});
    CHECK(threw.before_exact);
    CHECK(threw.played == place_give(8, 9));
    CHECK(threw.after == solver::evaluation{solver::game_value::loss, 2});
    CHECK(threw.after_exact);
    CHECK(threw.changed);
    CHECK(threw.best == std::vector<solver::move>{winning_call});

    // Seat 1 resigned a won position: a loss at once.
    const auto& resigned = analysis.positions[5];
    CHECK(resigned.ended_by == end_reason::resign);
    CHECK(resigned.before == solver::evaluation{solver::game_value::win, 1});
    CHECK(resigned.after == solver::evaluation{solver::game_value::loss, 0});
    CHECK(resigned.changed);
    CHECK(resigned.best == std::vector<solver::move>{winning_call});
}

TEST_CASE("analysis worker: a full queue refuses at once, and stop ends the search under way and drops the rest")
{
    analysis_worker worker{{.threads = 1, .queue_capacity = 1, .table_bytes = std::size_t{1} << 20}};
    std::promise<void> running;
    std::promise<bool> saw_stop;
    // The thread's job: runs until the worker stops.
    REQUIRE(worker.try_submit([&](analysis_worker::context& c) {
        running.set_value();
        while (!c.stopping()) std::this_thread::sleep_for(std::chrono::milliseconds{1});
        saw_stop.set_value(true);
    }));
    REQUIRE(running.get_future().wait_for(std::chrono::seconds{10}) == std::future_status::ready);
    bool queued_ran = false;
    REQUIRE(worker.try_submit([&](analysis_worker::context&) { queued_ran = true; })); // waits in the queue
    CHECK(worker.queued() == 1);
    CHECK_FALSE(worker.try_submit([](analysis_worker::context&) {})); // the queue is full

    worker.stop();
    auto stopped = saw_stop.get_future();
    REQUIRE(stopped.wait_for(std::chrono::seconds{0}) == std::future_status::ready);
    CHECK(stopped.get());
    CHECK_FALSE(queued_ran);
    CHECK(worker.queued() == 0);
    CHECK_FALSE(worker.try_submit([](analysis_worker::context&) {})); // stopped: refused
}
