#include "load_stats.hpp"

namespace quarto::load {

void load_stats::merge(const load_stats& o)
{
    moves += o.moves;
    gives += o.gives;
    places += o.places;
    games_started += o.games_started;
    games_finished += o.games_finished;
    wins_by_quarto += o.wins_by_quarto;
    draws += o.draws;
    other_endings += o.other_endings;
    messages_in += o.messages_in;
    messages_out += o.messages_out;
    spectator_events += o.spectator_events;
    seq_gaps += o.seq_gaps;
    desyncs += o.desyncs;
    unreadable += o.unreadable;
    seat_mismatches += o.seat_mismatches;
    connect_failures += o.connect_failures;
    disconnects += o.disconnects;
    reconnections += o.reconnections;
    reconnect_failures += o.reconnect_failures;
    rooms_back += o.rooms_back;
    rooms_not_back += o.rooms_not_back;
    snapshots_unasked += o.snapshots_unasked;
    duplicates_refused += o.duplicates_refused;
    resume_pause.merge(o.resume_pause);
    for (const auto& [k, v] : o.errors) errors[k] += v;
    for (const auto& [k, v] : o.closes) closes[k] += v;
    latency.merge(o.latency);
    arrival_latency.merge(o.arrival_latency);
}

} // namespace quarto::load
