#include "play/room_change.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include "quarto/core/rating/glicko2.hpp"
#include "quarto/core/solver/bot.hpp"
#include "quarto/protocol/fields.hpp"
#include "quarto/protocol/json_text.hpp"
#include "quarto/protocol/parse.hpp"

namespace quarto::server::play {

namespace {

using nlohmann::json;

constexpr std::array move_kinds{move_kind::give, move_kind::place, move_kind::call, move_kind::pass, move_kind::resign};

// Splits off the next word (up to a space); the rest stays in `line`.
std::string_view word(std::string_view& line)
{
    const auto end = line.find(' ');
    const std::string_view w = line.substr(0, end);
    line = end == std::string_view::npos ? std::string_view{} : line.substr(end + 1);
    return w;
}

template <class T>
std::optional<T> number(std::string_view w)
{
    T value{};
    const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (error != std::errc{} || end != w.data() + w.size() || w.empty()) return std::nullopt;
    return value;
}

std::optional<seat> seat_word(std::string_view w)
{
    const auto s = number<int>(w);
    if (!s || (*s != 0 && *s != 1)) return std::nullopt;
    return static_cast<seat>(*s);
}

// A double as the shortest text that reads back as the same value.
void real(protocol::json_text& t, double v)
{
    char digits[32];
    const auto end = std::to_chars(std::begin(digits), std::end(digits), v).ptr;
    t.raw({digits, static_cast<std::size_t>(end - digits)});
}

// Written straight into the entry (a summary is written at every game's start), as JSON that
// read_summary reads.
void write_summary(std::string& out, const change::summary& s)
{
    protocol::json_text t{out};
    t.lit("{\"name\":").str(s.name).lit(",\"rules\":");
    protocol::fields::write_rules(t, s.game_rules);
    t.lit(",\"clock\":");
    protocol::fields::write_clock_settings(t, s.clock);
    t.lit(",\"private\":").boolean(s.is_private).lit(",\"seats\":[");
    for (std::size_t i = 0; i < s.seats.size(); ++i) {
        if (i > 0) t.put(',');
        if (const auto& p = s.seats[i]) {
            t.lit("{\"id\":").str(p->info.id).lit(",\"name\":").str(p->info.name);
            t.lit(",\"token_hash\":").str(p->token_hash);
            if (const auto& shown = p->info.rating)
                t.lit(",\"rating\":{\"points\":").number(shown->points).lit(",\"provisional\":").boolean(shown->provisional).put('}');
            if (const auto& g = p->rating) {
                t.lit(",\"glicko\":{\"r\":");
                real(t, g->rating);
                t.lit(",\"d\":");
                real(t, g->deviation);
                t.lit(",\"v\":");
                real(t, g->volatility);
                t.lit(",\"g\":").number(g->games).lit(",\"t\":").number(g->last_game_ms).put('}');
            }
            t.put('}');
        } else {
            t.null();
        }
    }
    t.lit("],\"seq\":").number(s.seq).lit(",\"score\":");
    protocol::fields::write_score(t, s.score);
    if (s.tournament) {
        t.lit(",\"tournament\":{\"id\":").str(*s.tournament).lit(",\"first\":");
        if (s.tournament_first) t.number(*s.tournament_first);
        else t.null();
        t.put('}');
    }
    if (s.rated) t.lit(",\"rated\":true");
    if (s.bot) {
        t.lit(",\"bot\":{\"level\":").number(s.bot->level).lit(",\"delay_ms\":").number(s.bot->delay_ms);
        t.lit(",\"seat\":").number(s.bot_seat).put('}');
    }
    t.put('}');
}

// A JSON integer in [low, high], or nullopt: a float or a number out of range is damage, never
// read as another number (get<int>() of 1e300 is undefined, of 4294967297 is 1).
std::optional<std::int64_t> integer_in(const json& value, std::int64_t low, std::int64_t high)
{
    if (!value.is_number_integer()) return std::nullopt;
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(high)) return std::nullopt;
    const auto n = value.get<std::int64_t>();
    if (n < low || n > high) return std::nullopt;
    return n;
}

std::optional<change::summary> read_summary(std::string_view text)
{
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return std::nullopt;
    try {
        change::summary s;
        s.name = j.at("name").get<std::string>();
        const auto r = protocol::read_rules(j.at("rules"));
        const auto c = protocol::read_clock_settings(j.at("clock"));
        if (!r || !c) return std::nullopt;
        s.game_rules = *r;
        s.clock = *c;
        s.is_private = j.at("private").get<bool>();
        const json& seats = j.at("seats");
        if (!seats.is_array() || seats.size() != 2) return std::nullopt;
        for (std::size_t i = 0; i < 2; ++i) {
            if (seats[i].is_null()) continue;
            const json& seat = seats[i];
            s.seats[i] = seated_player{{seat.at("id").get<std::string>(), seat.at("name").get<std::string>(), {}},
                                       seat.at("token_hash").get<std::string>(), std::nullopt};
            if (const auto shown = seat.find("rating"); shown != seat.end()) {
                const auto points = integer_in(shown->at("points"), 0, 100000);
                if (!points) return std::nullopt;
                s.seats[i]->info.rating = model::shown_rating{static_cast<int>(*points), shown->at("provisional").get<bool>()};
            }
            if (const auto g = seat.find("glicko"); g != seat.end()) {
                const auto games = integer_in(g->at("g"), 0, INT32_MAX);
                const auto last = integer_in(g->at("t"), 0, INT64_MAX);
                if (!games || !last || !g->at("r").is_number() || !g->at("d").is_number() || !g->at("v").is_number())
                    return std::nullopt;
                s.seats[i]->rating = archive::stored_rating{s.game_rules.squares ? rating::pool::advanced : rating::pool::standard,
                                                            g->at("r").get<double>(), g->at("d").get<double>(),
                                                            g->at("v").get<double>(), static_cast<int>(*games), *last};
            }
        }
        const auto seq = integer_in(j.at("seq"), 0, INT64_MAX);
        if (!seq) return std::nullopt;
        s.seq = static_cast<std::uint64_t>(*seq);
        if (const auto score = j.find("score"); score != j.end()) { // journals before it have none
            const json& wins = score->at("wins");
            const auto a = integer_in(wins.at(0), 0, INT32_MAX), b = integer_in(wins.at(1), 0, INT32_MAX);
            const auto draws = integer_in(score->at("draws"), 0, INT32_MAX);
            if (!a || !b || !draws) return std::nullopt;
            s.score = {{static_cast<int>(*a), static_cast<int>(*b)}, static_cast<int>(*draws)};
        }
        if (const auto t = j.find("tournament"); t != j.end()) {
            s.tournament = t->at("id").get<std::string>();
            const json& first = t->at("first");
            if (!first.is_null()) {
                const auto f = integer_in(first, 0, 1);
                if (!f) return std::nullopt;
                s.tournament_first = static_cast<seat>(*f);
            }
        }
        if (const auto rated = j.find("rated"); rated != j.end()) s.rated = rated->get<bool>();
        if (const auto b = j.find("bot"); b != j.end()) {
            const auto level = integer_in(b->at("level"), solver::min_bot_level, solver::max_bot_level);
            const auto delay = integer_in(b->at("delay_ms"), 0, model::max_bot_delay_ms);
            if (!level || !delay) return std::nullopt;
            s.bot = model::bot_opponent{static_cast<int>(*level), *delay};
            if (const auto at = b->find("seat"); at != b->end()) { // journals before tournaments' computers: seat 1
                const auto bot_seat = integer_in(*at, 0, 1);
                if (!bot_seat) return std::nullopt;
                s.bot_seat = static_cast<seat>(*bot_seat);
            }
        }
        return s;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

} // namespace

std::string encode(const room_change& c)
{
    std::string out;
    encode_into(out, c);
    return out;
}

void encode_into(std::string& out, const room_change& c)
{
    const auto put = [&out](std::int64_t v) {
        char digits[24];
        const auto end = std::to_chars(std::begin(digits), std::end(digits), v).ptr;
        out.append(digits, end);
    };
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, change::summary>) {
                out += "room ";
                write_summary(out, x);
            } else if constexpr (std::is_same_v<T, change::take_seat>) {
                // An account has no token: "-", as the computer.
                const std::string_view hash = x.player.token_hash.empty() ? std::string_view{"-"} : x.player.token_hash;
                if (const auto& g = x.player.rating) {
                    out += "rseat ";
                    put(x.s);
                    out += ' ';
                    put(static_cast<int>(g->pool));
                    for (const double v : {g->rating, g->deviation, g->volatility}) {
                        char digits[32];
                        out += ' ';
                        out.append(digits, std::to_chars(std::begin(digits), std::end(digits), v).ptr);
                    }
                    out += ' ';
                    put(g->games);
                    out += ' ';
                    put(g->last_game_ms);
                } else {
                    out += "seat ";
                    put(x.s);
                }
                ((((out += ' ') += hash) += ' ') += x.player.info.id) += ' ';
                out += x.player.info.name;
            } else if constexpr (std::is_same_v<T, change::leave_seat>) {
                out += "unseat ";
                put(x.s);
            } else if constexpr (std::is_same_v<T, change::start>) {
                out += "start ";
                put(x.first);
                out += ' ';
                put(x.unix_ms);
                (out += ' ') += x.game_id;
            } else if constexpr (std::is_same_v<T, change::act>) {
                (out += "act ") += to_string(x.what.kind);
                for (const std::int64_t v : {std::int64_t{x.what.by}, std::int64_t{x.what.value}, std::int64_t{x.what.line}, x.t}) {
                    out += ' ';
                    put(v);
                }
            } else if constexpr (std::is_same_v<T, change::time_passed>) {
                out += "time ";
                put(x.t);
            } else if constexpr (std::is_same_v<T, change::rematch>) {
                out += "rematch ";
                put(x.s);
            } else if constexpr (std::is_same_v<T, change::abandon>) {
                out += "abandon ";
                put(x.absent);
                out += ' ';
                put(x.t);
            } else if constexpr (std::is_same_v<T, change::rename_seat>) {
                out += "rename ";
                put(x.s);
                (out += ' ') += x.name;
            } else {
                out += "ev";
                if (x.t) {
                    out += ' ';
                    put(*x.t);
                }
            }
        },
        c);
}

std::optional<room_change> decode(std::string_view line)
{
    const std::string_view kind = word(line);
    if (kind == "room") return read_summary(line);
    if (kind == "seat" || kind == "rseat") {
        const auto s = seat_word(word(line));
        std::optional<archive::stored_rating> rated;
        if (kind == "rseat") {
            const auto pool = number<int>(word(line));
            const auto r = number<double>(word(line)), d = number<double>(word(line)), v = number<double>(word(line));
            const auto games = number<int>(word(line));
            const auto last = number<std::int64_t>(word(line));
            if (!pool || (*pool != 0 && *pool != 1) || !r || !d || !v || !games || !last) return std::nullopt;
            rated = archive::stored_rating{static_cast<rating::pool>(*pool), *r, *d, *v, *games, *last};
        }
        const std::string_view hash = word(line), id = word(line);
        if (!s || hash.empty() || id.empty() || line.empty()) return std::nullopt;
        change::take_seat taken{*s, {{std::string{id}, std::string{line}}, std::string{hash}, rated}};
        if (rated) // the rating shown beside the name, as the room showed it
            taken.player.info.rating = model::shown_rating{static_cast<int>(std::lround(rated->rating)),
                                                           rating::provisional({rated->rating, rated->deviation, rated->volatility, rated->games})};
        return taken;
    }
    if (kind == "unseat") {
        const auto s = seat_word(word(line));
        if (!s || !line.empty()) return std::nullopt;
        return change::leave_seat{*s};
    }
    if (kind == "start") {
        const auto first = seat_word(word(line));
        const auto unix_ms = number<std::int64_t>(word(line));
        if (!first || !unix_ms || line.empty()) return std::nullopt;
        return change::start{*first, *unix_ms, std::string{line}};
    }
    if (kind == "act") {
        const std::string_view name = word(line);
        const auto by = seat_word(word(line));
        const auto value = number<int>(word(line));
        const auto mask = number<unsigned>(word(line));
        const auto t = number<std::int64_t>(word(line));
        std::optional<move_kind> k;
        for (const move_kind m : move_kinds)
            if (to_string(m) == name) k = m;
        if (!k || !by || !value || *value < 0 || *value > 15 || !mask || *mask > 0xFFFF || !t || !line.empty())
            return std::nullopt;
        return change::act{{*k, *by, static_cast<std::uint8_t>(*value), static_cast<square_mask>(*mask)}, *t};
    }
    if (kind == "time") {
        const auto t = number<std::int64_t>(word(line));
        if (!t || !line.empty()) return std::nullopt;
        return change::time_passed{*t};
    }
    if (kind == "rematch") {
        const auto s = seat_word(word(line));
        if (!s || !line.empty()) return std::nullopt;
        return change::rematch{*s};
    }
    if (kind == "abandon") {
        const auto s = seat_word(word(line));
        const auto t = number<std::int64_t>(word(line));
        if (!s || !t || !line.empty()) return std::nullopt;
        return change::abandon{*s, *t};
    }
    if (kind == "rename") {
        const auto s = seat_word(word(line));
        if (!s || line.empty()) return std::nullopt;
        return change::rename_seat{*s, std::string{line}};
    }
    if (kind == "ev") {
        if (line.empty()) return change::event_only{};
        const auto t = number<std::int64_t>(word(line));
        if (!t || !line.empty()) return std::nullopt;
        return change::event_only{*t};
    }
    return std::nullopt;
}

std::optional<std::int64_t> game_time(const room_change& c)
{
    if (const auto* a = std::get_if<change::act>(&c)) return a->t;
    if (const auto* t = std::get_if<change::time_passed>(&c)) return t->t;
    if (const auto* a = std::get_if<change::abandon>(&c)) return a->t;
    if (const auto* e = std::get_if<change::event_only>(&c)) return e->t;
    if (std::holds_alternative<change::start>(c)) return 0;
    return std::nullopt;
}

} // namespace quarto::server::play
