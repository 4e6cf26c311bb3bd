#include "quarto/model/tournament.hpp"

namespace quarto::model {

std::string_view to_string(tournament_format f)
{
    return f == tournament_format::swiss ? "swiss" : "round_robin";
}

std::string_view to_string(tournament_status s)
{
    switch (s) {
    case tournament_status::registering: return "registering";
    case tournament_status::running: return "running";
    case tournament_status::paused: return "paused";
    case tournament_status::finished: return "finished";
    }
    return "registering";
}

std::array<int, 2> pairing_half_points(const tournament_pairing& p, int games_per_pairing)
{
    if (!p.second) return {2 * games_per_pairing, 0};
    std::array<int, 2> points{0, 0};
    for (const tournament_game& g : p.games) {
        if (!g.finished) continue;
        if (!g.winner) {
            points[0] += 1;
            points[1] += 1;
        } else {
            points[static_cast<std::size_t>(*g.winner)] += 2;
        }
    }
    return points;
}

bool pairing_complete(const tournament_pairing& p, int games_per_pairing)
{
    if (!p.second) return true;
    int finished = 0;
    for (const tournament_game& g : p.games) finished += g.finished ? 1 : 0;
    return finished >= games_per_pairing;
}

} // namespace quarto::model
