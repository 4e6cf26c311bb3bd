#include "quarto/protocol/game_events.hpp"

#include "quarto/protocol/fields.hpp"
#include "quarto/protocol/json_text.hpp"

namespace quarto::protocol {
namespace {

// {"type":TYPE,"room":ROOM,"seq":SEQ  (the object left open). `type_and_room` is the literal
// {"type":"TYPE","room":
template <std::size_t N>
json_text start_event(std::string& out, const char (&type_and_room)[N], const event_stamp& stamp)
{
    json_text t{out};
    t.lit(type_and_room).str(stamp.room).lit(",\"seq\":").number(stamp.seq);
    return t;
}

} // namespace

void game_started_event(std::string& out, const event_stamp& stamp, const game& g,
                        const std::array<model::player_info, 2>& players, instant now)
{
    json_text t = start_event(out, "{\"type\":\"game_started\",\"room\":", stamp);
    t.lit(",\"first\":").number(g.first()).lit(",\"players\":[");
    fields::write_player(t, players[0]);
    t.put(',');
    fields::write_player(t, players[1]);
    t.lit("],\"clock\":");
    fields::write_clock(t, g, now);
    t.put('}');
}

void game_over_event(std::string& out, const event_stamp& stamp, const game& g, std::string_view game_id, instant now,
                     const model::room_score* score, const std::array<rating_change, 2>* ratings)
{
    json_text t = start_event(out, "{\"type\":\"game_over\",\"room\":", stamp);
    t.lit(",\"game\":").str(game_id).put(',');
    fields::write_result_members(t, *g.result());
    t.lit(",\"clock\":");
    fields::write_clock(t, g, now);
    if (score) {
        t.lit(",\"score\":");
        fields::write_score(t, *score);
    }
    if (ratings) {
        t.lit(",\"ratings\":[");
        for (seat s = 0; s < 2; ++s) {
            const rating_change& r = (*ratings)[s];
            if (s > 0) t.put(',');
            t.lit("{\"seat\":").number(s).lit(",\"before\":").number(r.before).lit(",\"after\":").number(r.after);
            t.lit(",\"rd\":").number(r.deviation).lit(",\"provisional\":").boolean(r.provisional).put('}');
        }
        t.put(']');
    }
    t.put('}');
}

void rematch_requested_event(std::string& out, const event_stamp& stamp, seat by)
{
    json_text t = start_event(out, "{\"type\":\"rematch_requested\",\"room\":", stamp);
    t.lit(",\"seat\":").number(by).put('}');
}

void given_event(std::string& out, const event_stamp& stamp, const game& g, seat by, piece p, instant now)
{
    json_text t = start_event(out, "{\"type\":\"given\",\"room\":", stamp);
    t.lit(",\"seat\":").number(by).lit(",\"piece\":").number(p.code()).lit(",\"clock\":");
    fields::write_clock(t, g, now);
    t.lit(",\"claim\":");
    fields::write_claim(t, g, now);
    t.put('}');
}

void placed_event(std::string& out, const event_stamp& stamp, const game& g, seat by, square s, piece p, instant now)
{
    json_text t = start_event(out, "{\"type\":\"placed\",\"room\":", stamp);
    t.lit(",\"seat\":").number(by).lit(",\"square\":").number(s).lit(",\"piece\":").number(p.code());
    t.lit(",\"clock\":");
    fields::write_clock(t, g, now);
    t.put('}');
}

void passed_event(std::string& out, const event_stamp& stamp, const game& g, seat by, instant now)
{
    json_text t = start_event(out, "{\"type\":\"passed\",\"room\":", stamp);
    t.lit(",\"seat\":").number(by).lit(",\"clock\":");
    fields::write_clock(t, g, now);
    t.lit(",\"claim\":");
    fields::write_claim(t, g, now);
    t.put('}');
}

void resumed_event(std::string& out, const event_stamp& stamp, model::room_status status, const game* g, instant now)
{
    json_text t = start_event(out, "{\"type\":\"resumed\",\"room\":", stamp);
    t.lit(",\"status\":").str(to_string(status)).lit(",\"clock\":");
    if (g) fields::write_clock(t, *g, now);
    else t.null();
    t.lit(",\"claim\":");
    if (g) fields::write_claim(t, *g, now);
    else t.null();
    t.put('}');
}

} // namespace quarto::protocol
