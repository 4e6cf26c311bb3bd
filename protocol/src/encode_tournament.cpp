#include "quarto/protocol/encode_tournament.hpp"

#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/request_id.hpp"

namespace quarto::protocol {
namespace {

const std::string& player_id(const model::tournament_record& t, int index)
{
    return t.players.at(static_cast<std::size_t>(index)).id;
}

// An account's rating beside its name: "rating" and "provisional", as in a room's snapshot.
void add_rating(json& out, const model::tournament_entrant& e)
{
    if (!e.rating) return;
    out["rating"] = e.rating->points;
    out["provisional"] = e.rating->provisional;
}

json points_json(int half_points)
{
    return half_points % 2 == 0 ? json(half_points / 2) : json(half_points / 2.0);
}

} // namespace

json tournament_settings_json(const model::tournament_settings& s)
{
    return {{"rounds", s.rounds},
            {"games_per_pairing", s.games_per_pairing},
            {"rules", encode_rules(s.game_rules)},
            {"clock", encode_clock_settings(s.clock)},
            {"max_players", s.max_players},
            {"start_at_ms", s.start_at_ms ? json(*s.start_at_ms) : json(nullptr)},
            {"round_pause_seconds", s.round_pause_seconds},
            {"rated", s.rated}};
}

namespace {

json result_json(const model::tournament_record& t, const model::tournament_pairing& p, const model::tournament_game& g)
{
    const int players[2] = {p.first, p.second.value_or(p.first)};
    return {{"room", g.room.empty() ? json(nullptr) : json(g.room)},
            {"game", g.game.empty() ? json(nullptr) : json(g.game)},
            {"first", player_id(t, players[g.first])},
            {"winner", g.winner ? json(player_id(t, players[*g.winner])) : json(nullptr)},
            {"reason", g.reason}};
}

json pairing_json(const model::tournament_record& t, const model::tournament_pairing& p)
{
    json rooms = json::array();
    json results = json::array();
    for (const model::tournament_game& g : p.games) {
        if (!g.room.empty()) rooms.push_back(g.room);
        if (g.finished) results.push_back(result_json(t, p, g));
    }
    const int games = t.settings.games_per_pairing;
    json score = nullptr;
    if (model::pairing_complete(p, games)) {
        const auto half = model::pairing_half_points(p, games);
        score = {points_json(half[0]), points_json(half[1])};
    }
    return {{"room", rooms.empty() ? json(nullptr) : rooms.back()},
            {"rooms", std::move(rooms)},
            {"players", {player_id(t, p.first), p.second ? json(player_id(t, *p.second)) : json(nullptr)}},
            {"results", std::move(results)},
            {"score", std::move(score)}};
}

json standing_json(const model::tournament_record& t, const tournament::standing& s)
{
    json tiebreaks = {{"sonneborn_berger", s.sonneborn_berger}};
    if (t.settings.format == model::tournament_format::swiss) tiebreaks["buchholz"] = s.buchholz;
    const auto& entrant = t.players.at(static_cast<std::size_t>(s.player));
    json out{{"rank", s.rank},
             {"player", entrant.id},
             {"name", entrant.name},
             {"points", points_json(s.half_points)},
             {"tiebreaks", std::move(tiebreaks)}};
    add_rating(out, entrant);
    return out;
}

} // namespace

std::string tournament_created(const model::tournament_id& id, const json& req)
{
    return with_req(json{{"type", "tournament_created"}, {"tournament", id}}.dump(), req);
}

std::string tournament_closed(const model::tournament_id& id)
{
    return json{{"type", "tournament_closed"}, {"tournament", id}}.dump();
}

std::string tournaments_list(std::span<const json> summaries, std::size_t total, std::size_t offset, const json& req)
{
    json list = json::array();
    for (const json& s : summaries) list.push_back(s);
    return with_req(json{{"type", "tournaments"}, {"tournaments", std::move(list)}, {"total", total}, {"offset", offset}}
                        .dump(),
                    req);
}

json tournament_summary(const model::tournament_record& t)
{
    int active = 0;
    for (const auto& p : t.players) active += p.active ? 1 : 0;
    return {{"id", t.id},
            {"name", t.settings.name},
            {"format", to_string(t.settings.format)},
            {"status", to_string(t.status)},
            {"players", active}};
}

std::string tournament_snapshot(const model::tournament_record& t, std::uint64_t seq,
                                std::span<const tournament::standing> standings, const json& req)
{
    json players = json::array();
    for (const auto& p : t.players) {
        players.push_back({{"id", p.id}, {"name", p.name}, {"active", p.active}});
        if (p.bot) players.back()["bot"] = p.bot->level;
        add_rating(players.back(), p);
    }
    json rounds = json::array();
    for (const model::tournament_round& r : t.rounds) {
        json pairings = json::array();
        for (const model::tournament_pairing& p : r.pairings) pairings.push_back(pairing_json(t, p));
        rounds.push_back({{"round", r.number},
                          {"starts_at_ms", r.starts_at_ms ? json(*r.starts_at_ms) : json(nullptr)},
                          {"pairings", std::move(pairings)}});
    }
    json table = json::array();
    for (const auto& s : standings) table.push_back(standing_json(t, s));
    const json snapshot{{"type", "tournament"},
                        {"tournament", t.id},
                        {"seq", seq},
                        {"name", t.settings.name},
                        {"format", to_string(t.settings.format)},
                        {"status", to_string(t.status)},
                        {"director", t.director},
                        {"director_name", t.director_name},
                        {"settings", tournament_settings_json(t.settings)},
                        {"players", std::move(players)},
                        {"rounds", std::move(rounds)},
                        {"standings", std::move(table)}};
    return with_req(snapshot.dump(), req);
}

json tournament_pairing_event(const model::tournament_record& t, int round, const std::string& room,
                              const std::string& opponent, int game_number, bool you_start)
{
    return {{"type", "tournament_pairing"}, {"tournament", t.id},  {"round", round},       {"room", room},
            {"opponent", opponent},          {"game", game_number}, {"you_start", you_start}};
}

json tournament_round_event(const model::tournament_record& t, const model::tournament_round& round, const std::string* opponent)
{
    return {{"type", "tournament_round"},
            {"tournament", t.id},
            {"round", round.number},
            {"starts_at_ms", round.starts_at_ms ? json(*round.starts_at_ms) : json(nullptr)},
            {"opponent", opponent ? json(*opponent) : json(nullptr)}};
}

} // namespace quarto::protocol
