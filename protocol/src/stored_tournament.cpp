#include "quarto/protocol/stored_tournament.hpp"

#include <cstdint>
#include <stdexcept>

#include "quarto/core/solver/bot.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "quarto/protocol/parse.hpp"

namespace quarto::protocol {

using json = nlohmann::json;

json stored_tournament(const model::tournament_record& t)
{
    json players = json::array();
    for (const auto& p : t.players) {
        players.push_back({{"id", p.id}, {"name", p.name}, {"active", p.active}});
        if (p.bot) players.back()["bot"] = {{"level", p.bot->level}, {"delay_ms", p.bot->delay_ms}};
        if (p.rating) players.back()["rating"] = {{"points", p.rating->points}, {"provisional", p.rating->provisional}};
    }
    json rounds = json::array();
    for (const model::tournament_round& r : t.rounds) {
        json pairings = json::array();
        for (const model::tournament_pairing& p : r.pairings) {
            json games = json::array();
            for (const model::tournament_game& g : p.games)
                games.push_back({{"room", g.room},
                                 {"game", g.game},
                                 {"first", g.first},
                                 {"finished", g.finished},
                                 {"winner", g.winner ? json(*g.winner) : json(nullptr)},
                                 {"reason", g.reason}});
            pairings.push_back({{"first", p.first},
                                {"second", p.second ? json(*p.second) : json(nullptr)},
                                {"games", std::move(games)}});
        }
        rounds.push_back({{"round", r.number},
                          {"starts_at_ms", r.starts_at_ms ? json(*r.starts_at_ms) : json(nullptr)},
                          {"pairings", std::move(pairings)}});
    }
    json settings = tournament_settings_json(t.settings);
    settings["name"] = t.settings.name;
    settings["format"] = to_string(t.settings.format);
    return {{"version", 1},
            {"id", t.id},
            {"settings", std::move(settings)},
            {"director", t.director},
            {"director_name", t.director_name},
            {"status", to_string(t.status)},
            {"created_ms", t.created_ms},
            {"players", std::move(players)},
            {"rounds", std::move(rounds)}};
}


namespace {

// A JSON integer as written: a float (1.5, 1e300) or one beyond int64 is damage, never read as
// another number (tests/fuzz/findings/stored_tournament-1 and -2).
std::int64_t whole(const json& value, const char* what)
{
    if (!value.is_number_integer() ||
        (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)))
        throw std::invalid_argument{what};
    return value.get<std::int64_t>();
}

// A damaged file must not reach code that indexes by what it says: every number in range.
int within(const json& value, int low, int high, const char* what)
{
    const std::int64_t n = whole(value, what);
    if (n < low || n > high) throw std::out_of_range{what};
    return static_cast<int>(n);
}

std::optional<int> optional_seat(const json& value)
{
    return value.is_null() ? std::nullopt : std::optional<int>{within(value, 0, 1, "seat")};
}

// Ids are opaque, 1..64 bytes (as the protocol accepts them).
std::string id_text(const json& value, const char* what)
{
    std::string id = value.get<std::string>();
    if (id.empty() || id.size() > 64) throw std::invalid_argument{what};
    return id;
}

// An entrant's "bot", when it is the computer; a file from before computers has none.
std::optional<model::bot_opponent> stored_bot(const json& entrant)
{
    const auto it = entrant.find("bot");
    if (it == entrant.end() || it->is_null()) return std::nullopt;
    const std::int64_t delay = whole(it->at("delay_ms"), "bot delay");
    if (delay < 0 || delay > model::max_bot_delay_ms) throw std::out_of_range{"bot delay"};
    return model::bot_opponent{within(it->at("level"), solver::min_bot_level, solver::max_bot_level, "bot level"), delay};
}

model::tournament_format format_named(const std::string& name)
{
    if (name == "round_robin") return model::tournament_format::round_robin;
    if (name == "swiss") return model::tournament_format::swiss;
    throw std::invalid_argument{"format"};
}

model::tournament_status status_named(const std::string& name)
{
    for (auto s : {model::tournament_status::registering, model::tournament_status::running, model::tournament_status::paused,
                   model::tournament_status::finished})
        if (to_string(s) == name) return s;
    throw std::invalid_argument{"status"};
}

model::tournament_settings read_settings(const json& s)
{
    model::tournament_settings out;
    out.name = s.at("name").get<std::string>();
    out.format = format_named(s.at("format").get<std::string>());
    out.rounds = within(s.at("rounds"), 0, model::max_tournament_players, "rounds");
    out.games_per_pairing = within(s.at("games_per_pairing"), 1, 2, "games_per_pairing");
    auto r = read_rules(s.at("rules"));
    auto c = read_clock_settings(s.at("clock"), model::tournament_clock);
    if (!r || !c) throw std::invalid_argument{"rules or clock"};
    out.game_rules = *r;
    out.clock = *c;
    out.max_players = within(s.at("max_players"), model::min_tournament_players, model::max_tournament_players, "max_players");
    if (const auto& start = s.at("start_at_ms"); !start.is_null()) {
        out.start_at_ms = whole(start, "start_at_ms");
        if (*out.start_at_ms < 0) throw std::out_of_range{"start_at_ms"};
    }
    // Stored before rounds paused: the default.
    if (const auto pause = s.find("round_pause_seconds"); pause != s.end())
        out.round_pause_seconds = within(*pause, 0, model::max_round_pause_seconds, "round_pause_seconds");
    if (const auto rated = s.find("rated"); rated != s.end()) out.rated = rated->get<bool>(); // stored before ratings: casual
    return out;
}

// An entrant's rating as shown when it was stored; none for a guest (or a tournament stored
// before ratings).
std::optional<model::shown_rating> stored_rating(const json& player)
{
    const auto r = player.find("rating");
    if (r == player.end()) return std::nullopt;
    return model::shown_rating{static_cast<int>(within(r->at("points"), 0, 100000, "rating")), r->at("provisional").get<bool>()};
}

// A round waiting for its start time: only the last, and none of its games started (a forfeit
// of a removed player is scored at once, without a room). Set, or absent (stored before rounds
// paused) or null.
std::optional<std::int64_t> waiting_start(const json& round, bool last, const model::tournament_round& read)
{
    const auto at = round.find("starts_at_ms");
    if (at == round.end() || at->is_null()) return std::nullopt;
    const std::int64_t ms = whole(*at, "starts_at_ms");
    if (ms < 0 || !last) throw std::out_of_range{"starts_at_ms"};
    for (const auto& p : read.pairings)
        for (const auto& g : p.games)
            if (!g.finished || !g.room.empty()) throw std::invalid_argument{"a game of a waiting round"};
    return ms;
}

} // namespace

std::optional<model::tournament_record> read_stored_tournament(const json& stored)
{
    try {
        if (whole(stored.at("version"), "version") != 1) return std::nullopt;
        model::tournament_record t;
        t.id = id_text(stored.at("id"), "id");
        t.settings = read_settings(stored.at("settings"));
        t.director = id_text(stored.at("director"), "director");
        t.director_name = stored.at("director_name").get<std::string>();
        t.status = status_named(stored.at("status").get<std::string>());
        t.created_ms = whole(stored.at("created_ms"), "created_ms");
        for (const json& p : stored.at("players"))
            t.players.push_back({id_text(p.at("id"), "player id"), p.at("name").get<std::string>(), p.at("active").get<bool>(),
                                 stored_bot(p), stored_rating(p)});
        const auto player_count = static_cast<int>(t.players.size());
        if (player_count > model::max_tournament_players) throw std::out_of_range{"players"};
        const auto check_index = [&](const json& i) { return within(i, 0, player_count - 1, "player index"); };
        const json& rounds = stored.at("rounds");
        for (const json& r : rounds) {
            const int number = static_cast<int>(t.rounds.size()) + 1; // rounds are 1, 2, … in order
            model::tournament_round round{within(r.at("round"), number, number, "round"), {}, std::nullopt};
            for (const json& p : r.at("pairings")) {
                const auto& second = p.at("second");
                model::tournament_pairing pairing{check_index(p.at("first")),
                                           second.is_null() ? std::nullopt : std::optional<int>{check_index(second)},
                                           {}};
                const json& games = p.at("games");
                if (games.size() > static_cast<std::size_t>(t.settings.games_per_pairing)) throw std::out_of_range{"games"};
                for (const json& g : games)
                    pairing.games.push_back({g.at("room").get<std::string>(), g.at("game").get<std::string>(),
                                             within(g.at("first"), 0, 1, "first"), g.at("finished").get<bool>(),
                                             optional_seat(g.at("winner")), g.at("reason").get<std::string>()});
                round.pairings.push_back(std::move(pairing));
            }
            round.starts_at_ms = waiting_start(r, t.rounds.size() + 1 == rounds.size(), round);
            t.rounds.push_back(std::move(round));
        }
        return t;
    } catch (const std::exception&) { // json type errors, missing keys, bad names
        return std::nullopt;
    }
}

} // namespace quarto::protocol
