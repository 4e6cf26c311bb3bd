#include "quarto/protocol/game_events.hpp"

#include "quarto/protocol/json_writer.hpp"

namespace quarto::protocol {
namespace {

// Room ids are 8 characters and player-facing numbers are small: one allocation holds a move's
// event (game_started, with both players' names, may grow once).
constexpr std::size_t typical_event_size = 192;

json_writer start_event(std::string& out, std::string_view type, const event_stamp& stamp)
{
    out.reserve(typical_event_size);
    json_writer w{out};
    w.begin_object().key("type").value(type).key("room").value(stamp.room).key("seq").value(stamp.seq);
    return w;
}

json_writer start_event(std::string& out, std::string_view type, const event_stamp& stamp, seat by)
{
    json_writer w = start_event(out, type, stamp);
    w.key("seat").value(by);
    return w;
}

void write_clock(json_writer& w, const game& g, instant now)
{
    const move_clock& c = g.moves_clock();
    w.key("clock").begin_object().key("remaining_ms").begin_array();
    for (seat s = 0; s < 2; ++s) {
        if (const auto left = c.remaining(s, now)) w.value(left->count());
        else w.null();
    }
    w.end_array().key("running");
    if (const auto mover = c.running()) w.value(*mover);
    else w.null();
    w.end_object();
}

void write_claim(json_writer& w, const game& g, instant now)
{
    w.key("claim");
    const auto window = g.claim();
    if (!window || !window->open_at(now)) {
        w.null();
        return;
    }
    w.begin_object().key("seat").value(window->claimant).key("remaining_ms").value((window->deadline - now).count());
    w.end_object();
}

void write_line(json_writer& w, square_mask line)
{
    w.begin_array();
    for (square s = 0; s < board_squares; ++s)
        if (line & bit(s)) w.value(s);
    w.end_array();
}

} // namespace

std::string game_started_event(const event_stamp& stamp, const game& g, const std::array<player_info, 2>& players,
                               instant now)
{
    std::string out;
    json_writer w = start_event(out, "game_started", stamp);
    w.key("first").value(g.first()).key("players").begin_array();
    for (const player_info& p : players) w.begin_object().key("id").value(p.id).key("name").value(p.name).end_object();
    w.end_array();
    write_clock(w, g, now);
    w.end_object();
    return out;
}

std::string game_over_event(const event_stamp& stamp, const game& g, std::string_view game_id, instant now)
{
    const game_result r = *g.result(); // result() returns a copy
    std::string out;
    json_writer w = start_event(out, "game_over", stamp);
    w.key("game").value(game_id).key("result").value(r.winner ? "win" : "draw").key("winner");
    if (r.winner) w.value(*r.winner);
    else w.null();
    w.key("reason").value(to_string(r.reason));
    if (r.line) {
        w.key("line");
        write_line(w, r.line);
    }
    write_clock(w, g, now);
    w.end_object();
    return out;
}

std::string rematch_requested_event(const event_stamp& stamp, seat by)
{
    std::string out;
    start_event(out, "rematch_requested", stamp, by).end_object();
    return out;
}

std::string given_event(const event_stamp& stamp, const game& g, seat by, piece p, instant now)
{
    std::string out;
    json_writer w = start_event(out, "given", stamp, by);
    w.key("piece").value(p.code());
    write_clock(w, g, now);
    write_claim(w, g, now);
    w.end_object();
    return out;
}

std::string placed_event(const event_stamp& stamp, const game& g, seat by, square s, piece p, instant now)
{
    std::string out;
    json_writer w = start_event(out, "placed", stamp, by);
    w.key("square").value(s).key("piece").value(p.code());
    write_clock(w, g, now);
    w.end_object();
    return out;
}

std::string passed_event(const event_stamp& stamp, const game& g, seat by, instant now)
{
    std::string out;
    json_writer w = start_event(out, "passed", stamp, by);
    write_clock(w, g, now);
    write_claim(w, g, now);
    w.end_object();
    return out;
}

} // namespace quarto::protocol
