// The pause between rounds: a round is paired and announced the moment the one before it ends,
// and its rooms open `round_pause_seconds` later, so that no clock runs while a player reads
// the last result or is away in another tab. The start time is in the stored record: after a
// restart the round starts at that time, or at once if it has passed.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "quarto/protocol/encode_tournament.hpp"
#include "tournaments/tournament.hpp"

namespace quarto::server::tournaments {

bool tournament::round_waiting() const
{
    return !record_.rounds.empty() && record_.rounds.back().starts_at_ms.has_value();
}

void tournament::schedule_round()
{
    auto& round = record_.rounds.back();
    round.starts_at_ms = host_.unix_ms() + std::int64_t{record_.settings.round_pause_seconds} * 1000;
    arm_round_timer();
    spdlog::info("tournament {}: round {} starts in {} s", id_, round.number, record_.settings.round_pause_seconds);

    const auto tell = [&](int player, const std::string* opponent) {
        const auto& entrant = record_.players[static_cast<std::size_t>(player)];
        if (!entrant.active) return;
        notices_.emplace_back(entrant.id, net::make_frame(protocol::tournament_round_event(record_, round, opponent).dump()));
    };
    for (const auto& p : round.pairings) {
        if (!p.second) {
            tell(p.first, nullptr); // a bye
            continue;
        }
        if (model::pairing_complete(p, record_.settings.games_per_pairing)) continue; // a forfeit
        tell(p.first, &record_.players[static_cast<std::size_t>(*p.second)].id);
        tell(*p.second, &record_.players[static_cast<std::size_t>(p.first)].id);
    }
}

void tournament::arm_round_timer()
{
    if (record_.status != model::tournament_status::running || !round_waiting()) return;
    // Clamped: a stored time the wall clock has not reached by far (set back, or a damaged
    // file) holds the round no longer than the longest pause.
    const auto wait = std::clamp<std::int64_t>(*record_.rounds.back().starts_at_ms - host_.unix_ms(), 0,
                                               std::int64_t{model::max_round_pause_seconds} * 1000);
    round_timer_->set(host_.now() + milliseconds{wait});
}

void tournament::on_round_time()
{
    if (record_.status != model::tournament_status::running || !round_waiting()) return;
    // The timer counts from the loop's turn time, a little before the wall clock the start time
    // was read from: never start before the time the players were told.
    if (host_.unix_ms() < *record_.rounds.back().starts_at_ms) return arm_round_timer();
    spdlog::info("tournament {}: round {} starts", id_, record_.rounds.back().number);
    start_round();
    advance(); // a round of byes and forfeits only is over at once
    changed();
}

} // namespace quarto::server::tournaments
