#include "quarto/protocol/game_events.hpp"

#include "quarto/protocol/fields.hpp"
#include "quarto/protocol/json_writer.hpp"

namespace quarto::protocol {
namespace {

json_writer start_event(std::string& out, std::string_view type, const event_stamp& stamp)
{
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

} // namespace

void game_started_event(std::string& out, const event_stamp& stamp, const game& g,
                        const std::array<player_info, 2>& players, instant now)
{
    json_writer w = start_event(out, "game_started", stamp);
    w.key("first").value(g.first()).key("players").begin_array();
    for (const player_info& p : players) fields::write_player(w, p);
    w.end_array();
    fields::write_clock(w, g, now);
    w.end_object();
}

void game_over_event(std::string& out, const event_stamp& stamp, const game& g, std::string_view game_id, instant now)
{
    json_writer w = start_event(out, "game_over", stamp);
    w.key("game").value(game_id);
    fields::write_result_members(w, *g.result());
    fields::write_clock(w, g, now);
    w.end_object();
}

void rematch_requested_event(std::string& out, const event_stamp& stamp, seat by)
{
    start_event(out, "rematch_requested", stamp, by).end_object();
}

void given_event(std::string& out, const event_stamp& stamp, const game& g, seat by, piece p, instant now)
{
    json_writer w = start_event(out, "given", stamp, by);
    w.key("piece").value(p.code());
    fields::write_clock(w, g, now);
    fields::write_claim(w, g, now);
    w.end_object();
}

void placed_event(std::string& out, const event_stamp& stamp, const game& g, seat by, square s, piece p, instant now)
{
    json_writer w = start_event(out, "placed", stamp, by);
    w.key("square").value(s).key("piece").value(p.code());
    fields::write_clock(w, g, now);
    w.end_object();
}

void passed_event(std::string& out, const event_stamp& stamp, const game& g, seat by, instant now)
{
    json_writer w = start_event(out, "passed", stamp, by);
    fields::write_clock(w, g, now);
    fields::write_claim(w, g, now);
    w.end_object();
}

} // namespace quarto::protocol
