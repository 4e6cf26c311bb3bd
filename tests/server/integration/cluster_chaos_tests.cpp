// Live games on a cluster through everything an operator does to it: 9 rooms of timed random
// bots on three nodes sharing one Redis and one PostgreSQL, each room's two players on two
// different nodes. Every node is restarted in turn (SIGTERM, a rolling restart), two are
// killed (SIGKILL), and Redis is restarted, all while the bots play. The bots of a node that
// went away reconnect through another node with their tokens. Checked as in crash_tests.cpp
// (timed_bots.hpp): every room comes back, every event a bot saw twice is the same bytes, the
// clocks follow the restart rule, and every game goes to the end the rules engine says.
#include <csignal>
#include <random>
#include <sys/wait.h>

#include "postgres_server.hpp"
#include "redis_server.hpp"
#include "timed_bots.hpp"

using namespace quarto_test;
using namespace quarto_test::timed_bots;

namespace {

constexpr int room_count = 9;
const std::vector<std::string> node_ids{"alpha", "beta", "gamma"};

struct chaos_cluster {
    test_redis::redis_server redis;
    std::string db = test_postgres::shared_postgres().fresh_database();
    std::vector<std::unique_ptr<server_process>> nodes;
    std::string logs; // of every node that went away, for a failure's message

    chaos_cluster()
    {
        for (std::size_t n = 0; n < node_ids.size(); ++n) nodes.push_back(std::make_unique<server_process>(args(n)));
    }
    std::vector<std::string> args(std::size_t n) const
    {
        // Bots think for 0-15 ms: above the 20 messages a second a person's browser is allowed.
        return {"--redis", redis.address(), "--node-id", node_ids[n], "--db", db, "--rate-limit", "500", "--rate-burst", "1000"};
    }
    server_process& operator[](std::size_t n) { return *nodes[n]; }
    // What every node, gone or running, logged about `bots`' rooms: a failure's story.
    std::string story(const std::vector<bot*>& bots) const
    {
        std::string all = logs;
        for (const auto& node : nodes) all += node->log();
        std::string out = "taken over:\n" + lines_about("taken over", all) + "warnings:\n" + lines_about("[warning]", all) +
                          lines_about("[error]", all);
        for (const bot* b : bots) out += b->name + " in " + b->room + ":\n" + lines_about(b->room, all);
        return out;
    }
};

// Which node each bot is connected to.
struct placement {
    std::vector<std::size_t> node_of; // by bot

    std::vector<bot*> bots_on(std::vector<bot>& bots, std::size_t node) const
    {
        std::vector<bot*> out;
        for (std::size_t i = 0; i < bots.size(); ++i)
            if (node_of[i] == node) out.push_back(&bots[i]);
        return out;
    }
};

// A node goes (SIGTERM: its connections close with 1012; SIGKILL: they just break); its bots
// read what reached them, then reconnect through the next node, which gives them their rooms
// (wherever they are held by then: possibly nowhere yet after a SIGKILL, until a node has taken
// them over). The node then starts again, empty. Returns how long after the signal the last of
// its bots had its room back: the longest any of their games stood still.
milliseconds node_goes(chaos_cluster& c, placement& where, std::vector<bot>& bots, std::size_t n, int signal, totals& t)
{
    const auto gone = where.bots_on(bots, n);
    const auto signalled = steady::now();
    ::kill(c[n].pid(), signal);
    for (bot* b : gone) {
        if (signal == SIGTERM) {
            REQUIRE(b->ws->wait_closed());
            CHECK(b->ws->close_code() == std::optional<std::uint16_t>{1012});
        }
        read_all(*b, t);
    }
    const auto status = c[n].wait_exit(std::chrono::seconds{15});
    REQUIRE(status.has_value());
    if (signal == SIGTERM) CHECK((WIFEXITED(*status) && WEXITSTATUS(*status) == 0));
    c.logs += c[n].log();
    const std::size_t next = (n + 1) % c.nodes.size();
    const std::string what = node_ids[n] + (signal == SIGTERM ? " stopped" : " killed") + ", its bots through " + node_ids[next];
    INFO(what << "\n" << c.story(gone));
    reconnect(gone, c[next].port(), t);
    const auto back = std::chrono::duration_cast<milliseconds>(steady::now() - signalled);
    for (std::size_t i = 0; i < bots.size(); ++i)
        if (where.node_of[i] == n) where.node_of[i] = next;
    c.nodes[n] = std::make_unique<server_process>(c.args(n));
    return back;
}

} // namespace

TEST_CASE("cluster chaos: timed bots on three nodes through a rolling restart, two SIGKILLs and a Redis restart lose no room, event or clock")
{
    chaos_cluster c;
    std::mt19937 rng{std::random_device{}()};
    totals t;
    std::vector<bot> bots(2 * room_count);
    placement where;
    where.node_of.resize(bots.size());
    for (int r = 0; r < room_count; ++r) {
        const auto i = static_cast<std::size_t>(2 * r);
        bot& a = bots[i];
        bot& b = bots[i + 1];
        a.name = "A" + std::to_string(r);
        b.name = "B" + std::to_string(r);
        b.seat = 1;
        where.node_of[i] = static_cast<std::size_t>(r) % c.nodes.size();
        where.node_of[i + 1] = (where.node_of[i] + 1) % c.nodes.size();
        for (std::size_t k : {i, i + 1}) {
            bots[k].ws = std::make_unique<ws_client>(c[where.node_of[k]].port());
            const json w = hello(*bots[k].ws, bots[k].name);
            bots[k].id = w["player"];
            bots[k].token = w["token"];
        }
        a.room = create_room(*a.ws, {{"name", "chaos " + std::to_string(r)},
                                     {"clock", {{"move_ms", move_ms}, {"claim_ms", claim_ms}}}});
        b.room = a.room;
        join(*b.ws, b.room);
    }
    run_for(bots, milliseconds{300}, rng, t);

    // A rolling restart: each node in turn, its rooms handed over as it stops.
    std::string pauses;
    for (std::size_t n = 0; n < c.nodes.size(); ++n) {
        run_for(bots, milliseconds{std::uniform_int_distribution<int>{200, 600}(rng)}, rng, t);
        pauses += " " + std::to_string(node_goes(c, where, bots, n, SIGTERM, t).count());
    }
    pauses += " ms after each SIGTERM;";
    // Two nodes killed: their rooms are taken over once their leases expire.
    for (std::size_t n : {std::size_t{0}, std::size_t{1}}) {
        run_for(bots, milliseconds{std::uniform_int_distribution<int>{200, 600}(rng)}, rng, t);
        pauses += " " + std::to_string(node_goes(c, where, bots, n, SIGKILL, t).count());
    }
    pauses += " ms after each SIGKILL";
    MESSAGE("the gone node's bots had their rooms back" << pauses);
    // Redis restarted, empty: every node takes a new lease, claims its rooms again, and the
    // events lost between nodes meanwhile are made good (snapshots, syncs).
    run_for(bots, milliseconds{300}, rng, t);
    c.redis.restart();
    run_for(bots, milliseconds{2'000}, rng, t);

    // The games in progress go to their ends; no new ones.
    const auto deadline = in(milliseconds{60'000});
    for (;;) {
        run_for(bots, milliseconds{100}, rng, t, /*rematch=*/false);
        const bool all_over = std::all_of(bots.begin(), bots.end(), [](const bot& b) { return !b.replica || b.replica->finished(); });
        if (all_over || steady::now() >= deadline) break;
    }
    std::string all_logs = c.logs;
    for (auto& node : c.nodes) all_logs += node->log();
    for (const auto& b : bots)
        CHECK_MESSAGE((b.replica && b.replica->finished()), describe(b) << " did not finish\n" << lines_about(b.room, all_logs));
    MESSAGE("events compared " << t.events_compared << ", clocks compared " << t.clocks_compared
                               << ", claim windows open at a move " << t.claim_windows_at_restart << ", games finished "
                               << t.games_finished << ", unavailable " << t.unavailable << ", gaps " << t.gaps
                               << ", moves sent twice and refused once " << t.resends_refused);
    CHECK(t.errors == 0);
    CHECK(t.events_compared > 0);
    CHECK(t.clocks_compared > 0);
    CHECK(t.games_finished >= room_count);
    CHECK(all_logs.find("could not be restored") == std::string::npos);
    CHECK(all_logs.find("is fenced") == std::string::npos);
}
