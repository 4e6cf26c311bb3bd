#include "quarto/protocol/encode.hpp"

namespace quarto::protocol {
namespace {

json with_req(json message, const json& req)
{
    if (!req.is_null()) message["req"] = req;
    return message;
}

json seat_or_null(std::optional<seat> s) { return s ? json(*s) : json(nullptr); }

json player_json(const player_info& p) { return {{"id", p.id}, {"name", p.name}}; }

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

json available_json(piece_set available)
{
    json list = json::array();
    for (int p = 0; p < piece::count; ++p)
        if (available & (1u << p)) list.push_back(p);
    return list;
}

json board_json(const board& b)
{
    json squares = json::array();
    for (square s = 0; s < board_squares; ++s) {
        const auto p = b.at(s);
        squares.push_back(p ? json(p->code()) : json(nullptr));
    }
    return squares;
}

json untimed_or(std::optional<milliseconds> ms) { return ms ? json(ms->count()) : json(nullptr); }

json tournament_or_null(const room_view& room)
{
    return room.tournament.empty() ? json(nullptr) : json(room.tournament);
}

} // namespace

std::string_view to_string(room_status s)
{
    switch (s) {
    case room_status::waiting: return "waiting";
    case room_status::playing: return "playing";
    case room_status::finished: return "finished";
    }
    return "waiting";
}

json encode_rules(const rules& r)
{
    json attributes = json::array();
    for (attribute a : all_attributes) {
        if (!r.attributes.contains(a)) continue;
        switch (a) {
        case attribute::color: attributes.push_back("color"); break;
        case attribute::height: attributes.push_back("height"); break;
        case attribute::shape: attributes.push_back("shape"); break;
        case attribute::fill: attributes.push_back("fill"); break;
        }
    }
    return {{"squares", r.squares},
            {"attributes", attributes},
            {"false_claim", r.false_claim == false_claim_policy::lose ? "lose" : "reject"}};
}

json encode_clock_settings(const clock_settings& c)
{
    return {{"move_ms", untimed_or(c.move)}, {"claim_ms", c.claim.count()}};
}

json encode_line(square_mask line)
{
    json squares = json::array();
    for (square s = 0; s < board_squares; ++s)
        if (line & bit(s)) squares.push_back(s);
    return squares;
}

json encode_clock(const game& g, instant now)
{
    const move_clock& c = g.moves_clock();
    return {{"remaining_ms", {untimed_or(c.remaining(0, now)), untimed_or(c.remaining(1, now))}},
            {"running", seat_or_null(c.running())}};
}

json encode_claim(const game& g, instant now)
{
    const auto window = g.claim();
    if (!window || !window->open_at(now)) return nullptr;
    return {{"seat", window->claimant}, {"remaining_ms", (window->deadline - now).count()}};
}

json encode_result(const game_result& r)
{
    json result = {{"result", r.winner ? "win" : "draw"},
                   {"winner", seat_or_null(r.winner)},
                   {"reason", to_string(r.reason)}};
    if (r.line) result["line"] = encode_line(r.line);
    return result;
}

json encode_moves(const game& g) { return encode_moves(g.moves()); }

json encode_moves(std::span<const move_record> log)
{
    json moves = json::array();
    for (const move_record& m : log) {
        json entry = {{"seat", m.by}, {"t_ms", m.at_ms}};
        switch (m.kind) {
        case move_kind::give: entry["type"] = "give"; entry["piece"] = m.value; break;
        case move_kind::place: entry["type"] = "place"; entry["square"] = m.value; break;
        case move_kind::call: entry["type"] = "quarto"; entry["line"] = encode_line(m.line); break;
        case move_kind::pass: entry["type"] = "pass"; break;
        case move_kind::resign: entry["type"] = "resign"; break;
        }
        moves.push_back(std::move(entry));
    }
    return moves;
}

json welcome(const player_info& p, const std::string& token, const json& req)
{
    return with_req({{"type", "welcome"}, {"player", p.id}, {"name", p.name}, {"token", token},
                     {"protocol", protocol_version}},
                    req);
}

json pong(std::int64_t server_epoch_ms, const json& req)
{
    return with_req({{"type", "pong"}, {"time_ms", server_epoch_ms}}, req);
}

json error_reply(error_code code, std::string_view message, const json& req)
{
    return with_req({{"type", "error"}, {"code", to_string(code)}, {"message", message}}, req);
}

json room_created(const room_id& id, const json& req)
{
    return with_req({{"type", "room_created"}, {"room", id}}, req);
}

json rooms_list(std::span<const json> summaries, const json& req)
{
    json list = json::array();
    for (const json& s : summaries) list.push_back(s);
    return with_req({{"type", "rooms"}, {"rooms", std::move(list)}}, req);
}

json synced(const room_id& id, std::uint64_t seq, const json& req)
{
    return with_req({{"type", "synced"}, {"room", id}, {"seq", seq}}, req);
}

json room_closed(const room_id& id) { return {{"type", "room_closed"}, {"room", id}}; }

json room_summary(const room_view& room, bool is_private)
{
    json players = json::array();
    for (const auto& s : room.seats)
        if (s) players.push_back(s->player.name);
    return {{"id", room.id},
            {"name", room.name},
            {"status", to_string(room.status)},
            {"players", players},
            {"spectators", room.spectators},
            {"rules", encode_rules(room.game_rules)},
            {"clock", encode_clock_settings(room.clock)},
            {"private", is_private},
            {"tournament", tournament_or_null(room)}};
}

json room_snapshot(const room_view& room, std::optional<seat> you, const json& req)
{
    json players = json::array();
    for (seat s = 0; s < 2; ++s) {
        const auto& info = room.seats[s];
        if (!info) {
            players.push_back(nullptr);
            continue;
        }
        players.push_back({{"seat", s}, {"id", info->player.id}, {"name", info->player.name},
                           {"connected", info->connected}});
    }

    json game_json;
    const game* g = room.current;
    if (!g) {
        const json idle = untimed_or(room.clock.move);
        game_json = {{"board", json::array()}, {"available", available_json(all_pieces)},
                     {"phase", "waiting"}, {"turn", nullptr}, {"in_hand", nullptr},
                     {"clock", {{"remaining_ms", {idle, idle}}, {"running", nullptr}}},
                     {"claim", nullptr}, {"moves", json::array()}, {"result", nullptr}, {"first", nullptr}, {"id", nullptr}};
        for (int s = 0; s < board_squares; ++s) game_json["board"].push_back(nullptr);
    } else {
        const bool over = g->finished();
        game_json = {{"board", board_json(g->board())},
                     {"available", available_json(g->available())},
                     {"phase", room.status == room_status::waiting ? "waiting" : wire_phase(g->phase())},
                     {"turn", over ? json(nullptr) : json(g->turn())},
                     {"in_hand", g->in_hand() ? json(g->in_hand()->code()) : json(nullptr)},
                     {"clock", encode_clock(*g, room.now)},
                     {"claim", encode_claim(*g, room.now)},
                     {"moves", encode_moves(*g)},
                     {"result", g->result() ? encode_result(*g->result()) : json(nullptr)},
                     {"first", g->first()},
                     {"id", over && !room.game_id.empty() ? json(room.game_id) : json(nullptr)}};
    }
    return with_req({{"type", "room"},
                     {"room", room.id},
                     {"seq", room.seq},
                     {"name", room.name},
                     {"rules", encode_rules(room.game_rules)},
                     {"clock_rules", encode_clock_settings(room.clock)},
                     {"status", to_string(room.status)},
                     {"players", players},
                     {"spectators", room.spectators},
                     {"tournament", tournament_or_null(room)},
                     {"you", {{"seat", seat_or_null(you)}}},
                     {"game", game_json}},
                    req);
}

json joined_event(const player_info& p, bool as_spectator, std::optional<seat> at)
{
    json event = {{"type", "joined"}, {"player", player_json(p)}, {"as", as_spectator ? "spectator" : "player"}};
    if (at) event["seat"] = *at;
    return event;
}

json left_event(const player_info& p, bool as_spectator, std::optional<seat> from)
{
    json event = {{"type", "left"}, {"player", player_json(p)}, {"as", as_spectator ? "spectator" : "player"}};
    if (from) event["seat"] = *from;
    return event;
}

json connection_event(const player_info& p, bool connected)
{
    return {{"type", connected ? "reconnected" : "disconnected"}, {"player", player_json(p)}};
}

} // namespace quarto::protocol
