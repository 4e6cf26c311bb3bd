#include "quarto/protocol/move_events.hpp"

#include "quarto/protocol/json_writer.hpp"

namespace quarto::protocol {
namespace {

// Room ids are 8 characters and player-facing numbers are small: one allocation holds it all.
constexpr std::size_t typical_event_size = 192;

json_writer start_event(std::string& out, std::string_view type, const event_stamp& stamp, seat by)
{
    out.reserve(typical_event_size);
    json_writer w{out};
    w.begin_object().key("type").value(type).key("room").value(stamp.room).key("seq").value(stamp.seq);
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

} // namespace

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
