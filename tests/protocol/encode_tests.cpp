// Encoding of every server message: direct replies, the lobby summary, the room snapshot and
// the room events, built from real core games. Expectations are written as the JSON a client
// receives, so these tests double as examples of PROTOCOL.md.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "quarto/protocol/fields.hpp"
#include "quarto/protocol/game_events.hpp"
#include "quarto/protocol/json_writer.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::model;
using namespace quarto::protocol;
using protocol_tests::json;

namespace {

json wire(std::string_view text) { return json::parse(text); }

// Move events are written as text; what a client reads is the parsed document.
const event_stamp stamp{"k3x9abqz", 7};
json event(const std::string& text) { return json::parse(text); }

piece pc(int code) { return *piece::from_code(code); }

// The encoders as documents: each runs the one writer of its message or field, and the test
// reads what a client would parse.
namespace t {

json error_reply(error_code code, std::string_view message, const json& req) { return wire(protocol::error_reply(code, message, req)); }
json welcome(const player_info& p, const std::string& token, const json& req) { return wire(protocol::welcome(p, token, req)); }
json pong(std::int64_t ms, const json& req) { return wire(protocol::pong(ms, req)); }
json room_created(const room_id& id, const json& req) { return wire(protocol::room_created(id, req)); }
json rooms_list(const std::vector<json>& summaries, std::size_t total, std::size_t offset, const json& req)
{
    std::vector<std::string> texts;
    for (const json& s : summaries) texts.push_back(s.dump());
    return wire(protocol::rooms_list(texts, total, offset, req));
}
json synced(const room_id& id, std::uint64_t seq, const json& req) { return wire(protocol::synced(id, seq, req)); }
json room_closed(const room_id& id) { return wire(protocol::room_closed(id)); }
json room_summary(const room_view& v, bool is_private) { return wire(protocol::room_summary(v, is_private)); }
json room_snapshot(const room_view& v, std::optional<seat> you, const json& req) { return wire(protocol::room_snapshot(v, you, req)); }
json joined_event(const player_info& p, bool as_spectator, std::optional<seat> at)
{
    return wire(protocol::joined_event(stamp, p, as_spectator, at));
}
json left_event(const player_info& p, bool as_spectator, std::optional<seat> from)
{
    return wire(protocol::left_event(stamp, p, as_spectator, from));
}
json connection_event(const player_info& p, bool connected) { return wire(protocol::connection_event(stamp, p, connected)); }

template <class Write>
std::string text(Write write)
{
    std::string out;
    write(out);
    return out;
}
std::string game_started_event(const event_stamp& st, const game& g, const std::array<player_info, 2>& players, instant now)
{
    return text([&](std::string& out) { protocol::game_started_event(out, st, g, players, now); });
}
std::string given_event(const event_stamp& st, const game& g, seat by, piece p, instant now)
{
    return text([&](std::string& out) { protocol::given_event(out, st, g, by, p, now); });
}
std::string placed_event(const event_stamp& st, const game& g, seat by, square sq, piece p, instant now)
{
    return text([&](std::string& out) { protocol::placed_event(out, st, g, by, sq, p, now); });
}
std::string passed_event(const event_stamp& st, const game& g, seat by, instant now)
{
    return text([&](std::string& out) { protocol::passed_event(out, st, g, by, now); });
}
std::string game_over_event(const event_stamp& st, const game& g, std::string_view id, instant now)
{
    return text([&](std::string& out) { protocol::game_over_event(out, st, g, id, now); });
}
std::string rematch_requested_event(const event_stamp& st, seat by)
{
    return text([&](std::string& out) { protocol::rematch_requested_event(out, st, by); });
}

// A field encoder's value, read back.
template <class Write>
json field(Write write)
{
    std::string out;
    {
        json_text t{out};
        write(t);
    }
    return json::parse(out);
}
json encode_line(square_mask line)
{
    return field([&](json_text& t) { fields::write_line(t, line); });
}
json encode_clock(const game& g, instant now)
{
    return field([&](json_text& t) { fields::write_clock(t, g, now); });
}
json encode_claim(const game& g, instant now)
{
    return field([&](json_text& t) { fields::write_claim(t, g, now); });
}

} // namespace t

const player_info ann{"p1", "Ann"};
const player_info bo{"p2", "Bo"};

// The parts of a room the server would hold; room_view only borrows them.
struct room_fixture {
    room_id id = "k3x9abqz";
    std::string name = "Ann's room";
    rules game_rules{};
    clock_settings clock{};
    std::array<std::optional<seat_info>, 2> seats{};
    std::string game_id = "g7mq2x9kbn4a";
    std::string tournament; // empty: not a tournament's game

    room_view view(std::uint64_t seq, room_status status, int spectators, const game* g, instant now) const
    {
        return room_view{id, seq, name, game_rules, clock, status, seats, spectators, g, now, game_id, tournament};
    }
};

// Plays a full game in which no line shares a colour, with only colour counted: the 16th
// piece lands without a Quarto. Square s gets piece draw_pieces[s]; seat 0 gives first at
// time 0, every give at 100*(2k+1) ms and every placement at 100*(2k+2) ms.
constexpr std::array<int, 16> draw_pieces{1, 3, 0, 2, 4, 6, 5, 7, 9, 11, 8, 10, 12, 14, 13, 15};

rules colour_only()
{
    rules r;
    r.attributes = attribute_set{}.with(attribute::color);
    return r;
}

void fill_board(game& g)
{
    for (int k = 0; k < 16; ++k) {
        const seat giver = static_cast<seat>(k % 2);
        const auto t = static_cast<std::int64_t>(k) * 200;
        REQUIRE(g.give(giver, pc(draw_pieces[static_cast<std::size_t>(k)]), at_ms(t + 100)).ok());
        REQUIRE(g.place(opponent(giver), static_cast<square>(k), at_ms(t + 200)).ok());
    }
}

// Seat 0 gives first at t=0; pieces 0, 2, 4, 6 (all light, all solid) go on row 0, seat 0
// placing the last of them at t=800.
game row_zero_game(const rules& r = {})
{
    game g{r, clock_settings{}, 0, at_ms(0)};
    REQUIRE(g.give(0, pc(0), at_ms(100)).ok());
    REQUIRE(g.place(1, 0, at_ms(200)).ok());
    REQUIRE(g.give(1, pc(2), at_ms(300)).ok());
    REQUIRE(g.place(0, 1, at_ms(400)).ok());
    REQUIRE(g.give(0, pc(4), at_ms(500)).ok());
    REQUIRE(g.place(1, 2, at_ms(600)).ok());
    REQUIRE(g.give(1, pc(6), at_ms(700)).ok());
    REQUIRE(g.place(0, 3, at_ms(800)).ok());
    return g;
}

} // namespace

// ---- error codes -------------------------------------------------------------------------

TEST_CASE("every error code has its wire name and a readable default message")
{
    const std::vector<std::string> names{"bad_json",      "bad_message",  "unknown_type",      "hello_required",
                                         "unknown_token", "no_such_room", "room_full",         "not_in_room",
                                         "not_a_player",  "not_your_turn", "wrong_phase",      "square_taken",
                                         "piece_unavailable", "invalid_claim", "rate_limited",
                                         "no_such_tournament", "not_director", "registration_closed",
                                         "tournament_full", "not_registered", "wrong_status", "not_enough_players",
                                         "bot_already_registered", "too_many_rooms", "too_many_tournaments", "unavailable",
                                         "not_allowed", "name_taken", "unknown_session"};
    REQUIRE(names.size() == error_code_count);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto code = static_cast<error_code>(i);
        CHECK(std::string{to_string(code)} == names[i]);
        CHECK_FALSE(default_message(code).empty());
    }
}

TEST_CASE("refused game actions map onto error codes")
{
    CHECK(from_action_error(action_error::game_over) == error_code::wrong_phase);
    CHECK(from_action_error(action_error::not_your_turn) == error_code::not_your_turn);
    CHECK(from_action_error(action_error::wrong_phase) == error_code::wrong_phase);
    CHECK(from_action_error(action_error::square_taken) == error_code::square_taken);
    CHECK(from_action_error(action_error::piece_unavailable) == error_code::piece_unavailable);
    CHECK(from_action_error(action_error::invalid_claim) == error_code::invalid_claim);
}

// ---- direct replies ------------------------------------------------------------------------

TEST_CASE("error_reply echoes req only when there is one")
{
    CHECK(t::error_reply(error_code::not_your_turn, "It is not your turn.", nullptr) ==
          wire(R"({"type":"error","code":"not_your_turn","message":"It is not your turn."})"));
    CHECK(t::error_reply(error_code::square_taken, "taken", "m-3") ==
          wire(R"({"type":"error","code":"square_taken","message":"taken","req":"m-3"})"));
    CHECK(t::error_reply(error_code::bad_json, "x", 17) == wire(R"({"type":"error","code":"bad_json","message":"x","req":17})"));
    CHECK(t::error_reply(error_code::rate_limited, "slow", 0) ==
          wire(R"({"type":"error","code":"rate_limited","message":"slow","req":0})"));
    CHECK(t::error_reply(error_code::bad_message, "x", "").at("req") == json(""));
}

TEST_CASE("a parse error becomes the error reply with its req")
{
    auto result = parse_client_message(R"({"type":"place","room":"r1","square":16,"req":"p9"})");
    REQUIRE(std::holds_alternative<parse_error>(result));
    const auto& e = std::get<parse_error>(result);
    const json reply = t::error_reply(e.code, e.message, e.req);
    CHECK(reply.at("type") == "error");
    CHECK(reply.at("code") == "bad_message");
    CHECK(reply.at("req") == "p9");
    CHECK(reply.at("message").get<std::string>().find("square") != std::string::npos);
}

TEST_CASE("welcome, pong, room_created, rooms, synced, room_closed")
{
    CHECK(t::welcome(ann, "0123456789abcdef0123456789abcdef", nullptr) ==
          wire(R"({"type":"welcome","player":"p1","name":"Ann","token":"0123456789abcdef0123456789abcdef","protocol":1,"account":false})"));
    CHECK(t::welcome(ann, "t", "h").at("req") == "h");
    const std::vector<std::string> rooms{"k3x9abqz", "m4r7cdef"}, tournaments{"t5h8wxyz"};
    const protocol::resume_list resuming{rooms, tournaments};
    CHECK(wire(protocol::welcome(ann, "t", 3, &resuming)) ==
          wire(R"({"type":"welcome","player":"p1","name":"Ann","token":"t","protocol":1,"account":false,)"
               R"("rooms":["k3x9abqz","m4r7cdef"],"tournaments":["t5h8wxyz"],"req":3})"));
    const protocol::resume_list nothing{};
    CHECK(wire(protocol::welcome(ann, "t", nullptr, &nothing)) ==
          wire(R"({"type":"welcome","player":"p1","name":"Ann","token":"t","protocol":1,"account":false,"rooms":[],"tournaments":[]})"));
    // An account's: no token (its session is its identity), its ratings by pool, unrounded.
    const std::vector<protocol::pool_rating> ratings{{"standard", 1623.4567, 61.5, 0.0599, 31, false},
                                                     {"advanced", 1500, 500, 0.09, 0, true}};
    const std::span<const protocol::pool_rating> account{ratings};
    CHECK(wire(protocol::welcome(ann, "", nullptr, &nothing, &account)) ==
          wire(R"({"type":"welcome","player":"p1","name":"Ann","protocol":1,"account":true,"ratings":{)"
               R"("standard":{"rating":1623.4567,"rd":61.5,"volatility":0.0599,"provisional":false,"games":31},)"
               R"("advanced":{"rating":1500,"rd":500,"volatility":0.09,"provisional":true,"games":0}},)"
               R"("rooms":[],"tournaments":[]})"));
    CHECK(protocol::resumed_all() == R"({"type":"resumed_all"})");
    CHECK(t::pong(1'700'000'000'123, nullptr) == wire(R"({"type":"pong","time_ms":1700000000123})"));
    CHECK(t::pong(5, 4.5) == wire(R"({"type":"pong","time_ms":5,"req":4.5})"));
    CHECK(t::room_created("k3x9abqz", "c1") == wire(R"({"type":"room_created","room":"k3x9abqz","req":"c1"})"));
    CHECK(t::room_created("k3x9abqz", nullptr) == wire(R"({"type":"room_created","room":"k3x9abqz"})"));
    CHECK(t::rooms_list({}, 0, 0, nullptr) == wire(R"({"type":"rooms","rooms":[],"total":0,"offset":0})"));
    const std::vector<json> summaries{wire(R"({"id":"a"})"), wire(R"({"id":"b"})")};
    CHECK(t::rooms_list(summaries, 7, 4, 2) ==
          wire(R"({"type":"rooms","rooms":[{"id":"a"},{"id":"b"}],"total":7,"offset":4,"req":2})"));
    CHECK(t::synced("k3x9abqz", 12, "s") == wire(R"({"type":"synced","room":"k3x9abqz","seq":12,"req":"s"})"));
    CHECK(t::room_closed("k3x9abqz") == wire(R"({"type":"room_closed","room":"k3x9abqz"})"));
}

// ---- rules, clock settings, lines ----------------------------------------------------------

TEST_CASE("encode_rules and encode_clock_settings")
{
    CHECK(encode_rules(rules{}) ==
          wire(R"({"squares":false,"attributes":["color","height","shape","fill"],"false_claim":"reject"})"));
    rules r;
    r.squares = true;
    r.attributes = attribute_set{}.with(attribute::fill).with(attribute::color);
    r.false_claim = false_claim_policy::lose;
    CHECK(encode_rules(r) == wire(R"({"squares":true,"attributes":["color","fill"],"false_claim":"lose"})"));

    CHECK(encode_clock_settings(clock_settings{}) == wire(R"({"move_ms":60000,"claim_ms":10000})"));
    CHECK(encode_clock_settings(clock_settings{std::nullopt, milliseconds{250}}) ==
          wire(R"({"move_ms":null,"claim_ms":250})"));
}

TEST_CASE("parsed options encode back to the same JSON")
{
    auto result = parse_client_message(R"({"type":"create_room","rules":{"squares":true,"attributes":["height","shape"],
        "false_claim":"lose"},"clock":{"move_ms":null,"claim_ms":600000}})");
    REQUIRE(std::holds_alternative<parsed_message>(result));
    const auto& c = std::get<create_room>(std::get<lobby_message>(std::get<parsed_message>(result).message));
    CHECK(encode_rules(c.game_rules) == wire(R"({"squares":true,"attributes":["height","shape"],"false_claim":"lose"})"));
    CHECK(encode_clock_settings(c.clock) == wire(R"({"move_ms":null,"claim_ms":600000})"));
}

TEST_CASE("encode_line lists the squares in increasing order")
{
    CHECK(t::encode_line(0x000F) == wire("[0,1,2,3]"));
    CHECK(t::encode_line(0x8421) == wire("[0,5,10,15]"));
    CHECK(t::encode_line(0x1248) == wire("[3,6,9,12]"));
    CHECK(t::encode_line(0x0033) == wire("[0,1,4,5]"));
    CHECK(t::encode_line(0) == wire("[]"));
}

// ---- clocks and claims -----------------------------------------------------------------

TEST_CASE("encode_clock of a timed game: the mover's time runs, the other's is idle at the allowance")
{
    game g{rules{}, clock_settings{}, 1, at_ms(1000)};
    CHECK(t::encode_clock(g, at_ms(1000)) == wire(R"({"remaining_ms":[60000,60000],"running":1})"));
    CHECK(t::encode_clock(g, at_ms(1500)) == wire(R"({"remaining_ms":[60000,59500],"running":1})"));
    // Never negative.
    CHECK(t::encode_clock(g, at_ms(90'000)) == wire(R"({"remaining_ms":[60000,0],"running":1})"));

    REQUIRE(g.give(1, pc(3), at_ms(4000)).ok());
    // The move passes to seat 0 with a full allowance.
    CHECK(t::encode_clock(g, at_ms(4250)) == wire(R"({"remaining_ms":[59750,60000],"running":0})"));

    REQUIRE(g.resign(0, at_ms(5000)).ok());
    // Finished: nobody runs, the last mover's time is frozen.
    CHECK(t::encode_clock(g, at_ms(9000)) == wire(R"({"remaining_ms":[59000,60000],"running":null})"));
}

TEST_CASE("encode_clock of an untimed game: remaining entries are null")
{
    game g{rules{}, clock_settings{std::nullopt, milliseconds{10'000}}, 0, at_ms(0)};
    CHECK(t::encode_clock(g, at_ms(123'456)) == wire(R"({"remaining_ms":[null,null],"running":0})"));
    REQUIRE(g.give(0, pc(0), at_ms(1)).ok());
    CHECK(t::encode_clock(g, at_ms(2)) == wire(R"({"remaining_ms":[null,null],"running":1})"));
    REQUIRE(g.resign(1, at_ms(3)).ok());
    CHECK(t::encode_clock(g, at_ms(4)) == wire(R"({"remaining_ms":[null,null],"running":null})"));
}

TEST_CASE("encode_claim: open after a give that follows a placement, until claim_ms or the next placement")
{
    game g{rules{}, clock_settings{}, 0, at_ms(1000)};
    REQUIRE(g.give(0, pc(5), at_ms(1200)).ok());
    CHECK(t::encode_claim(g, at_ms(1300)).is_null()); // the first give follows no placement
    REQUIRE(g.place(1, 0, at_ms(1500)).ok());
    CHECK(t::encode_claim(g, at_ms(1600)).is_null()); // the placer's own move: no window
    REQUIRE(g.give(1, pc(10), at_ms(2000)).ok());
    CHECK(t::encode_claim(g, at_ms(2000)) == wire(R"({"seat":0,"remaining_ms":10000})"));
    CHECK(t::encode_claim(g, at_ms(11'999)) == wire(R"({"seat":0,"remaining_ms":1})"));
    CHECK(t::encode_claim(g, at_ms(12'000)).is_null()); // the deadline instant is too late
    REQUIRE(g.place(0, 5, at_ms(3000)).ok());
    CHECK(t::encode_claim(g, at_ms(3000)).is_null()); // placing ends the window
}

// ---- results -----------------------------------------------------------------------------

TEST_CASE("encode_result: winner, reason, and the line for calls")
{
    CHECK(encode_result(game_result{0, end_reason::quarto, 0x000F}) ==
          wire(R"({"result":"win","winner":0,"reason":"quarto","line":[0,1,2,3]})"));
    CHECK(encode_result(game_result{1, end_reason::missed_quarto, 0x8421}) ==
          wire(R"({"result":"win","winner":1,"reason":"missed_quarto","line":[0,5,10,15]})"));
    CHECK(encode_result(game_result{0, end_reason::false_claim, 0x2222}) ==
          wire(R"({"result":"win","winner":0,"reason":"false_claim","line":[1,5,9,13]})"));
    CHECK(encode_result(game_result{1, end_reason::timeout, 0}) ==
          wire(R"({"result":"win","winner":1,"reason":"timeout"})"));
    CHECK(encode_result(game_result{0, end_reason::resign, 0}) == wire(R"({"result":"win","winner":0,"reason":"resign"})"));
    CHECK(encode_result(game_result{std::nullopt, end_reason::board_full, 0}) ==
          wire(R"({"result":"draw","winner":null,"reason":"board_full"})"));
}

// ---- room events -------------------------------------------------------------------------

TEST_CASE("game_started")
{
    game g{rules{}, clock_settings{}, 1, at_ms(500)};
    const json e = event(t::game_started_event(stamp, g, {ann, bo}, at_ms(500)));
    CHECK(e == wire(R"({"type":"game_started","room":"k3x9abqz","seq":7,"first":1,
                        "players":[{"id":"p1","name":"Ann"},{"id":"p2","name":"Bo"}],
                        "clock":{"remaining_ms":[60000,60000],"running":1}})"));
    // Names are the players' own text: whatever they hold reads back unchanged.
    const player_info odd{"p3", "Zo\"\\\u00e9 \x01"};
    CHECK(event(t::game_started_event(stamp, g, {odd, bo}, at_ms(500))).at("players")[0].at("name") == odd.name);
}

TEST_CASE("given and placed events during a game")
{
    game g{rules{}, clock_settings{}, 0, at_ms(1000)};
    REQUIRE(g.give(0, pc(5), at_ms(1200)).ok());
    CHECK(event(t::given_event(stamp, g, 0, pc(5), at_ms(1200))) ==
          wire(R"({"type":"given","room":"k3x9abqz","seq":7,"seat":0,"piece":5,
                   "clock":{"remaining_ms":[60000,60000],"running":1},"claim":null})"));

    REQUIRE(g.place(1, 0, at_ms(1500)).ok());
    CHECK(event(t::placed_event(stamp, g, 1, 0, pc(5), at_ms(1500))) ==
          wire(R"({"type":"placed","room":"k3x9abqz","seq":7,"seat":1,"square":0,"piece":5,
                   "clock":{"remaining_ms":[60000,59700],"running":1}})"));

    REQUIRE(g.give(1, pc(10), at_ms(2000)).ok());
    const std::string given_text = t::given_event({"room2", 18'446'744'073'709'551'615u}, g, 1, pc(10), at_ms(2000));
    CHECK(given_text.find(R"("seq":18446744073709551615,)") != std::string::npos);
    const json given = event(given_text);
    CHECK(given == wire(R"({"type":"given","room":"room2","seq":18446744073709551615,"seat":1,"piece":10,
                            "clock":{"remaining_ms":[60000,60000],"running":0},"claim":{"seat":0,"remaining_ms":10000}})"));
    // The text's clock and claim are those the snapshot shows.
    CHECK(given.at("clock") == t::encode_clock(g, at_ms(2000)));
    CHECK(given.at("claim") == t::encode_claim(g, at_ms(2000)));
}

TEST_CASE("move events of an untimed game: remaining times are null")
{
    game g{rules{}, clock_settings{std::nullopt, milliseconds{10'000}}, 1, at_ms(0)};
    REQUIRE(g.give(1, pc(15), at_ms(40)).ok());
    const json given = event(t::given_event(stamp, g, 1, pc(15), at_ms(40)));
    CHECK(given.at("clock") == wire(R"({"remaining_ms":[null,null],"running":0})"));
    CHECK(given.at("clock") == t::encode_clock(g, at_ms(40)));
}

TEST_CASE("passed events and the draw of a full board")
{
    game g{colour_only(), clock_settings{}, 0, at_ms(0)};
    fill_board(g);
    REQUIRE(g.board().full());
    // Seat 0 placed the 16th piece at 3200 (its move started at the give at 3100).
    REQUIRE(g.pass(0, at_ms(3300)).ok());
    CHECK(event(t::passed_event(stamp, g, 0, at_ms(3300))) ==
          wire(R"({"type":"passed","room":"k3x9abqz","seq":7,"seat":0,"clock":{"remaining_ms":[59800,60000],"running":null},
                   "claim":{"seat":1,"remaining_ms":10000}})"));

    SUBCASE("the claimant passes: a draw at once")
    {
        REQUIRE(g.pass(1, at_ms(5000)).ok());
        CHECK(event(t::passed_event(stamp, g, 1, at_ms(5000))) ==
              wire(R"({"type":"passed","room":"k3x9abqz","seq":7,"seat":1,
                       "clock":{"remaining_ms":[59800,60000],"running":null},"claim":null})"));
        CHECK(event(t::game_over_event(stamp, g, "g1", at_ms(5000))) ==
              wire(R"({"type":"game_over","room":"k3x9abqz","seq":7,"game":"g1","result":"draw","winner":null,"reason":"board_full",
                       "clock":{"remaining_ms":[59800,60000],"running":null}})"));
        // A rated game's: both seats' changes, in whole points.
        const std::array<protocol::rating_change, 2> changes{{{1500, 1488, 290, true}, {1712, 1716, 60, false}}};
        const json rated = event(t::text([&](std::string& out) {
            protocol::game_over_event(out, stamp, g, "g1", at_ms(5000), nullptr, &changes);
        }));
        CHECK(rated.at("ratings") == wire(R"([{"seat":0,"before":1500,"after":1488,"rd":290,"provisional":true},
                                              {"seat":1,"before":1712,"after":1716,"rd":60,"provisional":false}])"));
    }
    SUBCASE("the final window runs out: a draw")
    {
        CHECK(g.expire(at_ms(13'299)) == time_event::none);
        CHECK(g.expire(at_ms(13'300)) == time_event::game_over);
        CHECK(event(t::game_over_event(stamp, g, "g1", at_ms(13'300))).at("reason") == "board_full");
        CHECK(event(t::game_over_event(stamp, g, "g1", at_ms(13'300))).at("winner").is_null());
    }
}

TEST_CASE("game_over events for every reason")
{
    SUBCASE("quarto: the placer calls")
    {
        game g = row_zero_game();
        REQUIRE(g.call_quarto(0, 0x000F, at_ms(900)).ok());
        const json e = event(t::game_over_event(stamp, g, "g1", at_ms(900)));
        CHECK(e == wire(R"({"type":"game_over","room":"k3x9abqz","seq":7,"game":"g1","result":"win","winner":0,"reason":"quarto","line":[0,1,2,3],
                       "clock":{"remaining_ms":[59800,60000],"running":null}})"));
        // The result fields are those the snapshot shows.
        const json result = encode_result(*g.result());
        for (const auto& [key, value] : result.items()) CHECK(e.at(key) == value);
    }
    SUBCASE("missed_quarto: the opponent claims during the window")
    {
        game g = row_zero_game();
        REQUIRE(g.give(0, pc(8), at_ms(900)).ok());
        REQUIRE(g.call_quarto(1, 0x000F, at_ms(1000)).ok());
        const json e = event(t::game_over_event(stamp, g, "g1", at_ms(1000)));
        CHECK(e.at("winner") == 1);
        CHECK(e.at("reason") == "missed_quarto");
        CHECK(e.at("line") == wire("[0,1,2,3]"));
    }
    SUBCASE("false_claim under false_claim: lose")
    {
        rules r;
        r.false_claim = false_claim_policy::lose;
        game g{r, clock_settings{}, 0, at_ms(0)};
        REQUIRE(g.give(0, pc(0), at_ms(100)).ok());
        REQUIRE(g.place(1, 0, at_ms(200)).ok());
        REQUIRE(g.call_quarto(1, 0x000F, at_ms(250)).ok());
        CHECK(event(t::game_over_event(stamp, g, "g1", at_ms(250))) ==
              wire(R"({"type":"game_over","room":"k3x9abqz","seq":7,"game":"g1","result":"win","winner":0,"reason":"false_claim","line":[0,1,2,3],
                       "clock":{"remaining_ms":[60000,59850],"running":null}})"));
    }
    SUBCASE("timeout")
    {
        game g{rules{}, clock_settings{}, 0, at_ms(0)};
        CHECK(g.expire(at_ms(60'000)) == time_event::game_over);
        CHECK(event(t::game_over_event(stamp, g, "g1", at_ms(60'000))) ==
              wire(R"({"type":"game_over","room":"k3x9abqz","seq":7,"game":"g1","result":"win","winner":1,"reason":"timeout",
                       "clock":{"remaining_ms":[0,60000],"running":null}})"));
    }
    SUBCASE("resign")
    {
        game g{rules{}, clock_settings{}, 0, at_ms(0)};
        REQUIRE(g.resign(1, at_ms(10)).ok());
        const json e = event(t::game_over_event(stamp, g, "g1", at_ms(10)));
        CHECK(e.at("winner") == 0);
        CHECK(e.at("reason") == "resign");
        CHECK_FALSE(e.contains("line"));
    }
}

TEST_CASE("rematch_requested, joined, left, disconnected, reconnected")
{
    CHECK(event(t::rematch_requested_event(stamp, 1)) == wire(R"({"type":"rematch_requested","room":"k3x9abqz","seq":7,"seat":1})"));
    CHECK(t::joined_event(bo, false, seat{1}) ==
          wire(R"({"type":"joined","room":"k3x9abqz","seq":7,"player":{"id":"p2","name":"Bo"},"as":"player","seat":1})"));
    CHECK(t::joined_event(bo, true, std::nullopt) == wire(R"({"type":"joined","room":"k3x9abqz","seq":7,"player":{"id":"p2","name":"Bo"},"as":"spectator"})"));
    CHECK(t::left_event(ann, false, seat{0}) == wire(R"({"type":"left","room":"k3x9abqz","seq":7,"player":{"id":"p1","name":"Ann"},"as":"player","seat":0})"));
    CHECK(t::left_event(ann, true, std::nullopt) == wire(R"({"type":"left","room":"k3x9abqz","seq":7,"player":{"id":"p1","name":"Ann"},"as":"spectator"})"));
    CHECK(t::connection_event(ann, false) == wire(R"({"type":"disconnected","room":"k3x9abqz","seq":7,"player":{"id":"p1","name":"Ann"}})"));
    CHECK(t::connection_event(ann, true) == wire(R"({"type":"reconnected","room":"k3x9abqz","seq":7,"player":{"id":"p1","name":"Ann"}})"));
}

// ---- moves -------------------------------------------------------------------------------

TEST_CASE("encode_moves: the accepted actions with their time since the game started")
{
    game g = row_zero_game();
    REQUIRE(g.call_quarto(0, 0x000F, at_ms(900)).ok());
    const json moves = encode_moves(g.moves());
    REQUIRE(moves.size() == 9);
    CHECK(moves[0] == wire(R"({"type":"give","seat":0,"piece":0,"t_ms":100})"));
    CHECK(moves[1] == wire(R"({"type":"place","seat":1,"square":0,"t_ms":200})"));
    CHECK(moves[7] == wire(R"({"type":"place","seat":0,"square":3,"t_ms":800})"));
    CHECK(moves[8] == wire(R"({"type":"quarto","seat":0,"line":[0,1,2,3],"t_ms":900})"));

    game r{rules{}, clock_settings{}, 1, at_ms(5000)};
    REQUIRE(r.resign(0, at_ms(5123)).ok());
    CHECK(encode_moves(r.moves()) == wire(R"([{"type":"resign","seat":0,"t_ms":123}])"));

    game d{colour_only(), clock_settings{}, 0, at_ms(0)};
    fill_board(d);
    REQUIRE(d.pass(0, at_ms(3300)).ok());
    const json passes = encode_moves(d.moves());
    REQUIRE(passes.size() == 33);
    CHECK(passes[32] == wire(R"({"type":"pass","seat":0,"t_ms":3300})"));
}

// ---- lobby summary ---------------------------------------------------------------------------

TEST_CASE("room_summary lists the names of seated players, and says when the one waiting has gone")
{
    room_fixture f;
    f.seats[1] = seat_info{bo, false, std::nullopt};
    CHECK(t::room_summary(f.view(3, room_status::waiting, 2, nullptr, at_ms(0)), false) ==
          wire(R"({"id":"k3x9abqz","name":"Ann's room","status":"waiting","players":["Bo"],"player_ratings":[null],"rated":false,"spectators":2,
                   "rules":{"squares":false,"attributes":["color","height","shape","fill"],"false_claim":"reject"},
                   "clock":{"move_ms":60000,"claim_ms":10000},"private":false,"tournament":null,"host_away":true})"));
    f.seats[1] = seat_info{bo, true, std::nullopt};
    CHECK(t::room_summary(f.view(3, room_status::waiting, 2, nullptr, at_ms(0)), false).at("host_away") == false);
    f.seats[1] = seat_info{bo, false, std::nullopt};
    f.seats[0] = seat_info{ann, true, std::nullopt};
    CHECK(t::room_summary(f.view(4, room_status::playing, 0, nullptr, at_ms(0)), false).at("host_away") == false);

    f.seats[0] = seat_info{ann, true, std::nullopt};
    f.clock.move.reset();
    const json s = t::room_summary(f.view(4, room_status::playing, 0, nullptr, at_ms(0)), true);
    CHECK(s.at("players") == wire(R"(["Ann","Bo"])"));
    CHECK(s.at("status") == "playing");
    CHECK(s.at("clock") == wire(R"({"move_ms":null,"claim_ms":10000})"));
    CHECK(s.at("private") == true);
    CHECK(to_string(room_status::finished) == "finished");

    f.tournament = "tk3x9abqz";
    CHECK(t::room_summary(f.view(5, room_status::playing, 0, nullptr, at_ms(0)), false).at("tournament") == "tk3x9abqz");

    // An account's rating beside its name, null for a guest's; a rated room says so.
    f.seats[0] = seat_info{player_info{"p1", "Ann", model::shown_rating{1623, false}}, true, std::nullopt};
    auto rated = f.view(6, room_status::playing, 0, nullptr, at_ms(0));
    rated.rated = true;
    const json r = t::room_summary(rated, false);
    CHECK(r.at("player_ratings") == wire(R"([{"rating":1623,"provisional":false},null])"));
    CHECK(r.at("rated") == true);
    const json snapshot = t::room_snapshot(rated, seat{0}, nullptr);
    CHECK(snapshot.at("rated") == true);
    CHECK(snapshot.at("players")[0] == wire(R"({"seat":0,"id":"p1","name":"Ann","rating":1623,"provisional":false,"connected":true})"));
    CHECK_FALSE(snapshot.at("players")[1].contains("rating"));
}

// ---- room snapshot ---------------------------------------------------------------------------

TEST_CASE("room snapshot of a waiting room")
{
    room_fixture f;
    f.seats[0] = seat_info{ann, true, std::nullopt};
    const json snapshot = t::room_snapshot(f.view(1, room_status::waiting, 0, nullptr, at_ms(777)), seat{0}, "j1");
    CHECK(snapshot == wire(R"({"type":"room","room":"k3x9abqz","seq":1,"name":"Ann's room",
        "rules":{"squares":false,"attributes":["color","height","shape","fill"],"false_claim":"reject"},
        "clock_rules":{"move_ms":60000,"claim_ms":10000},"status":"waiting",
        "players":[{"seat":0,"id":"p1","name":"Ann","connected":true},null],"spectators":0,"rated":false,"tournament":null,
        "you":{"seat":0},
        "game":{"board":[null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null],
                "available":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"phase":"waiting","turn":null,"in_hand":null,
                "clock":{"remaining_ms":[60000,60000],"running":null},"claim":null,"moves":[],"result":null,
                "first":null,"id":null},
        "req":"j1"})"));

    SUBCASE("a spectator's view, untimed, without req")
    {
        f.clock.move.reset();
        const json s = t::room_snapshot(f.view(2, room_status::waiting, 1, nullptr, at_ms(0)), std::nullopt, nullptr);
        CHECK(s.at("you") == wire(R"({"seat":null})"));
        CHECK(s.at("spectators") == 1);
        CHECK(s.at("clock_rules") == wire(R"({"move_ms":null,"claim_ms":10000})"));
        CHECK(s.at("game").at("clock") == wire(R"({"remaining_ms":[null,null],"running":null})"));
        CHECK_FALSE(s.contains("req"));
    }

    SUBCASE("a tournament's game names its tournament")
    {
        f.tournament = "tk3x9abqz";
        CHECK(t::room_snapshot(f.view(2, room_status::waiting, 0, nullptr, at_ms(0)), seat{0}, nullptr).at("tournament") ==
              "tk3x9abqz");
    }
}

TEST_CASE("room snapshot of a game in progress")
{
    room_fixture f;
    f.seats[0] = seat_info{ann, true, std::nullopt};
    f.seats[1] = seat_info{bo, false, std::nullopt};
    game g{f.game_rules, f.clock, 0, at_ms(1000)};
    REQUIRE(g.give(0, pc(5), at_ms(1200)).ok());
    REQUIRE(g.place(1, 0, at_ms(1500)).ok());
    REQUIRE(g.give(1, pc(10), at_ms(2000)).ok());

    const json snapshot = t::room_snapshot(f.view(7, room_status::playing, 1, &g, at_ms(3000)), seat{1}, nullptr);
    CHECK(snapshot == wire(R"({"type":"room","room":"k3x9abqz","seq":7,"name":"Ann's room",
        "rules":{"squares":false,"attributes":["color","height","shape","fill"],"false_claim":"reject"},
        "clock_rules":{"move_ms":60000,"claim_ms":10000},"status":"playing",
        "players":[{"seat":0,"id":"p1","name":"Ann","connected":true},{"seat":1,"id":"p2","name":"Bo","connected":false}],
        "spectators":1,"rated":false,"tournament":null,"you":{"seat":1},
        "game":{"board":[5,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null],
                "available":[0,1,2,3,4,6,7,8,9,11,12,13,14,15],"phase":"place","turn":0,"in_hand":10,
                "clock":{"remaining_ms":[59000,60000],"running":0},"claim":{"seat":0,"remaining_ms":9000},
                "moves":[{"type":"give","seat":0,"piece":5,"t_ms":200},{"type":"place","seat":1,"square":0,"t_ms":500},
                         {"type":"give","seat":1,"piece":10,"t_ms":1000}],
                "result":null,"first":0,"id":null}})"));

    SUBCASE("after the window has run out, claim is null even before the game expires it")
    {
        const json later = t::room_snapshot(f.view(7, room_status::playing, 1, &g, at_ms(12'000)), seat{1}, nullptr);
        CHECK(later.at("game").at("claim").is_null());
        CHECK(later.at("game").at("clock").at("remaining_ms") == wire("[50000,60000]"));
    }
    SUBCASE("the placer's own give phase: piece placed, nothing in hand")
    {
        REQUIRE(g.place(0, 5, at_ms(4000)).ok());
        const json game_json =
            t::room_snapshot(f.view(8, room_status::playing, 1, &g, at_ms(4000)), seat{0}, nullptr).at("game");
        CHECK(game_json.at("phase") == "give");
        CHECK(game_json.at("turn") == 0);
        CHECK(game_json.at("in_hand").is_null());
        CHECK(game_json.at("claim").is_null());
        CHECK(game_json.at("board")[5] == 10);
        CHECK(game_json.at("available").size() == 14);
    }
}

TEST_CASE("room snapshot in the final claim window and after the draw")
{
    room_fixture f;
    f.game_rules = colour_only();
    f.seats[0] = seat_info{ann, true, std::nullopt};
    f.seats[1] = seat_info{bo, true, std::nullopt};
    game g{f.game_rules, f.clock, 0, at_ms(0)};
    fill_board(g);
    REQUIRE(g.pass(0, at_ms(3300)).ok());

    const json during = t::room_snapshot(f.view(40, room_status::playing, 0, &g, at_ms(4300)), seat{1}, nullptr);
    CHECK(during.at("rules").at("attributes") == wire(R"(["color"])"));
    const json& gj = during.at("game");
    CHECK(gj.at("board") == wire("[1,3,0,2,4,6,5,7,9,11,8,10,12,14,13,15]"));
    CHECK(gj.at("available") == wire("[]"));
    CHECK(gj.at("phase") == "give"); // the final window shows as "give" with nothing left to give
    CHECK(gj.at("turn") == 1);
    CHECK(gj.at("in_hand").is_null());
    CHECK(gj.at("claim") == wire(R"({"seat":1,"remaining_ms":9000})"));
    CHECK(gj.at("clock") == wire(R"({"remaining_ms":[59800,60000],"running":null})"));
    CHECK(gj.at("result").is_null());

    REQUIRE(g.pass(1, at_ms(5000)).ok());
    const json after = t::room_snapshot(f.view(42, room_status::finished, 0, &g, at_ms(6000)), std::nullopt, nullptr);
    CHECK(after.at("status") == "finished");
    CHECK(after.at("game").at("phase") == "finished");
    CHECK(after.at("game").at("turn").is_null());
    CHECK(after.at("game").at("claim").is_null());
    CHECK(after.at("game").at("result") == wire(R"({"result":"draw","winner":null,"reason":"board_full"})"));
    CHECK(after.at("game").at("moves").size() == 34);
    CHECK(after.at("game").at("id") == "g7mq2x9kbn4a"); // the archive id, once the game is over
}

TEST_CASE("room snapshot of a finished game won by a call")
{
    room_fixture f;
    f.seats[0] = seat_info{ann, true, std::nullopt};
    f.seats[1] = seat_info{bo, true, std::nullopt};
    game g = row_zero_game();
    REQUIRE(g.call_quarto(0, 0x000F, at_ms(900)).ok());
    const json gj = t::room_snapshot(f.view(12, room_status::finished, 0, &g, at_ms(1000)), seat{0}, "s").at("game");
    CHECK(gj.at("board") == wire("[0,2,4,6,null,null,null,null,null,null,null,null,null,null,null,null]"));
    CHECK(gj.at("available") == wire("[1,3,5,7,8,9,10,11,12,13,14,15]"));
    CHECK(gj.at("phase") == "finished");
    CHECK(gj.at("turn").is_null());
    CHECK(gj.at("in_hand").is_null());
    CHECK(gj.at("clock") == wire(R"({"remaining_ms":[59800,60000],"running":null})"));
    CHECK(gj.at("result") == wire(R"({"result":"win","winner":0,"reason":"quarto","line":[0,1,2,3]})"));
    CHECK(gj.at("first") == 0);
    CHECK(gj.at("id") == "g7mq2x9kbn4a");
}
