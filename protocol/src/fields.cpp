#include "quarto/protocol/fields.hpp"

namespace quarto::protocol::fields {

void write_rules(json_writer& w, const rules& r)
{
    w.begin_object().key("squares").value(r.squares).key("attributes").begin_array();
    for (attribute a : all_attributes) {
        if (!r.attributes.contains(a)) continue;
        switch (a) {
        case attribute::color: w.value("color"); break;
        case attribute::height: w.value("height"); break;
        case attribute::shape: w.value("shape"); break;
        case attribute::fill: w.value("fill"); break;
        }
    }
    w.end_array().key("false_claim").value(r.false_claim == false_claim_policy::lose ? "lose" : "reject");
    w.end_object();
}

void write_clock_settings(json_writer& w, const clock_settings& c)
{
    w.begin_object().key("move_ms");
    if (c.move) w.value(c.move->count());
    else w.null();
    w.key("claim_ms").value(c.claim.count()).end_object();
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

void write_result_members(json_writer& w, const game_result& r)
{
    w.key("result").value(r.winner ? "win" : "draw").key("winner");
    if (r.winner) w.value(*r.winner);
    else w.null();
    w.key("reason").value(to_string(r.reason));
    if (r.line) {
        w.key("line");
        write_line(w, r.line);
    }
}

void write_moves(json_writer& w, std::span<const move_record> moves)
{
    w.begin_array();
    for (const move_record& m : moves) {
        w.begin_object();
        switch (m.kind) {
        case move_kind::give: w.key("type").value("give").key("piece").value(m.value); break;
        case move_kind::place: w.key("type").value("place").key("square").value(m.value); break;
        case move_kind::call:
            w.key("type").value("quarto").key("line");
            write_line(w, m.line);
            break;
        case move_kind::pass: w.key("type").value("pass"); break;
        case move_kind::resign: w.key("type").value("resign"); break;
        }
        w.key("seat").value(m.by).key("t_ms").value(m.at_ms).end_object();
    }
    w.end_array();
}

void write_player(json_writer& w, const player_info& p)
{
    w.begin_object().key("id").value(p.id).key("name").value(p.name).end_object();
}

void write_req(json_writer& w, const nlohmann::json& req)
{
    if (req.is_null()) return;
    // A string or a number, as parse.cpp accepts it; dump() writes it back as JSON.
    w.key("req").raw(req.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace quarto::protocol::fields
