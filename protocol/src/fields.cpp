#include "quarto/protocol/fields.hpp"

namespace quarto::protocol::fields {

void write_rules(json_text& t, const rules& r)
{
    t.lit("{\"squares\":").boolean(r.squares).lit(",\"attributes\":[");
    bool first = true;
    for (attribute a : all_attributes) {
        if (!r.attributes.contains(a)) continue;
        if (!first) t.put(',');
        first = false;
        switch (a) {
        case attribute::color: t.lit("\"color\""); break;
        case attribute::height: t.lit("\"height\""); break;
        case attribute::shape: t.lit("\"shape\""); break;
        case attribute::fill: t.lit("\"fill\""); break;
        }
    }
    t.lit("],\"false_claim\":");
    if (r.false_claim == false_claim_policy::lose) t.lit("\"lose\"}");
    else t.lit("\"reject\"}");
}

void write_clock_settings(json_text& t, const clock_settings& c)
{
    t.lit("{\"move_ms\":");
    if (c.move) t.number(c.move->count());
    else t.null();
    t.lit(",\"claim_ms\":").number(c.claim.count()).put('}');
}

void write_clock(json_text& t, const game& g, instant now)
{
    const move_clock& c = g.moves_clock();
    t.lit("{\"remaining_ms\":[");
    for (seat s = 0; s < 2; ++s) {
        if (s) t.put(',');
        if (const auto left = c.remaining(s, now)) t.number(left->count());
        else t.null();
    }
    t.lit("],\"running\":");
    if (const auto mover = c.running()) t.number(*mover);
    else t.null();
    t.put('}');
}

void write_claim(json_text& t, const game& g, instant now)
{
    const auto window = g.claim();
    if (!window || !window->open_at(now)) {
        t.null();
        return;
    }
    t.lit("{\"seat\":").number(window->claimant).lit(",\"remaining_ms\":").number((window->deadline - now).count());
    t.put('}');
}

void write_line(json_text& t, square_mask line)
{
    t.put('[');
    bool first = true;
    for (square s = 0; s < board_squares; ++s) {
        if (!(line & bit(s))) continue;
        if (!first) t.put(',');
        first = false;
        t.number(s);
    }
    t.put(']');
}

void write_result_members(json_text& t, const game_result& r)
{
    if (r.winner) t.lit("\"result\":\"win\",\"winner\":").number(*r.winner);
    else t.lit("\"result\":\"draw\",\"winner\":null");
    t.lit(",\"reason\":").str(to_string(r.reason));
    if (r.line) {
        t.lit(",\"line\":");
        write_line(t, r.line);
    }
}

void write_moves(json_text& t, std::span<const move_record> moves)
{
    t.put('[');
    bool first = true;
    for (const move_record& m : moves) {
        if (!first) t.put(',');
        first = false;
        switch (m.kind) {
        case move_kind::give: t.lit("{\"type\":\"give\",\"piece\":").number(m.value); break;
        case move_kind::place: t.lit("{\"type\":\"place\",\"square\":").number(m.value); break;
        case move_kind::call:
            t.lit("{\"type\":\"quarto\",\"line\":");
            write_line(t, m.line);
            break;
        case move_kind::pass: t.lit("{\"type\":\"pass\""); break;
        case move_kind::resign: t.lit("{\"type\":\"resign\""); break;
        }
        t.lit(",\"seat\":").number(m.by).lit(",\"t_ms\":").number(m.at_ms).put('}');
    }
    t.put(']');
}

void write_player(json_text& t, const model::player_info& p)
{
    t.lit("{\"id\":").str(p.id).lit(",\"name\":").str(p.name);
    if (p.rating) t.lit(",\"rating\":").number(p.rating->points).lit(",\"provisional\":").boolean(p.rating->provisional);
    t.put('}');
}

void write_score(json_text& t, const model::room_score& s)
{
    t.lit("{\"wins\":[").number(s.wins[0]).put(',').number(s.wins[1]).lit("],\"draws\":").number(s.draws).put('}');
}

} // namespace quarto::protocol::fields
