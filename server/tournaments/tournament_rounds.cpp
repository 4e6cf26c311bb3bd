// A tournament's rounds and games: the pairing of each round by its format, the games it opens
// (their rooms on this loop), their results, forfeits, and the standings they make.
#include "tournaments/tournament.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <spdlog/spdlog.h>

#include "quarto/core/tournament/round_robin.hpp"
#include "quarto/core/tournament/swiss.hpp"
#include "quarto/protocol/encode_tournament.hpp"

namespace quarto::server::tournaments {

using protocol::error_code;
using model::tournament_status;

namespace {

// A Swiss with no round count given plays as many rounds as it takes to find a sole winner
// among this many players (ceil log2 n), at least one.
int swiss_rounds_for(int players)
{
    int rounds = 1;
    while ((1 << rounds) < players) ++rounds;
    return rounds;
}

} // namespace

void tournament::begin()
{
    if (record_.settings.rated) seed_by_rating();
    const int n = static_cast<int>(record_.players.size());
    if (record_.settings.format == model::tournament_format::round_robin) {
        schedule_ = scoring::round_robin_schedule(n);
        record_.settings.rounds = static_cast<int>(schedule_.size());
    } else if (record_.settings.rounds == 0) {
        record_.settings.rounds = swiss_rounds_for(n);
    }
    record_.status = tournament_status::running;
    start_timer_->cancel();
    spdlog::info("tournament {}: started, {} players, {} rounds", id_, n, record_.settings.rounds);
    advance();
}

// Each entrant's rating as the tournament starts (as the server knows it now: from their last
// hello, or their last rated game here), and the field in that order, best first: pairings
// rank players by points, then by their place in the field, so the first round of a Swiss
// pairs by strength and the standings' ties are broken the same way.
void tournament::seed_by_rating()
{
    for (auto& e : record_.players)
        if (const auto known = host_.players().find_by_id(e.id); known && known->account)
            e.rating = play::shown_rating_of(*known, record_.settings.game_rules);
    std::stable_sort(record_.players.begin(), record_.players.end(), [](const auto& a, const auto& b) {
        return (a.rating ? a.rating->points : 0) > (b.rating ? b.rating->points : 0);
    });
}

int tournament::total_rounds() const { return record_.settings.rounds; }

bool tournament::round_complete() const
{
    if (record_.rounds.empty()) return true;
    const auto& pairings = record_.rounds.back().pairings;
    return std::all_of(pairings.begin(), pairings.end(), [&](const auto& p) {
        return model::pairing_complete(p, record_.settings.games_per_pairing);
    });
}

void tournament::advance()
{
    while (record_.status == tournament_status::running && !round_waiting() && round_complete()) {
        if (static_cast<int>(record_.rounds.size()) >= total_rounds()) {
            record_.status = tournament_status::finished;
            quota_.reset(); // no longer counts against its director's and address's caps
            spdlog::info("tournament {}: finished", id_);
            return;
        }
        const bool first = record_.rounds.empty(); // its start is the tournament's own
        pair_round();
        if (!first && record_.settings.round_pause_seconds > 0) return schedule_round();
        start_round();
    }
}

void tournament::pair_round()
{
    const int number = static_cast<int>(record_.rounds.size()) + 1;
    scoring::round_pairings pairings;
    if (record_.settings.format == model::tournament_format::round_robin) {
        pairings = schedule_.at(static_cast<std::size_t>(number - 1));
    } else {
        // A plain array: std::vector<bool> cannot be viewed as a span.
        const std::size_t n = record_.players.size();
        const auto active = std::make_unique<bool[]>(n);
        for (std::size_t i = 0; i < n; ++i) active[i] = record_.players[i].active;
        pairings = scoring::swiss_pairing(static_cast<int>(n), outcomes(), std::span<const bool>{active.get(), n});
    }
    model::tournament_round round{number, {}, std::nullopt};
    for (const auto& p : pairings) round.pairings.push_back({p.first, p.second, {}});
    record_.rounds.push_back(std::move(round));
    spdlog::info("tournament {}: round {} of {}", id_, number, total_rounds());
    // A removed player's boards are forfeits (round robin keeps them in the schedule); a bye is
    // scored at once.
    for (std::size_t i = 0; i < record_.players.size(); ++i)
        if (!record_.players[i].active) forfeit_games_of(static_cast<int>(i));
}

void tournament::start_round()
{
    record_.rounds.back().starts_at_ms.reset();
    auto& boards = record_.rounds.back().pairings;
    for (std::size_t i = 0; i < boards.size(); ++i) {
        const auto& p = boards[i];
        // Byes and forfeits have no game; a player removed during the pause was forfeited then.
        if (!p.second || !p.games.empty()) continue;
        const bool both_active = record_.players[static_cast<std::size_t>(p.first)].active &&
                                 record_.players[static_cast<std::size_t>(*p.second)].active;
        if (both_active) start_game(i, /*first_game=*/true);
    }
}

void tournament::start_game(std::size_t pairing_index, bool first_game)
{
    auto& pairing = record_.rounds.back().pairings.at(pairing_index);
    const int round = record_.rounds.back().number;
    // Game 1's starter by coin flip; game 2 is started by the other player.
    int starter = first_game ? static_cast<int>(flip_coin(coin_)) : 1 - pairing.games.front().first;
    const auto& a = record_.players[static_cast<std::size_t>(pairing.first)];
    const auto& b = record_.players[static_cast<std::size_t>(*pairing.second)];
    // The computer is nobody the registry knows: it is its entry.
    const auto record_of = [&](const model::tournament_entrant& e) -> std::shared_ptr<const play::player_record> {
        if (e.bot) return std::make_shared<const play::player_record>(play::player_record{{e.id, e.name}, {}});
        return host_.players().find_by_id(e.id);
    };
    const auto player_a = record_of(a);
    const auto player_b = record_of(b);
    if (!player_a || !player_b) {
        // Registered players are never forgotten, but one forgotten all the same (a record the
        // registry no longer has) can never come back to the board: they forfeit, as a removed
        // player does, rather than the round wait for ever.
        const int gone = player_a ? *pairing.second : pairing.first;
        spdlog::warn("tournament {}: {} of round {} is unknown to the server: forfeits", id_,
                     record_.players[static_cast<std::size_t>(gone)].id, round);
        record_.players[static_cast<std::size_t>(gone)].active = false;
        forfeit_games_of(gone);
        return;
    }

    play::room_settings settings;
    settings.name = record_.settings.name + " · round " + std::to_string(round) +
                    (record_.settings.games_per_pairing > 1 ? " · game " + std::to_string(pairing.games.size() + 1) : "");
    settings.game_rules = record_.settings.game_rules;
    settings.clock = record_.settings.clock;
    settings.tournament = play::tournament_link{id_, static_cast<seat>(starter), nullptr};
    settings.rated = record_.settings.rated;
    for (seat s = 0; s < 2; ++s) {
        const auto& entrant = s == 0 ? a : b;
        if (!entrant.bot) continue;
        settings.bot = entrant.bot;
        settings.bot_seat = s;
    }
    // The game may have begun before a crash that the record did not see: it goes on there.
    play::room* restored = claim_restored_room(a.id, b.id);
    if (restored && restored->tournament()->first) {
        starter = static_cast<int>(*restored->tournament()->first);
        spdlog::info("tournament {}: round {}, {} vs {} goes on in restored room {}", id_, round, a.name, b.name,
                     restored->id());
    }
    play::room& r = restored ? *restored : host_.open_game_room(std::move(settings), *player_a, *player_b);
    r.relink(id_, result_callback(r.id())); // the result comes back (deferred by the room)
    pairing.games.push_back({r.id(), {}, starter, false, std::nullopt, {}});
    spdlog::info("tournament {}: round {}, {} vs {} in room {}", id_, round, a.name, b.name, r.id());

    // Each of the two players' connections gets the pairing, then the room's snapshot.
    const int game_number = static_cast<int>(pairing.games.size());
    for (const auto& s : subscribers_) {
        const bool is_a = s.player_id == a.id;
        if (!is_a && s.player_id != b.id) continue;
        const json event = protocol::tournament_pairing_event(record_, round, r.id(), is_a ? b.id : a.id, game_number,
                                                              (starter == 0) == is_a);
        host_.send(s.client, net::make_frame(event.dump()));
        r.resume(s.client, is_a ? *player_a : *player_b);
    }
}

// After a restart without their journal the rooms of unfinished games are gone: play those
// games again.
void tournament::replay_unfinished_games()
{
    if (record_.rounds.empty()) return;
    auto& pairings = record_.rounds.back().pairings;
    for (std::size_t i = 0; i < pairings.size(); ++i) {
        auto& p = pairings[i];
        if (!p.second || p.games.empty() || p.games.back().finished) continue;
        if (host_.find_room(p.games.back().room)) continue; // still being played
        const bool first_game = p.games.size() == 1;
        p.games.pop_back();
        start_game(i, first_game);
    }
}

void tournament::on_game_over(const std::string& room_id, const game_result& result, const std::string& game_id)
{
    if (record_.rounds.empty()) return;
    auto& pairings = record_.rounds.back().pairings;
    for (std::size_t i = 0; i < pairings.size(); ++i) {
        auto& p = pairings[i];
        if (p.games.empty() || p.games.back().room != room_id) continue;
        auto& g = p.games.back();
        if (g.finished) return; // already scored (a forfeit)
        g.finished = true;
        g.game = game_id;
        g.reason = std::string{to_string(result.reason)};
        if (result.winner) g.winner = static_cast<int>(*result.winner); // seat 0 is the pairing's first player
        if (!model::pairing_complete(p, record_.settings.games_per_pairing)) start_game(i, /*first_game=*/false);
        advance();
        return changed();
    }
}

// Scores the player's unfinished games of the current round as lost, and ends the one in play.
void tournament::forfeit_games_of(int player)
{
    if (record_.rounds.empty()) return;
    for (auto& p : record_.rounds.back().pairings) {
        if (!p.second || (p.first != player && *p.second != player)) continue;
        const int loser = p.first == player ? 0 : 1;
        while (!model::pairing_complete(p, record_.settings.games_per_pairing)) {
            if (p.games.empty() || p.games.back().finished) p.games.push_back({});
            auto& g = p.games.back();
            if (!g.room.empty())
                if (auto* r = host_.find_room(g.room)) r->forfeit(record_.players[static_cast<std::size_t>(player)].id);
            g.finished = true;
            g.winner = 1 - loser;
            g.reason = "forfeit";
        }
    }
}

std::vector<scoring::game_outcome> tournament::outcomes() const
{
    std::vector<scoring::game_outcome> games;
    for (const auto& round : record_.rounds) {
        for (const auto& p : round.pairings) {
            if (!p.second) {
                for (int i = 0; i < record_.settings.games_per_pairing; ++i)
                    games.push_back({round.number, p.first, std::nullopt, 2, 0});
                continue;
            }
            for (const auto& g : p.games) {
                if (!g.finished) continue;
                const int first_half_points = !g.winner ? 1 : *g.winner == 0 ? 2 : 0;
                games.push_back({round.number, p.first, p.second, first_half_points, 2 - first_half_points});
            }
        }
    }
    return games;
}

std::vector<scoring::standing> tournament::standings() const
{
    const auto system = record_.settings.format == model::tournament_format::swiss ? scoring::tiebreak_system::swiss
                                                                                      : scoring::tiebreak_system::round_robin;
    return scoring::compute_standings(static_cast<int>(record_.players.size()), outcomes(), system);
}

int tournament::index_of(const std::string& player_id) const
{
    for (std::size_t i = 0; i < record_.players.size(); ++i)
        if (record_.players[i].id == player_id) return static_cast<int>(i);
    return -1;
}

} // namespace quarto::server::tournaments
