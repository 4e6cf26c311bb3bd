// The stored tournament decoder on any archive row. The server reads the row's text as JSON
// and hands its "tournament" member to read_stored_tournament (app::restore); a damaged row
// must come back as nullopt, never as a crash or a record that later code indexes out of.
// What it accepts must be in range, must hold the numbers the document holds (not a number
// narrowed into range), must survive the writer and reader again unchanged, and must go through
// what the server does with it next: standings and the snapshot.
#include <cstdint>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "quarto/core/tournament/standings.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "quarto/protocol/stored_tournament.hpp"

using namespace quarto;
using namespace quarto::model;
using namespace quarto::protocol;
using nlohmann::json;

namespace {

void check_ranges(const tournament_record& t)
{
    const int players = static_cast<int>(t.players.size());
    const auto player = [&](int i) { return i >= 0 && i < players; };
    FUZZ_CHECK(players <= max_tournament_players && !t.id.empty() && t.id.size() <= 64);
    FUZZ_CHECK(t.settings.games_per_pairing == 1 || t.settings.games_per_pairing == 2);
    FUZZ_CHECK(t.settings.round_pause_seconds >= 0 && t.settings.round_pause_seconds <= max_round_pause_seconds);
    for (std::size_t r = 0; r < t.rounds.size(); ++r) {
        FUZZ_CHECK(t.rounds[r].number == static_cast<int>(r) + 1);
        // Only the last round waits, with no game begun (the server opens its rooms at its start).
        if (t.rounds[r].starts_at_ms) {
            FUZZ_CHECK(r + 1 == t.rounds.size() && *t.rounds[r].starts_at_ms >= 0);
            for (const tournament_pairing& p : t.rounds[r].pairings)
                for (const tournament_game& g : p.games) FUZZ_CHECK(g.finished && g.room.empty());
        }
        for (const tournament_pairing& p : t.rounds[r].pairings) {
            FUZZ_CHECK(player(p.first) && (!p.second || player(*p.second)));
            FUZZ_CHECK(p.games.size() <= static_cast<std::size_t>(t.settings.games_per_pairing));
            for (const tournament_game& g : p.games)
                FUZZ_CHECK((g.first == 0 || g.first == 1) && (!g.winner || *g.winner == 0 || *g.winner == 1));
        }
    }
}

// As the server's tournament::outcomes() (server/tournaments) turns a record into games.
std::vector<tournament::game_outcome> outcomes(const tournament_record& t)
{
    std::vector<tournament::game_outcome> games;
    for (const auto& round : t.rounds)
        for (const auto& p : round.pairings) {
            if (!p.second) {
                for (int i = 0; i < t.settings.games_per_pairing; ++i)
                    games.push_back({round.number, p.first, std::nullopt, 2, 0});
                continue;
            }
            for (const auto& g : p.games)
                if (g.finished) {
                    const int first = !g.winner ? 1 : *g.winner == 0 ? 2 : 0;
                    games.push_back({round.number, p.first, p.second, first, 2 - first});
                }
        }
    return games;
}

// Each number the writer writes back stands in the document as the same number: 4294967296
// read as 0, or 1.5 as 1, would pass every range check while meaning something else. (Where
// the document has no such member, e.g. a default of the rules, there is nothing to compare.)
void check_numbers_kept(const json& document, const json& stored)
{
    const json leaves = stored.flatten(); // named: items() of a temporary would dangle
    for (const auto& [where, value] : leaves.items()) {
        if (!value.is_number()) continue;
        const json::json_pointer pointer{where};
        if (document.contains(pointer)) FUZZ_CHECK(document.at(pointer) == value);
    }
}

void use(const json& document, const tournament_record& t)
{
    check_ranges(t);
    const json stored = stored_tournament(t);
    check_numbers_kept(document, stored);
    const auto again = read_stored_tournament(stored);
    FUZZ_CHECK(again.has_value() && stored_tournament(*again) == stored);

    const auto system = t.settings.format == tournament_format::swiss ? tournament::tiebreak_system::swiss
                                                                      : tournament::tiebreak_system::round_robin;
    const auto table = tournament::compute_standings(static_cast<int>(t.players.size()), outcomes(t), system);
    FUZZ_CHECK(!tournament_snapshot(t, 1, table, nullptr).empty());
    for (const auto& round : t.rounds)
        for (const auto& p : round.pairings) {
            const auto points = pairing_half_points(p, t.settings.games_per_pairing);
            FUZZ_CHECK(points[0] >= 0 && points[1] >= 0);
            (void)pairing_complete(p, t.settings.games_per_pairing);
        }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    json row = json::parse(std::string_view{reinterpret_cast<const char*>(data), size}, nullptr, false);
    if (row.is_discarded()) return 0;
    // The row's "tournament" member as the server reads it, and the document itself, so that
    // the fuzzer need not find the wrapper to reach the decoder.
    if (row.is_object() && row.contains("tournament"))
        if (const auto t = read_stored_tournament(row["tournament"])) use(row["tournament"], *t);
    if (const auto t = read_stored_tournament(row)) use(row, *t);
    return 0;
}
