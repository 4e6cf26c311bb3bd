#include "quarto/protocol/encode.hpp"

#include <charconv>

#include "quarto/protocol/fields.hpp"
#include "quarto/protocol/json_writer.hpp"
#include "quarto/protocol/request_id.hpp"

namespace quarto::protocol {
namespace {

// A document of the settings, parsed back from the one writer of its field.
template <class Write>
json parsed(Write write)
{
    std::string text;
    {
        json_text t{text};
        write(t);
    }
    return json::parse(text);
}

// Protocol phases: "give" also covers the last call-or-pass after the 16th piece and the
// opponent's final claim window (no pieces to give, available is empty).
std::string_view wire_phase(enum phase p)
{
    switch (p) {
    case phase::give:
    case phase::final_claim: return "give";
    case phase::place: return "place";
    case phase::finished: return "finished";
    }
    return "finished";
}

void write_available(json_writer& w, piece_set available)
{
    w.begin_array();
    for (int p = 0; p < piece::count; ++p)
        if (available & (1u << p)) w.value(p);
    w.end_array();
}

void write_board(json_writer& w, const board& b)
{
    w.begin_array();
    for (square s = 0; s < board_squares; ++s) {
        if (const auto p = b.at(s)) w.value(p->code());
        else w.null();
    }
    w.end_array();
}

void write_untimed_or(json_writer& w, std::optional<milliseconds> ms)
{
    if (ms) w.value(ms->count());
    else w.null();
}

void write_tournament(json_writer& w, const room_view& room)
{
    w.key("tournament");
    if (room.tournament.empty()) w.null();
    else w.value(room.tournament);
}

json_writer start(std::string& out, std::string_view type)
{
    json_writer w{out};
    w.begin_object().key("type").value(type);
    return w;
}

std::string finish(std::string& out, json_writer& w, const json& req)
{
    if (!req.is_null()) // a string or a number, as parse.cpp accepts it
        w.key("req").raw(req_text(req));
    w.end_object();
    return std::move(out);
}

// The game part of a snapshot before the room's first game.
void write_no_game(json_writer& w, const room_view& room)
{
    w.begin_object().key("board").begin_array();
    for (int s = 0; s < board_squares; ++s) w.null();
    w.end_array().key("available");
    write_available(w, all_pieces);
    w.key("phase").value("waiting").key("turn").null().key("in_hand").null();
    w.key("clock").begin_object().key("remaining_ms").begin_array();
    write_untimed_or(w, room.clock.move);
    write_untimed_or(w, room.clock.move);
    w.end_array().key("running").null().end_object();
    w.key("claim").null().key("moves").begin_array().end_array();
    w.key("result").null().key("first").null().key("id").null().end_object();
}

void write_game(json_writer& w, const room_view& room, const game& g)
{
    const bool over = g.finished();
    w.begin_object().key("board");
    write_board(w, g.board());
    w.key("available");
    write_available(w, g.available());
    w.key("phase").value(room.status == model::room_status::waiting ? std::string_view{"waiting"} : wire_phase(g.phase()));
    w.key("turn");
    if (over) w.null();
    else w.value(g.turn());
    w.key("in_hand");
    if (const auto p = g.in_hand()) w.value(p->code());
    else w.null();
    w.key("clock").value_with([&](json_text& t) { fields::write_clock(t, g, room.now); });
    w.key("claim").value_with([&](json_text& t) { fields::write_claim(t, g, room.now); });
    w.key("moves");
    w.value_with([&](json_text& t) { fields::write_moves(t, g.moves()); });
    w.key("result");
    if (const auto r = g.result()) {
        w.value_with([&](json_text& t) {
            t.put('{');
            fields::write_result_members(t, *r);
            t.put('}');
        });
    } else {
        w.null();
    }
    w.key("first").value(g.first()).key("id");
    if (over && !room.game_id.empty()) w.value(room.game_id);
    else w.null();
    w.end_object();
}

json_writer start_event(std::string& out, std::string_view type, const event_stamp& stamp)
{
    json_writer w = start(out, type);
    w.key("room").value(stamp.room).key("seq").value(stamp.seq);
    return w;
}

std::string membership_event(std::string_view type, const event_stamp& stamp, const model::player_info& p,
                             bool as_spectator, std::optional<seat> s)
{
    std::string out;
    json_writer w = start_event(out, type, stamp);
    w.key("player");
    w.value_with([&](json_text& t) { fields::write_player(t, p); });
    w.key("as").value(as_spectator ? "spectator" : "player");
    if (s) w.key("seat").value(*s);
    w.end_object();
    return out;
}

} // namespace

json encode_rules(const rules& r)
{
    return parsed([&](json_text& t) { fields::write_rules(t, r); });
}

json encode_clock_settings(const clock_settings& c)
{
    return parsed([&](json_text& t) { fields::write_clock_settings(t, c); });
}

json encode_result(const game_result& r)
{
    return parsed([&](json_text& t) {
        t.put('{');
        fields::write_result_members(t, r);
        t.put('}');
    });
}

json encode_moves(std::span<const move_record> moves)
{
    return parsed([&](json_text& t) { fields::write_moves(t, moves); });
}

void write_pool_rating(json_text& t, const pool_rating& r)
{
    // The shortest text that reads back as the same double.
    const auto real = [&t](double v) {
        char digits[32];
        const auto end = std::to_chars(std::begin(digits), std::end(digits), v).ptr;
        t.raw({digits, static_cast<std::size_t>(end - digits)});
    };
    t.lit("{\"rating\":");
    real(r.rating);
    t.lit(",\"rd\":");
    real(r.deviation);
    t.lit(",\"volatility\":");
    real(r.volatility);
    t.lit(",\"provisional\":").boolean(r.provisional).lit(",\"games\":").number(r.games).put('}');
}

std::string welcome(const model::player_info& p, const std::string& token, const json& req, const resume_list* resuming,
                    std::span<const pool_rating> const* account)
{
    std::string out;
    json_writer w = start(out, "welcome");
    w.key("player").value(p.id).key("name").value(p.name);
    if (!token.empty()) w.key("token").value(token);
    w.key("protocol").value(protocol_version).key("account").value(account != nullptr);
    if (account) {
        w.key("ratings");
        w.value_with([&](json_text& t) {
            t.put('{');
            bool first = true;
            for (const auto& r : *account) {
                if (!first) t.put(',');
                first = false;
                t.put('"').raw(r.pool).lit("\":");
                write_pool_rating(t, r);
            }
            t.put('}');
        });
    }
    if (resuming) {
        w.key("rooms").begin_array();
        for (const auto& id : resuming->rooms) w.value(id);
        w.end_array();
        w.key("tournaments").begin_array();
        for (const auto& id : resuming->tournaments) w.value(id);
        w.end_array();
    }
    return finish(out, w, req);
}

std::string resumed_all()
{
    std::string out;
    json_writer w = start(out, "resumed_all");
    w.end_object();
    return out;
}

std::string renamed(const model::player_info& p, const json& req)
{
    std::string out;
    json_writer w = start(out, "renamed");
    w.key("player").value(p.id).key("name").value(p.name);
    return finish(out, w, req);
}

std::string pong(std::int64_t server_epoch_ms, const json& req)
{
    std::string out;
    json_writer w = start(out, "pong");
    w.key("time_ms").value(server_epoch_ms);
    return finish(out, w, req);
}

std::string error_reply(error_code code, std::string_view message, const json& req)
{
    std::string out;
    json_writer w = start(out, "error");
    w.key("code").value(to_string(code)).key("message").value(message);
    return finish(out, w, req);
}

std::string room_created(const model::room_id& id, const json& req)
{
    std::string out;
    json_writer w = start(out, "room_created");
    w.key("room").value(id);
    return finish(out, w, req);
}

std::string rooms_list(std::span<const std::string> summaries, std::size_t total, std::size_t offset, const json& req)
{
    std::string out;
    std::size_t size = 64;
    for (const auto& s : summaries) size += s.size() + 1;
    out.reserve(size);
    json_writer w = start(out, "rooms");
    w.key("rooms").begin_array();
    for (const auto& s : summaries) w.raw(s);
    w.end_array();
    w.key("total").value(total).key("offset").value(offset);
    return finish(out, w, req);
}

std::string synced(const model::room_id& id, std::uint64_t seq, const json& req)
{
    std::string out;
    json_writer w = start(out, "synced");
    w.key("room").value(id).key("seq").value(seq);
    return finish(out, w, req);
}

std::string room_closed(const model::room_id& id)
{
    std::string out;
    json_writer w = start(out, "room_closed");
    w.key("room").value(id).end_object();
    return out;
}

std::string room_summary(const room_view& room, bool is_private)
{
    std::string out;
    json_writer w{out};
    w.begin_object().key("id").value(room.id).key("name").value(room.name);
    w.key("status").value(to_string(room.status)).key("players").begin_array();
    for (const auto& s : room.seats)
        if (s) w.value(s->player.name);
    // By the names' order: an account's rating, null for a guest.
    w.end_array().key("player_ratings").begin_array();
    for (const auto& s : room.seats) {
        if (!s) continue;
        if (const auto& r = s->player.rating)
            w.begin_object().key("rating").value(r->points).key("provisional").value(r->provisional).end_object();
        else w.null();
    }
    w.end_array().key("rated").value(room.rated);
    w.key("spectators").value(room.spectators).key("rules");
    w.value_with([&](json_text& t) { fields::write_rules(t, room.game_rules); });
    w.key("clock");
    w.value_with([&](json_text& t) { fields::write_clock_settings(t, room.clock); });
    w.key("private").value(is_private);
    write_tournament(w, room);
    // Waiting with its one seated player gone: a game there would start against nobody.
    int seated = 0;
    bool away = false;
    for (const auto& s : room.seats) {
        if (!s) continue;
        ++seated;
        away = !s->connected;
    }
    w.key("host_away").value(room.status == model::room_status::waiting && seated == 1 && away);
    w.end_object();
    return out;
}

std::string room_snapshot(const room_view& room, std::optional<seat> you, const json& req)
{
    std::string out;
    out.reserve(1024);
    json_writer w = start(out, "room");
    w.key("room").value(room.id).key("seq").value(room.seq).key("name").value(room.name).key("rules");
    w.value_with([&](json_text& t) { fields::write_rules(t, room.game_rules); });
    w.key("clock_rules");
    w.value_with([&](json_text& t) { fields::write_clock_settings(t, room.clock); });
    w.key("status").value(to_string(room.status)).key("players").begin_array();
    for (seat s = 0; s < 2; ++s) {
        const auto& info = room.seats[s];
        if (!info) {
            w.null();
            continue;
        }
        w.begin_object().key("seat").value(s).key("id").value(info->player.id).key("name").value(info->player.name);
        if (const auto& r = info->player.rating)
            w.key("rating").value(r->points).key("provisional").value(r->provisional);
        w.key("connected").value(info->connected);
        if (info->claim_victory_in_ms) w.key("claim_victory_in_ms").value(*info->claim_victory_in_ms);
        w.end_object();
    }
    w.end_array().key("spectators").value(room.spectators).key("rated").value(room.rated);
    write_tournament(w, room);
    if (room.score) {
        w.key("score");
        w.value_with([&](json_text& t) { fields::write_score(t, *room.score); });
    }
    w.key("you").begin_object().key("seat");
    if (you) w.value(*you);
    else w.null();
    w.end_object().key("game");
    if (room.current) write_game(w, room, *room.current);
    else write_no_game(w, room);
    return finish(out, w, req);
}

std::string joined_event(const event_stamp& stamp, const model::player_info& p, bool as_spectator, std::optional<seat> at)
{
    return membership_event("joined", stamp, p, as_spectator, at);
}

std::string left_event(const event_stamp& stamp, const model::player_info& p, bool as_spectator, std::optional<seat> from)
{
    return membership_event("left", stamp, p, as_spectator, from);
}

std::string connection_event(const event_stamp& stamp, const model::player_info& p, bool connected,
                             std::optional<std::int64_t> claim_victory_in_ms)
{
    std::string out;
    json_writer w = start_event(out, connected ? "reconnected" : "disconnected", stamp);
    w.key("player");
    w.value_with([&](json_text& t) { fields::write_player(t, p); });
    if (claim_victory_in_ms) w.key("claim_victory_in_ms").value(*claim_victory_in_ms);
    w.end_object();
    return out;
}

std::string player_renamed_event(const event_stamp& stamp, const model::player_info& p, std::optional<seat> at)
{
    std::string out;
    json_writer w = start_event(out, "player_renamed", stamp);
    w.key("player");
    w.value_with([&](json_text& t) { fields::write_player(t, p); });
    w.key("seat");
    if (at) w.value(*at);
    else w.null();
    w.end_object();
    return out;
}

} // namespace quarto::protocol
