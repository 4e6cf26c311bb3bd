// A room against the computer, in process: the fake host plays the bot pool (answering at once
// with a chosen move, or holding the questions for the test to answer late or never) and the
// manual clock shows when the bot moves. Ann (seat 0) plays the bot (seat 1); the coin decides
// who gives first, so each test reads `first` and plays from there.
#include <doctest/doctest.h>

#include <random>

#include "fake_host.hpp"
#include "play/bot_moves.hpp"
#include "quarto/core/solver/bot.hpp"
#include "quarto/core/solver/solver.hpp"

namespace {

using namespace quarto::server;
namespace model = quarto::model;
namespace protocol = quarto::protocol;
namespace solver = quarto::solver;
using testing::fake_host;
using testing::json;
using testing::of_type;
using testing::types_of;
using quarto::milliseconds;
using quarto::seat;
using strings = std::vector<std::string>;

constexpr seat human = 0;
constexpr seat bot = 1;

play::room_settings bot_settings(int level, std::int64_t delay_ms, quarto::clock_settings clock = {})
{
    play::room_settings s;
    s.name = "Practice";
    s.clock = clock;
    s.bot = model::bot_opponent{level, delay_ms};
    return s;
}

// The lowest empty square and the lowest piece left: a predictable player for either side.
solver::move plain_move(const solver::position& p)
{
    solver::move m;
    quarto::board b = p.placed;
    if (p.hand) {
        for (quarto::square s = 0; s < 16 && !m.place; ++s)
            if (!b.occupied(s)) m.place = s;
        b.put(*m.place, *p.hand);
    }
    for (int c = 0; c < 16; ++c) {
        const quarto::piece candidate{static_cast<std::uint8_t>(c)};
        bool used = p.hand && *p.hand == candidate;
        for (quarto::square s = 0; s < 16; ++s)
            if (b.at(s) == candidate) used = true;
        if (!used) {
            m.give = candidate;
            break;
        }
    }
    return m;
}

// How many of `frames` are gives by the bot (Ann's own are among them too).
std::size_t bot_gives(const std::vector<json>& frames)
{
    std::size_t n = 0;
    for (const json& f : of_type(frames, "given"))
        if (f["seat"] == bot) ++n;
    return n;
}

struct bot_room {
    fake_host host;
    play::client_ref a = host.connect();
    std::shared_ptr<const play::player_record> ann = host.players().create("Ann");
    play::room* room = nullptr;
    std::string id;
    std::vector<json> opening; // what Ann got up to the game's start
    seat first = 0;

    explicit bot_room(play::room_settings settings, std::function<solver::move(const bots::think_request&)> thinker = {})
    {
        host.set_thinker(std::move(thinker));
        room = &host.create_room(std::move(settings), a, *ann);
        id = room->id();
        host.run_deferred(); // the end of the creating turn: the game starts
        opening = host.take(a);
        const auto started = of_type(opening, "game_started");
        REQUIRE(started.size() == 1);
        first = started[0]["first"].get<seat>();
    }

    void act(protocol::room_action action)
    {
        room->handle(a, *ann, action, nullptr);
        host.run_deferred();
    }
    // Ann's view of the room now.
    json snapshot()
    {
        room->handle(a, *ann, protocol::join{false}, "s");
        const auto got = host.take(a);
        REQUIRE(!got.empty());
        REQUIRE(got.back()["type"] == "room");
        return got.back();
    }
    // Ann plays one whole move of the plain player, from the snapshot.
    void human_move()
    {
        const json snap = snapshot();
        const json& g = snap["game"];
        REQUIRE(g["turn"] == human);
        if (g["phase"] == "place") {
            for (int s = 0; s < 16; ++s)
                if (g["board"][s].is_null()) {
                    act(protocol::place{static_cast<quarto::square>(s)});
                    break;
                }
        }
        const json after = snapshot()["game"];
        if (after["phase"] == "finished") return;
        if (after["available"].empty()) return act(protocol::pass{});
        act(protocol::give{quarto::piece{after["available"][0].get<std::uint8_t>()}});
    }
};

} // namespace

TEST_CASE("bot room: the computer takes the second seat at once, and the game starts after the creator's snapshot")
{
    bot_room r{bot_settings(4, 0), [](const bots::think_request& q) { return plain_move(q.position); }};
    INFO(r.host.transcript());
    REQUIRE(r.opening.size() >= 2);
    // Then the bot's first give, when it won the coin flip: its delay is 0.
    CHECK(types_of({r.opening.begin(), r.opening.begin() + 2}) == strings{"room", "game_started"});
    const json& snap = r.opening[0];
    CHECK(snap["status"] == "waiting");
    CHECK(snap["you"]["seat"] == 0);
    CHECK(snap["players"][1]["id"] == "bot-4");
    CHECK(snap["players"][1]["name"] == "Computer (level 4)");
    CHECK(snap["players"][1]["connected"] == true);
    const json& started = r.opening[1];
    CHECK(started["players"][1]["name"] == "Computer (level 4)");
    CHECK(started["seq"] == snap["seq"].get<int>() + 1);
    // The bot is no guest: nobody can resume it by token, and it holds no place in the registry.
    CHECK_FALSE(r.host.players().find_by_id("bot-4"));
    const auto lobby = r.host.lobby_of(r.id);
    REQUIRE(lobby);
    CHECK(lobby->status == model::room_status::playing);
}

TEST_CASE("bot room: a whole game against the plain player with no delay ends and is archived with the bot as a player")
{
    solver::solver search{std::size_t{1} << 20};
    std::mt19937_64 random{17};
    // The real levels, within the request's budget as the pool keeps them (a search from the
    // opening is never exact in time: the budget ends it).
    bot_room r{bot_settings(3, 0), [&](const bots::think_request& q) {
                   const auto stop_at = std::chrono::steady_clock::now() + std::min(q.budget, milliseconds{200});
                   return solver::bot_move(q.level, q.game_rules, q.position, search, random,
                                           [&] { return std::chrono::steady_clock::now() >= stop_at; });
               }};
    INFO(r.host.transcript());
    for (int turns = 0; turns < 40; ++turns) {
        const json snap = r.snapshot();
        if (snap["status"] == "finished") break;
        // Time does not move: every bot move is played within the turn that handed it the piece.
        REQUIRE(snap["game"]["turn"] == human);
        r.human_move();
    }
    const json snap = r.snapshot();
    REQUIRE(snap["status"] == "finished");
    REQUIRE(r.host.archived().size() == 1);
    const auto& record = r.host.archived()[0];
    CHECK(record.players[1].id == "bot-3");
    CHECK(record.players[1].name == "Computer (level 3)");
    CHECK(record.players[0].name == "Ann");
    // A player who never calls a Quarto, nor claims one, cannot win against it.
    const json& result = snap["game"]["result"];
    CHECK((result["winner"].is_null() || result["winner"] == bot));
    // The shortest game: game_started, 4 gives and 4 placements, game_over.
    CHECK(testing::check_seq(r.host.frames(r.a), r.id) >= 10);
}

TEST_CASE("bot room: the bot moves after its delay, counted from the start of its turn with the thinking in it")
{
    bot_room r{bot_settings(2, 600)};
    if (r.first == human) r.human_move(); // now the bot is to place and give
    INFO(r.host.transcript());
    REQUIRE(r.host.questions().size() == 1);
    r.host.advance(milliseconds{400}); // it thought for 400 ms
    const auto q = r.host.questions().front();
    q.answer(plain_move(q.request.position));
    r.host.run_deferred();
    CHECK(bot_gives(r.host.take(r.a)) == 0);
    r.host.advance(milliseconds{199});
    CHECK(r.host.take(r.a).empty());
    r.host.advance(milliseconds{1}); // 600 ms after its turn began, not 600 after the answer
    CHECK(bot_gives(r.host.take(r.a)) == 1);
}

TEST_CASE("bot room: an answer that comes after the delay is played at once")
{
    bot_room r{bot_settings(3, 100)};
    if (r.first == human) r.human_move();
    REQUIRE(r.host.questions().size() == 1);
    r.host.advance(milliseconds{2000});
    const auto q = r.host.questions().front();
    q.answer(plain_move(q.request.position));
    r.host.run_deferred();
    CHECK(bot_gives(r.host.take(r.a)) == 1);
}

TEST_CASE("bot room: the bot keeps to a short move clock, whatever its delay")
{
    // 1 s a move and a delay of 5 s: the bot thinks within the clock and moves before it runs out.
    const quarto::clock_settings clock{milliseconds{1000}, milliseconds{500}};
    bot_room r{bot_settings(5, 5000, clock), [](const bots::think_request& q) { return plain_move(q.position); }};
    INFO(r.host.transcript());
    for (int moves = 0; moves < 3; ++moves) {
        if (r.snapshot()["game"]["turn"] == human) r.human_move();
        const auto& asked = r.host.questions_asked();
        CHECK(asked > 0);
        r.host.advance(milliseconds{760});
        const auto got = r.host.take(r.a);
        CHECK(of_type(got, "game_over").empty());
        CHECK(bot_gives(got) == 1); // played a quarter of the clock (250 ms) before the deadline
        const json snap = r.snapshot();
        REQUIRE(snap["status"] == "playing");
        CHECK(snap["game"]["turn"] == human);
    }
}

TEST_CASE("bot room: an answer the pool has not given by the last moment is not waited for: a hurried move keeps the clock")
{
    // A pool slower than the budget it was given (a loaded machine): the questions are held.
    const quarto::clock_settings clock{milliseconds{1000}, milliseconds{500}};
    bot_room r{bot_settings(5, 0, clock)};
    INFO(r.host.transcript());
    if (r.first == human) r.human_move();
    REQUIRE(r.host.questions().size() == 1);
    const auto late = r.host.questions().front();
    r.host.advance(milliseconds{749});
    CHECK(bot_gives(r.host.take(r.a)) == 0); // still waiting for the search
    r.host.advance(milliseconds{1});         // a quarter of the clock (250 ms) before the deadline
    const auto got = r.host.take(r.a);
    CHECK(of_type(got, "game_over").empty());
    CHECK(bot_gives(got) == 1);
    const json snap = r.snapshot();
    REQUIRE(snap["status"] == "playing");
    CHECK(snap["game"]["turn"] == human);

    // The search's answer, when it comes, is stale.
    const std::size_t events = r.host.frames(r.a).size();
    late.answer(plain_move(late.request.position));
    r.host.run_deferred();
    CHECK(r.host.frames(r.a).size() == events);
}

TEST_CASE("bot room: the bot thinks within what its move clock leaves")
{
    const quarto::clock_settings clock{milliseconds{1000}, milliseconds{500}};
    bot_room r{bot_settings(5, 0, clock)};
    if (r.first == human) r.human_move();
    REQUIRE(r.host.questions().size() == 1);
    const auto budget = r.host.questions().front().request.budget;
    CHECK(budget > milliseconds{0});
    CHECK(budget <= milliseconds{375}); // half of what is left before a 250 ms margin
    CHECK(r.host.questions().front().request.level == 5);

    bot_room untimed{bot_settings(5, 0, {std::nullopt, milliseconds{10'000}})};
    if (untimed.first == human) untimed.human_move();
    REQUIRE(untimed.host.questions().size() == 1);
    CHECK(untimed.host.questions().front().request.budget == quarto::solver::think_budget(5)); // the level's own
    CHECK(quarto::solver::think_budget(5) < milliseconds{1000}); // its answer within the second
}

TEST_CASE("bot room: an answer for a game that has moved on is dropped")
{
    bot_room r{bot_settings(3, 0)};
    if (r.first == human) r.human_move();
    REQUIRE(r.host.questions().size() == 1);
    const auto late = r.host.questions().front();
    r.act(protocol::resign{}); // Ann resigns while the bot thinks
    const auto over = r.host.take(r.a);
    REQUIRE(of_type(over, "game_over").size() == 1);
    const json before = r.snapshot();

    late.answer(plain_move(late.request.position));
    r.host.run_deferred();
    r.host.advance(milliseconds{5000});
    CHECK(r.host.take(r.a).empty());
    const json after = r.snapshot();
    CHECK(after["seq"] == before["seq"]);
    CHECK(after["game"]["moves"] == before["game"]["moves"]);
}

TEST_CASE("bot room: an answer from before a rematch is dropped, and the new game's is played")
{
    bot_room r{bot_settings(3, 0)};
    r.act(protocol::resign{});
    const auto old = r.host.questions(); // asked, if the bot was to give first
    r.host.questions().clear();
    r.act(protocol::rematch{});
    const auto got = r.host.take(r.a);
    INFO(r.host.transcript());
    // The bot accepts at once.
    REQUIRE(of_type(got, "rematch_requested").size() == 2);
    CHECK(of_type(got, "rematch_requested")[1]["seat"] == bot);
    REQUIRE(of_type(got, "game_started").size() == 1);
    const seat first = of_type(got, "game_started")[0]["first"].get<seat>();
    if (first == human) r.human_move();
    REQUIRE(r.host.questions().size() == 1);
    const std::size_t events = r.host.frames(r.a).size();
    for (const auto& q : old) q.answer(plain_move(q.request.position));
    r.host.run_deferred();
    CHECK(r.host.frames(r.a).size() == events);
    const auto fresh = r.host.questions().front();
    fresh.answer(plain_move(fresh.request.position));
    r.host.run_deferred();
    CHECK(bot_gives(r.host.take(r.a)) == 1);
}

TEST_CASE("bot room: when a claim window closes while the bot thinks, it thinks again about the new position")
{
    const quarto::clock_settings clock{milliseconds{60'000}, milliseconds{1000}};
    bot_room r{bot_settings(3, 0, clock)};
    // Until Ann has placed and given: then the bot has a claim window.
    if (r.first == human) r.human_move();
    auto q = r.host.questions().front();
    r.host.questions().clear();
    q.answer(plain_move(q.request.position));
    r.host.run_deferred();
    r.human_move(); // Ann places and gives: the bot may claim for 1 s
    REQUIRE(r.host.questions().size() == 1);
    const auto with_window = r.host.questions().front();
    CHECK(with_window.request.position.callable.has_value());
    r.host.advance(milliseconds{1000}); // the window closes
    REQUIRE(r.host.questions().size() == 2);
    const auto without = r.host.questions().back();
    CHECK_FALSE(without.request.position.callable.has_value());
    const std::size_t events = r.host.frames(r.a).size();
    with_window.answer(plain_move(with_window.request.position));
    r.host.run_deferred();
    CHECK(r.host.frames(r.a).size() == events); // dropped
    without.answer(plain_move(without.request.position));
    r.host.run_deferred();
    CHECK(bot_gives(r.host.take(r.a)) == 1);
}

TEST_CASE("bot room: a full pool is asked again a little later, and the bot still moves")
{
    bot_room r{bot_settings(3, 0)};
    r.act(protocol::resign{});
    r.host.questions().clear();
    r.host.set_pool_full(true);
    r.act(protocol::rematch{});
    const seat first = of_type(r.host.take(r.a), "game_started").at(0)["first"].get<seat>();
    if (first == human) r.human_move();
    const std::size_t refused = r.host.questions_refused();
    CHECK(refused >= 1);
    r.host.advance(milliseconds{100});
    CHECK(r.host.questions_refused() == refused + 1);
    r.host.set_pool_full(false);
    r.host.advance(milliseconds{100});
    REQUIRE(r.host.questions().size() == 1);
    const auto q = r.host.questions().front();
    q.answer(plain_move(q.request.position));
    r.host.run_deferred();
    CHECK(bot_gives(r.host.take(r.a)) == 1);
}

TEST_CASE("bot room: the bot claims the Quarto its opponent missed")
{
    // The bot calls its own Quartos and claims the ones its opponent leaves; Ann never calls.
    bot_room r{bot_settings(5, 0), [](const bots::think_request& q) {
                   const quarto::rules& rules = q.game_rules;
                   const solver::position& p = q.position;
                   if (p.callable && rules.quarto_through(p.placed, *p.callable))
                       return solver::move{std::nullopt, std::nullopt, true};
                   solver::move m = plain_move(p);
                   quarto::board after = p.placed;
                   if (m.place) after.put(*m.place, *p.hand);
                   if (m.place && rules.quarto_through(after, *m.place)) m = {m.place, std::nullopt, true};
                   return m;
               }};
    INFO(r.host.transcript());
    for (int turns = 0; turns < 20 && r.snapshot()["status"] == "playing"; ++turns) r.human_move();
    const json result = r.snapshot()["game"]["result"];
    REQUIRE(result.is_object());
    // Both play the plain moves (lowest square, lowest piece): pieces 0..3 fill row 0 and share
    // four attributes, so the game ends on row 0, called by whoever completed it or claimed by
    // the bot when Ann completed it and gave instead.
    CHECK(result["winner"] == bot);
    CHECK((result["reason"] == "quarto" || result["reason"] == "missed_quarto"));
}

TEST_CASE("bot room: alone with nobody, the bot does not keep the room open or list it as waiting")
{
    bot_room r{bot_settings(1, 0), [](const bots::think_request& q) { return plain_move(q.position); }};
    r.act(protocol::leave{});
    const auto lobby = r.host.lobby_of(r.id);
    REQUIRE(lobby);
    CHECK(lobby->status == model::room_status::waiting);
    CHECK(r.room->listing().computer);
    CHECK(r.host.sweep(milliseconds{600'000}) == std::vector<model::room_id>{r.id});
}

TEST_CASE("lobby: a room against the computer is listed while it plays, never while a seat waits")
{
    play::lobby_board board;
    play::lobby_listing listing{"r1", "Practice", {}, {}, false, {}, true};
    play::lobby_state state;
    state.seats[1] = model::player_info{"bot-2", "Computer (level 2)"};
    board.add(listing, state);
    std::vector<play::lobby_board::place_in_list> places;
    board.public_places(places, 0);
    CHECK(places.empty());
    state.status = model::room_status::playing;
    state.seats[0] = model::player_info{"pAnn", "Ann"};
    board.update("r1", state);
    board.public_places(places, 0);
    CHECK(places.size() == 1);
}

TEST_CASE("bot room: after a restart the bot is back in its seat and goes on thinking")
{
    fake_host host;
    host.enable_journal();
    const auto a = host.connect();
    const auto ann = host.players().create("Ann");
    play::room& room = host.create_room(bot_settings(4, 0), a, *ann);
    host.run_deferred();
    const seat first = of_type(host.take(a), "game_started").at(0)["first"].get<seat>();
    if (first == human) {
        room.handle(a, *ann, protocol::give{quarto::piece{0}}, nullptr);
        host.run_deferred();
    }
    REQUIRE(host.questions().size() == 1); // the bot is thinking when the server dies

    fake_host after;
    after.set_thinker([](const bots::think_request& q) { return plain_move(q.position); });
    after.set_clock(host.now());
    play::room& back = after.restore_room(room.id(), host.journal_of(room.id()));
    after.run_deferred();
    CHECK(after.questions_asked() == 1);
    CHECK_FALSE(after.players().find_by_id("bot-4"));
    CHECK(after.players().find_by_id(ann->info.id));
    const auto c = after.connect();
    back.resume(c, *ann);
    after.run_deferred();
    const json snap = after.take(c).back();
    REQUIRE(snap["type"] == "room");
    CHECK(snap["players"][1]["id"] == "bot-4");
    CHECK(snap["game"]["turn"] == human); // the bot has moved
    CHECK(snap["players"][1]["connected"] == true);
}
