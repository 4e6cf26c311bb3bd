// The room's journal in process: every change a room accepts becomes an entry (with the event
// that announced it), and a room restored from its entries, on another host as in another
// process, stands where the original stood at its last entry: seats, game, clocks, claim window,
// the seq and the recent events byte for byte. The codec of the entries round-trips.
#include <doctest/doctest.h>

#include <initializer_list>

#include "fake_host.hpp"
#include "play/room_change.hpp"

namespace {

using namespace quarto::server;
namespace model = quarto::model;
namespace protocol = quarto::protocol;
using testing::claim_ms;
using testing::fake_host;
using testing::json;
using testing::mask;
using testing::move_ms;
using testing::of_type;
using testing::types_of;
using quarto::instant;
using quarto::milliseconds;
using quarto::seat;
using strings = std::vector<std::string>;

// Ann creates a journaled room; start() seats Bo and the game begins.
struct journaled_duel {
    fake_host host;
    play::client_ref a = host.connect();
    play::client_ref b = host.connect();
    std::string ann_token, bo_token;
    std::shared_ptr<const play::player_record> ann, bo;
    play::room* room = nullptr;
    std::string id;
    seat first = 0;

    journaled_duel()
    {
        host.enable_journal();
        ann = host.players().create("Ann", &ann_token);
        bo = host.players().create("Bo", &bo_token);
        play::room_settings s;
        s.name = "Friday night";
        s.clock = {move_ms, claim_ms};
        room = &host.create_room(std::move(s), a, *ann);
        id = room->id();
        host.run_deferred();
    }
    void start()
    {
        act(b, *bo, protocol::join{false});
        const auto to_b = host.take(b);
        REQUIRE(types_of(to_b) == strings{"room", "game_started"});
        first = to_b[1]["first"].get<seat>();
        host.take(a);
    }
    seat second() const { return quarto::opponent(first); }
    const play::client_ref& conn(seat s) const { return s == 0 ? a : b; }
    const play::player_record& player(seat s) const { return s == 0 ? *ann : *bo; }
    void act(const play::client_ref& c, const play::player_record& p, protocol::room_action action)
    {
        room->handle(c, p, action, nullptr);
        host.run_deferred();
    }
    void act(seat s, protocol::room_action action) { act(conn(s), player(s), action); }
    void give(seat s, int piece) { act(s, protocol::give{quarto::piece{static_cast<std::uint8_t>(piece)}}); }
    void place(seat s, int square) { act(s, protocol::place{static_cast<quarto::square>(square)}); }
    // Pieces 0..3 (short, round and solid alike) on row 0, the first giver placing the last.
    void fill_row0()
    {
        const seat f = first, o = second();
        for (int i = 0; i < 4; ++i) {
            const seat giver = i % 2 == 0 ? f : o;
            give(giver, i);
            place(quarto::opponent(giver), i);
        }
    }

    // Seat s's view of the room now (a connection it has already: no event).
    json snapshot(seat s)
    {
        host.take(conn(s));
        room->resume(conn(s), player(s));
        const auto got = host.take(conn(s));
        REQUIRE(types_of(got) == strings{"room"});
        return got[0];
    }
};

// The room of `d`, restored on a new host whose clock reads `at`; `c` is a fresh connection
// for `p` there, resumed, and the snapshot it got.
struct restored {
    fake_host host;
    play::room* room = nullptr;
    play::client_ref c;
    json snapshot;

    restored(const journaled_duel& d, const play::player_record& p, instant at = instant{milliseconds{7'000'000}})
    {
        host.enable_journal();
        host.set_clock(at);
        room = &host.restore_room(d.id, d.host.journal_of(d.id));
        c = host.connect();
        room->resume(c, p);
        const auto got = host.take(c);
        REQUIRE(!got.empty());
        snapshot = got.back();
        REQUIRE(snapshot["type"] == "room");
    }
};

} // namespace

TEST_CASE("room journal: every change encodes to one line and decodes back, and other lines are refused")
{
    using namespace play;
    quarto::rules squares;
    squares.squares = true;
    const std::vector<room_change> changes{
        change::summary{"Ann's room", squares, {std::nullopt, milliseconds{5000}}, true,
                        {seated_player{{"pAnn", "Ann"}, std::string(64, 'a')}, std::nullopt}, 42, {}, {}, {}, {}},
        change::summary{"Room with spaces", {}, {move_ms, claim_ms}, false, {}, 0, {}, {}, {{3, 1}, 2}, {}},
        change::summary{"Quotes \"and\" \\ a tab\t", {}, {move_ms, claim_ms}, false,
                        {std::nullopt, seated_player{{"pBo", "Bo \"B\""}, std::string(64, 'b')}}, 1, {}, {}, {}, {}},
        change::summary{"Cup · round 2", {}, {move_ms, claim_ms}, false,
                        {seated_player{{"pAnn", "Ann"}, std::string(64, 'a')}, seated_player{{"pBo", "Bo"}, std::string(64, 'b')}},
                        7, "tcup12345", seat{1}, {}, {}},
        change::summary{"Cup · round 3", {}, {move_ms, claim_ms}, false, {}, 0, "tcup12345", std::nullopt, {}, {}},
        change::summary{"Practice", {}, {move_ms, claim_ms}, true,
                        {seated_player{{"pAnn", "Ann"}, std::string(64, 'a')},
                         seated_player{{"bot-4", "Computer (level 4)"}, "-"}},
                        3, {}, {}, {}, model::bot_opponent{4, 0}},
        change::summary{"Cup · round 1", {}, {move_ms, claim_ms}, false,
                        {seated_player{{"bot-5", "Computer (level 5)"}, ""}, seated_player{{"pBo", "Bo"}, std::string(64, 'b')}},
                        5, "tcup12345", seat{0}, {}, model::bot_opponent{5, 600}, seat{0}},
        change::take_seat{1, {{"pBo", "Bo the Second"}, std::string(64, 'b')}},
        change::take_seat{1, {{"bot-5", "Computer (level 5)"}, "-"}},
        change::take_seat{0, {{"pAnn", "Ann", model::shown_rating{1623, false}}, "-",
                              quarto::archive::stored_rating{quarto::rating::pool::advanced, 1623.4567891234, 61.25, 0.0599, 31, 1'795'000'000'123}}},
        change::summary{"Rated", squares, {move_ms, claim_ms}, false,
                        {seated_player{{"pAnn", "Ann", model::shown_rating{1500, true}}, "-",
                                       quarto::archive::stored_rating{quarto::rating::pool::advanced, 1500, 500, 0.09, 0, 0}},
                         seated_player{{"pBo", "Bo", model::shown_rating{1712, false}}, "-",
                                       quarto::archive::stored_rating{quarto::rating::pool::advanced, 1711.9, 45.000001, 0.06, 120, 1'700'000'000'000}}},
                        9, {}, {}, {}, {}, seat{1}, true},
        change::leave_seat{0},
        change::start{1, 1'795'000'000'123, "abcdefghjk12"},
        change::act{{quarto::move_kind::give, 0, 15, 0}, 1234},
        change::act{{quarto::move_kind::call, 1, 0, mask({0, 1, 2, 3})}, 99'999},
        change::act{{quarto::move_kind::resign, 1, 0, 0}, 0},
        change::time_passed{60'001},
        change::rematch{1},
        change::abandon{1, 45'000},
        change::rename_seat{0, "Ann B. · the 2nd"},
        change::event_only{},
        change::event_only{5},
    };
    for (const auto& c : changes) {
        const std::string line = encode(c);
        CAPTURE(line);
        CHECK(line.find('\n') == std::string::npos);
        const auto back = decode(line);
        REQUIRE(back.has_value());
        CHECK(*back == c);
    }
    for (const std::string bad : {"", "room", "room {\"name\":1}", "seat 2 h id Ann", "seat 0 h id", "unseat 0 1",
                                  "start 0 12", "start 3 12 g", "act give 0 16 0 5", "act jump 0 1 0 5",
                                  "act give 0 1 0", "time", "time 1x", "rematch", "abandon 2 5", "abandon 1", "rename 0", "rename 2 Ann", "ev 1 2", "hello",
                                  "rseat 0 2 1500 500 0.09 0 0 - pAnn Ann", "rseat 0 0 1500 500 0.09 0 - pAnn Ann",
                                  "rseat 0 0 15x0 500 0.09 0 0 - pAnn Ann",
                                  R"(room {"name":"x","rules":{},"clock":{},"private":false,"seats":[null,null],"seq":0,"tournament":{"id":"t","first":2}})",
                                  R"(room {"name":"x","rules":{},"clock":{},"private":false,"seats":[null,null],"seq":1e300})",
                                  R"(room {"name":"x","rules":{},"clock":{},"private":false,"seats":[null,null],"seq":0,"tournament":{"id":"t","first":4294967296}})",
                                  R"(room {"name":"x","rules":{},"clock":{},"private":false,"seats":[null,null],"seq":0,"score":{"wins":[1.5,0],"draws":0}})",
                                  R"(room {"name":"x","rules":{},"clock":{},"private":false,"seats":[null,null],"seq":0,"score":{"wins":[1,-1],"draws":0}})",
                                  R"(room {"name":"x","rules":{},"clock":{},"private":false,"seats":[null,null],"seq":0,"bot":{"level":3,"delay_ms":0,"seat":2}})"}) {
        CAPTURE(bad);
        CHECK_FALSE(decode(bad).has_value());
    }
    // A journal from before the computer played in tournaments: its bot sits in seat 1.
    const auto older = decode(R"(room {"name":"x","rules":{},"clock":{},"private":false,"seats":[null,null],"seq":0,"bot":{"level":3,"delay_ms":0}})");
    REQUIRE(older);
    const auto* summary = std::get_if<play::change::summary>(&*older);
    REQUIRE(summary);
    CHECK(summary->bot == model::bot_opponent{3, 0});
    CHECK(summary->bot_seat == 1);
}

TEST_CASE("room journal: a waiting room comes back waiting, its creator seated and able to resume by token")
{
    journaled_duel d;
    const auto entries = d.host.journal_of(d.id);
    REQUIRE(entries.size() == 2); // the summary, then Ann's seat
    CHECK(entries[0].change.rfind("room ", 0) == 0);
    CHECK(entries[1].change.rfind("seat 0 ", 0) == 0);
    CHECK(entries[1].change.find(d.ann_token) == std::string::npos); // only the token's hash

    restored r{d, *d.ann};
    CHECK(r.snapshot["status"] == "waiting");
    CHECK(r.snapshot["players"][0]["id"] == d.ann->info.id);
    CHECK(r.snapshot["players"][1].is_null());
    CHECK(r.snapshot["you"]["seat"] == 0);
    // The restored host knows Ann by her token, and her room.
    const auto known = r.host.players().find_by_token(d.ann_token);
    REQUIRE(known);
    CHECK(known->info == d.ann->info);
    CHECK(r.host.players().rooms_of(d.ann->info.id) == strings{d.id});

    // Bo joins the restored room: the game starts there.
    const auto bo = r.host.players().create("Bo");
    const auto cb = r.host.connect();
    r.room->handle(cb, *bo, protocol::join{false}, nullptr);
    CHECK(types_of(r.host.take(cb)) == strings{"room", "game_started"});
}

TEST_CASE("room journal: a player renamed mid-game comes back with the new name, in the room, the registry and the archive")
{
    journaled_duel d;
    d.start();
    d.give(d.first, 7);
    d.room->rename({d.ann->info.id, "Annabel"});
    CHECK(d.host.journal_of(d.id).back().change == "rename 0 Annabel");

    restored r{d, *d.bo};
    CHECK(r.snapshot["players"][0]["name"] == "Annabel");
    CHECK(r.host.players().find_by_id(d.ann->info.id)->info.name == "Annabel");
    CHECK(r.room->lobby().seats[0]->name == "Annabel");
    r.room->handle(r.c, *d.bo, protocol::resign{}, nullptr);
    r.host.run_deferred();
    REQUIRE(r.host.archived().size() == 1);
    CHECK(r.host.archived()[0].players[0].name == "Annabel");
}

TEST_CASE("room journal: a game in progress comes back as it stood at the last entry, the mover's clock too")
{
    journaled_duel d;
    d.start();
    d.host.advance(milliseconds{5'000});
    d.give(d.first, 7);
    d.host.advance(milliseconds{12'000});
    d.place(d.second(), 5);
    d.host.advance(milliseconds{3'000});
    d.give(d.second(), 9); // the last entry: first now has 60 s to place piece 9
    const json before = d.snapshot(d.first);
    d.host.advance(milliseconds{20'000}); // thinking, then the crash: no entry for it

    restored r{d, d.player(d.first)};
    INFO(r.snapshot.dump());
    CHECK(r.snapshot["status"] == "playing");
    CHECK(r.snapshot["game"] == before["game"]); // board, pieces, moves and their times, clock
    CHECK(r.snapshot["game"]["clock"]["remaining_ms"][d.first] == move_ms.count());
    CHECK(r.snapshot["game"]["clock"]["running"] == d.first);
    // The opponent's claim window on that placement is back whole too (it opened with the
    // give), and the restored timer is set for its end.
    CHECK(r.snapshot["game"]["claim"]["remaining_ms"] == claim_ms.count());
    REQUIRE(r.host.next_alarm());
    CHECK(*r.host.next_alarm() == r.host.now() + claim_ms);

    // The game goes on there: the mover places, and the seq continues.
    const std::uint64_t seq = r.snapshot["seq"].get<std::uint64_t>();
    r.room->handle(r.c, d.player(d.first), protocol::place{3}, nullptr);
    const auto got = r.host.take(r.c);
    REQUIRE(types_of(got) == strings{"placed"});
    CHECK(got[0]["seq"] == seq + 1);
}

TEST_CASE("room journal: a move from a connection that has not resumed yet puts it in the room, and it sees the move")
{
    // A cluster's node takes a dead node's room over and plays a move it held meanwhile before
    // the player's own resume reaches the room: the room has no subscriber yet.
    journaled_duel d;
    d.start();
    d.give(d.first, 7);
    fake_host there;
    there.enable_journal();
    play::room& room = there.restore_room(d.id, d.host.journal_of(d.id));
    const play::client_ref mover = there.connect();
    room.handle(mover, d.player(d.second()), protocol::place{5}, nullptr);
    there.run_deferred();
    const auto got = there.take(mover);
    INFO(there.transcript(mover));
    REQUIRE(types_of(got) == strings{"room", "placed"}); // its snapshot, then the move
    CHECK(got[0]["players"][d.second()]["connected"] == true);
    CHECK(got[0]["seq"].get<std::uint64_t>() + 1 == got[1]["seq"].get<std::uint64_t>());
    CHECK(there.in_room(mover, d.id));
    // The opponent, back afterwards, finds the move made.
    const play::client_ref other = there.connect();
    room.resume(other, d.player(d.first));
    const auto back = there.take(other);
    REQUIRE(!back.empty());
    CHECK(back.back()["game"]["board"][5] != nullptr);
}

TEST_CASE("room journal: an open claim window reopens for the rest of its length, and the claim wins")
{
    journaled_duel d;
    d.start();
    const seat f = d.first, o = d.second();
    d.fill_row0(); // f completed row 0, and gives without calling
    d.host.advance(milliseconds{2'000});
    d.give(f, 8); // the window opens for o
    d.host.advance(milliseconds{4'000});
    d.host.take(d.conn(o));

    restored r{d, d.player(o)};
    INFO(r.snapshot.dump());
    REQUIRE(r.snapshot["game"]["claim"].is_object());
    CHECK(r.snapshot["game"]["claim"]["seat"] == o);
    CHECK(r.snapshot["game"]["claim"]["remaining_ms"] == claim_ms.count()); // as at the give

    r.host.advance(milliseconds{9'000}); // within what is left of it
    r.room->handle(r.c, d.player(o), protocol::call_quarto{mask({0, 1, 2, 3})}, nullptr);
    const auto got = r.host.take(r.c);
    REQUIRE(types_of(got) == strings{"game_over"});
    CHECK(got[0]["winner"] == o);
    CHECK(got[0]["reason"] == "missed_quarto");
}

TEST_CASE("room journal: a finished game with a rematch asked comes back finished, the rematch still asked")
{
    journaled_duel d;
    d.start();
    const seat f = d.first, o = d.second();
    d.fill_row0();
    d.act(f, protocol::call_quarto{mask({0, 1, 2, 3})});
    d.act(o, protocol::rematch{});
    const json before = d.snapshot(f);
    REQUIRE(before["status"] == "finished");

    restored r{d, d.player(f)};
    CHECK(r.snapshot["status"] == "finished");
    CHECK(r.snapshot["game"] == before["game"]);
    // The finished game is offered to the archive again (stored unless it is there already:
    // the process may have died before its archive commit), the same record but its end time.
    REQUIRE(d.host.archived().size() == 1);
    REQUIRE(r.host.archived().size() == 1);
    auto again = r.host.archived()[0];
    again.ended_ms = d.host.archived()[0].ended_ms;
    CHECK(again == d.host.archived()[0]);
    r.room->handle(r.c, d.player(f), protocol::rematch{}, nullptr);
    CHECK(types_of(r.host.take(r.c)) == strings{"rematch_requested", "game_started"});
}

TEST_CASE("room journal: a game lost on time, and a game left mid-way, come back over")
{
    SUBCASE("on time")
    {
        journaled_duel d;
        d.start();
        d.host.advance(move_ms + milliseconds{1});
        REQUIRE(d.snapshot(d.first)["status"] == "finished");
        restored r{d, d.player(d.first)};
        CHECK(r.snapshot["status"] == "finished");
        CHECK(r.snapshot["game"]["result"]["reason"] == "timeout");
        CHECK(r.snapshot["game"]["result"]["winner"] == d.second());
        CHECK_FALSE(r.host.next_alarm());
    }
    SUBCASE("left: the leaver resigned, and their seat is free for the next opponent")
    {
        journaled_duel d;
        d.start();
        d.give(d.first, 4);
        d.act(d.conn(1), *d.bo, protocol::leave{});
        restored r{d, *d.ann};
        CHECK(r.snapshot["status"] == "waiting");
        CHECK(r.snapshot["players"][1].is_null());
        CHECK(r.host.players().rooms_of(d.bo->info.id).empty());
    }
}

TEST_CASE("room journal: a game won because the opponent left comes back over, and the players away")
{
    journaled_duel d;
    d.start();
    d.room->detach(d.conn(1));
    d.host.advance(milliseconds{30'000});
    d.act(d.conn(0), *d.ann, protocol::claim_victory{});
    REQUIRE(d.snapshot(0)["status"] == "finished");
    restored r{d, *d.ann};
    CHECK(r.snapshot["status"] == "finished");
    CHECK(r.snapshot["game"]["result"]["reason"] == "abandoned");
    CHECK(r.snapshot["game"]["result"]["winner"] == 0);
}

TEST_CASE("room journal: the restored room's recent events are the journaled ones byte for byte, then resumed")
{
    journaled_duel d;
    d.start();
    d.give(d.first, 7);
    d.place(d.second(), 5);
    // What Bo received of the room's events, as sent.
    std::vector<std::string> bo_events;
    for (const auto& p : d.host.payloads(d.b))
        if (p.find("\"seq\"") != std::string::npos && p.find("\"type\":\"room\"") == std::string::npos)
            bo_events.push_back(p);
    std::vector<std::string> journaled;
    for (const auto& e : d.host.journal_of(d.id))
        if (!e.event.empty()) journaled.push_back(e.event);
    // Everything Bo got is journaled (he missed only the events before his join).
    REQUIRE(bo_events.size() <= journaled.size());
    CHECK(std::equal(bo_events.rbegin(), bo_events.rend(), journaled.rbegin()));

    fake_host host;
    host.enable_journal();
    host.set_clock(instant{milliseconds{9'000'000}});
    auto& room = host.restore_room(d.id, d.host.journal_of(d.id));
    const auto c = host.connect();
    // The events before the game started were compacted away: a sync from before them gets a
    // snapshot; one from the game's start gets every event since, as first sent.
    const std::uint64_t oldest = json::parse(journaled.front())["seq"].get<std::uint64_t>();
    room.handle(c, *d.bo, protocol::sync{oldest - 2}, "old");
    CHECK(types_of(host.take(c)) == strings{"room", "synced"});
    room.handle(c, *d.bo, protocol::sync{oldest - 1}, "s");
    const auto& all = host.payloads(c);
    const std::vector<std::string> got(all.begin() + 2, all.end());
    REQUIRE(got.size() == journaled.size() + 2); // the events, resumed, synced
    CHECK(std::equal(journaled.begin(), journaled.end(), got.begin()));
    const json resumed = json::parse(got[journaled.size()]);
    CHECK(resumed["type"] == "resumed");
    CHECK(resumed["seq"] == oldest + journaled.size());
    CHECK(resumed["status"] == "playing");
    CHECK(resumed["clock"]["running"] == d.second()); // who placed gives next
    // resumed is journaled too: a second restart keeps it in the history.
    const auto again = host.journal_of(d.id);
    CHECK(again.back().event == got[journaled.size()]);
}

TEST_CASE("room journal: a new game cuts what came before it, and a closed room leaves nothing")
{
    journaled_duel d;
    d.start();
    d.act(d.first, protocol::resign{});
    const auto after_first_game = d.host.journal_of(d.id).size();
    d.act(d.a, *d.ann, protocol::rematch{});
    d.act(d.b, *d.bo, protocol::rematch{});
    const auto entries = d.host.journal_of(d.id);
    // The summary the new game wrote, then the game's start: all the room needs.
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].change.rfind("room ", 0) == 0);
    CHECK(entries[1].change.rfind("start ", 0) == 0);
    CHECK(after_first_game > 2);

    d.act(d.a, *d.ann, protocol::leave{});
    d.act(d.b, *d.bo, protocol::leave{});
    d.host.sweep(milliseconds{0});
    CHECK(d.host.journal_of(d.id).empty());
}

TEST_CASE("room journal: a finished game still in the journal under a new one is offered to the archive on restore")
{
    // The server cuts a finished game's entries only once the archive has it: a process that
    // died before that leaves the game in the journal, under the next game's summary.
    journaled_duel d;
    d.start();
    d.act(d.first, protocol::resign{});
    auto entries = d.host.journal_of(d.id);
    d.act(d.a, *d.ann, protocol::rematch{});
    d.act(d.b, *d.bo, protocol::rematch{});
    for (auto& e : d.host.journal_of(d.id)) entries.push_back(std::move(e));
    REQUIRE(d.host.archived().size() == 1);

    fake_host h;
    h.enable_journal();
    auto& room = h.restore_room(d.id, entries);
    REQUIRE(h.archived().size() == 1);
    auto again = h.archived()[0];
    again.ended_ms = d.host.archived()[0].ended_ms;
    CHECK(again == d.host.archived()[0]);
    const auto c = h.connect();
    room.resume(c, *d.ann);
    const auto got = h.take(c);
    REQUIRE(!got.empty());
    CHECK(got.back()["status"] == "playing");
}

TEST_CASE("room journal: entries this code cannot replay are refused with the reason")
{
    journaled_duel d;
    d.start();
    auto entries = d.host.journal_of(d.id);
    fake_host host;
    std::string problem;
    SUBCASE("an unreadable change")
    {
        entries.back().change = "act give 9 9 9 9";
        CHECK_FALSE(play::room::restore(host, d.id, entries, problem));
        CHECK(problem.find("cannot be read") != std::string::npos);
    }
    SUBCASE("no summary first")
    {
        entries.erase(entries.begin());
        CHECK_FALSE(play::room::restore(host, d.id, entries, problem));
        CHECK(problem.find("summary") != std::string::npos);
    }
    SUBCASE("an action the game refuses")
    {
        entries.push_back({d.id, entries.back().n + 1, "act place 0 3 0 10", ""});
        CHECK_FALSE(play::room::restore(host, d.id, entries, problem));
        CHECK(problem.find("does not fit") != std::string::npos);
    }
}

TEST_CASE("room journal: a tournament game comes back a tournament game, and reports its result once relinked")
{
    fake_host host;
    host.enable_journal();
    const auto ann = host.players().create("Ann");
    const auto bo = host.players().create("Bo");
    play::room_settings s;
    s.name = "Cup · round 1";
    s.clock = {move_ms, claim_ms};
    s.tournament = play::tournament_link{"tcup", seat{1}, nullptr};
    play::room& original = host.open_game_room(std::move(s), *ann, *bo);
    host.run_deferred();
    const std::string id = original.id();
    // Bo (seat 1) gives first, as the tournament said; Ann places it.
    const auto a = host.connect(), b = host.connect();
    original.handle(b, *bo, protocol::give{quarto::piece{3}}, nullptr);
    original.handle(a, *ann, protocol::place{quarto::square{5}}, nullptr);
    host.run_deferred();
    const auto entries = host.journal_of(id);
    REQUIRE(!entries.empty());
    REQUIRE(entries[0].change.rfind("room ", 0) == 0);
    CHECK(json::parse(entries[0].change.substr(5))["tournament"] == json{{"id", "tcup"}, {"first", 1}});

    std::vector<std::pair<quarto::game_result, std::string>> results;
    const auto collect = [&](const quarto::game_result& r, const std::string& game) { results.emplace_back(r, game); };

    SUBCASE("in progress: the game goes on, and its end goes to the tournament that relinked it")
    {
        fake_host later;
        later.enable_journal();
        play::room& r = later.restore_room(id, entries);
        later.run_deferred();
        CHECK(r.listing().tournament == "tcup");
        CHECK_FALSE(r.relink("tother", collect));
        CHECK(r.relink("tcup", collect));
        later.run_deferred();
        CHECK(results.empty());
        const auto c = later.connect();
        r.resume(c, *ann);
        const json snap = later.take(c).back();
        CHECK(snap["tournament"] == "tcup");
        CHECK(snap["game"]["first"] == 1);
        CHECK(snap["game"]["moves"].size() == 2);
        r.handle(c, *ann, protocol::resign{}, nullptr);
        later.run_deferred();
        REQUIRE(results.size() == 1);
        CHECK(results[0].first.winner == seat{1});
        CHECK(results[0].second == of_type(later.take(c), "game_over").at(0)["game"]);
    }
    SUBCASE("over before the restart: relinking reports the result at once")
    {
        original.handle(a, *ann, protocol::resign{}, nullptr);
        host.run_deferred();
        fake_host later;
        later.enable_journal();
        play::room& r = later.restore_room(id, host.journal_of(id));
        later.run_deferred();
        CHECK(results.empty());
        CHECK(r.relink("tcup", collect));
        later.run_deferred();
        REQUIRE(results.size() == 1);
        CHECK(results[0].first.winner == seat{1});
        CHECK(results[0].first.reason == quarto::end_reason::resign);
    }
}
