// Validation is strict on what a message needs and silent on what it does not know.
#include "quarto/protocol/parse.hpp"

#include <array>
#include <functional>
#include <string_view>

#include "move_reader.hpp"
#include "quarto/core/solver/bot.hpp"
#include "quarto/protocol/request_id.hpp"

namespace quarto::protocol {
namespace {

using json = nlohmann::json;

// A field problem, raised while reading one message and turned into bad_message.
struct field_error {
    std::string message;
};

const json* find(const json& object, std::string_view key)
{
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

// "req" is echoed when it is a string or a number; null counts as absent.
bool usable_req(const json& r) { return r.is_string() || r.is_number(); }

const json& require(const json& object, std::string_view key)
{
    const json* value = find(object, key);
    if (!value) throw field_error{"missing field \"" + std::string{key} + "\""};
    return *value;
}

std::int64_t integer_in(const json& value, std::string_view key, std::int64_t low, std::int64_t high)
{
    if (!value.is_number_integer())
        throw field_error{"\"" + std::string{key} + "\" must be an integer"};
    // Too big or too small, the sender is told the range.
    const auto outside = [&] {
        return field_error{"\"" + std::string{key} + "\" must be between " + std::to_string(low) + " and " +
                           std::to_string(high)};
    };
    // Unsigned values above INT64_MAX read as negative through get<int64_t>; check the sign first.
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(high)) throw outside();
    const auto n = value.get<std::int64_t>();
    if (n < low || n > high) throw outside();
    return n;
}

std::string string_field(const json& value, std::string_view key)
{
    if (!value.is_string()) throw field_error{"\"" + std::string{key} + "\" must be a string"};
    return value.get<std::string>();
}

bool bool_field(const json& value, std::string_view key)
{
    if (!value.is_boolean()) throw field_error{"\"" + std::string{key} + "\" must be true or false"};
    return value.get<bool>();
}

model::room_id room_field(const json& object)
{
    std::string id = string_field(require(object, "room"), "room");
    if (id.empty() || id.size() > 64) throw field_error{"\"room\" must be a room id"};
    return id;
}

// Printable text without control characters; the length is counted in bytes.
std::string name_field(const json& value, std::string_view key, bool allow_empty,
                       std::size_t max_length = max_name_length)
{
    std::string text = string_field(value, key);
    const auto first = text.find_first_not_of(' ');
    text = first == std::string::npos ? std::string{} : text.substr(first, text.find_last_not_of(' ') - first + 1);
    if (text.empty() && !allow_empty) throw field_error{"\"" + std::string{key} + "\" must not be empty"};
    if (text.size() > max_length)
        throw field_error{"\"" + std::string{key} + "\" is longer than " + std::to_string(max_length) + " bytes"};
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const bool c1_control = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
        if (c < 0x20 || c == 0x7F || c1_control)
            throw field_error{"\"" + std::string{key} + "\" has a control character"};
    }
    return text;
}

rules rules_field(const json& value)
{
    if (!value.is_object()) throw field_error{"\"rules\" must be an object"};
    rules r;
    if (const json* squares = find(value, "squares")) r.squares = bool_field(*squares, "rules.squares");
    if (const json* attributes = find(value, "attributes")) {
        if (!attributes->is_array() || attributes->empty() || attributes->size() > 4)
            throw field_error{"\"rules.attributes\" must be a non-empty list of attribute names"};
        attribute_set set;
        for (const json& name : *attributes) {
            const std::string n = name.is_string() ? name.get<std::string>() : std::string{};
            std::optional<attribute> a;
            if (n == "color") a = attribute::color;
            else if (n == "height") a = attribute::height;
            else if (n == "shape") a = attribute::shape;
            else if (n == "fill") a = attribute::fill;
            if (!a) throw field_error{"\"rules.attributes\" names are color, height, shape and fill"};
            if (set.contains(*a)) throw field_error{"\"rules.attributes\" repeats \"" + n + "\""};
            set = set.with(*a);
        }
        r.attributes = set;
    }
    if (const json* policy = find(value, "false_claim")) {
        const std::string p = string_field(*policy, "rules.false_claim");
        if (p == "reject") r.false_claim = false_claim_policy::reject;
        else if (p == "lose") r.false_claim = false_claim_policy::lose;
        else throw field_error{"\"rules.false_claim\" must be \"reject\" or \"lose\""};
    }
    return r;
}

clock_settings clock_field(const json& value, clock_settings c = {})
{
    if (!value.is_object()) throw field_error{"\"clock\" must be an object"};
    if (const json* move = find(value, "move_ms")) {
        if (move->is_null()) c.move.reset();
        else c.move = milliseconds{integer_in(*move, "clock.move_ms", min_move_ms, max_move_ms)};
    }
    if (const json* claim = find(value, "claim_ms"))
        c.claim = milliseconds{integer_in(*claim, "clock.claim_ms", min_claim_ms, max_claim_ms)};
    return c;
}

square_mask line_field(const json& value)
{
    if (!value.is_array() || value.size() != 4) throw field_error{"\"line\" must be a list of 4 squares"};
    square_mask mask = 0;
    for (const json& s : value) {
        const auto sq = static_cast<square>(integer_in(s, "line", 0, 15));
        if (mask & bit(sq)) throw field_error{"\"line\" names a square twice"};
        mask = static_cast<square_mask>(mask | bit(sq));
    }
    return mask;
}

client_message read_hello(const json& m)
{
    hello h;
    if (const json* token = find(m, "token")) {
        h.token = string_field(*token, "token");
        if (h.token->empty() || h.token->size() > 128) throw field_error{"\"token\" is not a player token"};
    }
    if (const json* session = find(m, "session")) {
        h.session = string_field(*session, "session");
        if (h.session->empty() || h.session->size() > 128) throw field_error{"\"session\" is not a session id"};
    }
    if (const json* name = find(m, "name")) h.name = name_field(*name, "name", false);
    if (!h.token && !h.name && !h.session)
        throw field_error{"hello needs a \"name\" (or a \"token\" to resume, or an account's \"session\")"};
    return session_message{h};
}

// {"bot": LEVEL, "delay_ms": N}: the only opponent a room can be created with, and the
// computer a director enters in a tournament.
model::bot_opponent opponent_field(const json& value)
{
    if (!value.is_object()) throw field_error{"\"opponent\" must be an object such as {\"bot\": 3}"};
    model::bot_opponent b;
    const json* level = find(value, "bot");
    if (!level || level->is_null()) throw field_error{"\"opponent\" needs \"bot\", a level from 1 to 5"};
    b.level = static_cast<int>(integer_in(*level, "opponent.bot", solver::min_bot_level, solver::max_bot_level));
    if (const json* delay = find(value, "delay_ms"); delay && !delay->is_null())
        b.delay_ms = integer_in(*delay, "opponent.delay_ms", 0, model::max_bot_delay_ms);
    return b;
}

client_message read_create_room(const json& m)
{
    create_room c;
    if (const json* name = find(m, "name"); name && !name->is_null()) c.name = name_field(*name, "name", true);
    if (const json* r = find(m, "rules"); r && !r->is_null()) c.game_rules = rules_field(*r);
    if (const json* clock = find(m, "clock"); clock && !clock->is_null()) c.clock = clock_field(*clock);
    if (const json* p = find(m, "private"); p && !p->is_null()) c.is_private = bool_field(*p, "private");
    if (const json* o = find(m, "opponent"); o && !o->is_null()) c.opponent = opponent_field(*o);
    if (const json* r = find(m, "rated"); r && !r->is_null()) c.rated = bool_field(*r, "rated");
    return lobby_message{std::move(c)};
}

// A room message: the room id, then the action's own fields.
client_message for_room(const json& m, room_action action) { return room_message{room_field(m), std::move(action)}; }

client_message read_join(const json& m)
{
    join j;
    if (const json* as = find(m, "as")) {
        const std::string role = string_field(*as, "as");
        if (role == "spectator") j.as_spectator = true;
        else if (role != "player") throw field_error{"\"as\" must be \"player\" or \"spectator\""};
    }
    return for_room(m, j);
}

client_message read_sync(const json& m)
{
    const json& since = require(m, "since");
    return for_room(m, sync{static_cast<std::uint64_t>(integer_in(since, "since", 0, INT64_MAX))});
}

template <class Action>
client_message read_room_action(const json& m)
{
    return for_room(m, Action{});
}

std::string tournament_field(const json& object)
{
    std::string id = string_field(require(object, "tournament"), "tournament");
    if (id.empty() || id.size() > 64) throw field_error{"\"tournament\" must be a tournament id"};
    return id;
}

// Optional fields may also be null, which means "the default".
const json* optional_field(const json& object, std::string_view key)
{
    const json* value = find(object, key);
    return value && !value->is_null() ? value : nullptr;
}

client_message read_create_tournament(const json& m)
{
    model::tournament_settings t;
    t.name = name_field(require(m, "name"), "name", false, model::max_tournament_name_length);
    const std::string format = string_field(require(m, "format"), "format");
    if (format == "round_robin") t.format = model::tournament_format::round_robin;
    else if (format == "swiss") t.format = model::tournament_format::swiss;
    else throw field_error{"\"format\" must be \"round_robin\" or \"swiss\""};
    // A round robin has as many rounds as its field needs: "rounds" is for Swiss only.
    if (const json* rounds = optional_field(m, "rounds"); rounds && t.format == model::tournament_format::swiss)
        t.rounds = static_cast<int>(integer_in(*rounds, "rounds", 1, model::max_swiss_rounds));
    if (const json* games = optional_field(m, "games_per_pairing"))
        t.games_per_pairing = static_cast<int>(integer_in(*games, "games_per_pairing", 1, 2));
    if (const json* r = optional_field(m, "rules")) t.game_rules = rules_field(*r);
    if (const json* clock = optional_field(m, "clock")) t.clock = clock_field(*clock, model::tournament_clock);
    if (const json* most = optional_field(m, "max_players"))
        t.max_players = static_cast<int>(integer_in(*most, "max_players", model::min_tournament_players, model::max_tournament_players));
    if (const json* start = optional_field(m, "start_at_ms"))
        t.start_at_ms = integer_in(*start, "start_at_ms", 0, INT64_MAX);
    if (const json* pause = optional_field(m, "round_pause_seconds"))
        t.round_pause_seconds = static_cast<int>(integer_in(*pause, "round_pause_seconds", 0, model::max_round_pause_seconds));
    if (const json* rated = optional_field(m, "rated")) t.rated = bool_field(*rated, "rated");
    return lobby_message{create_tournament{std::move(t)}};
}

client_message read_remove_player(const json& m)
{
    std::string player = string_field(require(m, "player"), "player");
    if (player.empty() || player.size() > 64) throw field_error{"\"player\" must be a player id"};
    return tournament_message{tournament_field(m), remove_player{std::move(player)}};
}

client_message read_add_bot(const json& m)
{
    return tournament_message{tournament_field(m), add_bot{opponent_field(require(m, "opponent"))}};
}

template <class Action>
client_message read_tournament_action(const json& m)
{
    return tournament_message{tournament_field(m), Action{}};
}

page_request page_field(const json& m)
{
    page_request p;
    if (const json* offset = optional_field(m, "offset")) p.offset = integer_in(*offset, "offset", 0, INT64_MAX);
    if (const json* limit = optional_field(m, "limit"))
        p.limit = static_cast<int>(integer_in(*limit, "limit", 1, max_page_size));
    return p;
}

using reader = client_message (*)(const json&);

struct message_kind {
    std::string_view type;
    reader read;
};

const std::array<message_kind, 26> message_kinds{{
    {"hello", read_hello},
    {"ping", [](const json&) -> client_message { return session_message{ping{}}; }},
    {"rename", [](const json& m) -> client_message {
         return session_message{rename{name_field(require(m, "name"), "name", false)}};
     }},
    {"list_rooms", [](const json& m) -> client_message { return lobby_message{list_rooms{page_field(m)}}; }},
    {"create_room", read_create_room},
    {"join", read_join},
    {"leave", read_room_action<leave>},
    {"sync", read_sync},
    {"give", [](const json& m) -> client_message {
         return for_room(m, give{piece{static_cast<std::uint8_t>(integer_in(require(m, "piece"), "piece", 0, 15))}});
     }},
    {"place", [](const json& m) -> client_message {
         return for_room(m, place{static_cast<square>(integer_in(require(m, "square"), "square", 0, 15))});
     }},
    {"quarto", [](const json& m) -> client_message { return for_room(m, call_quarto{line_field(require(m, "line"))}); }},
    {"pass", read_room_action<pass>},
    {"resign", read_room_action<resign>},
    {"rematch", read_room_action<rematch>},
    {"claim_victory", read_room_action<claim_victory>},
    {"create_tournament", read_create_tournament},
    {"list_tournaments",
     [](const json& m) -> client_message { return lobby_message{list_tournaments{page_field(m)}}; }},
    {"join_tournament", read_tournament_action<join_tournament>},
    {"withdraw_tournament", read_tournament_action<withdraw_tournament>},
    {"start_tournament", read_tournament_action<start_tournament>},
    {"pause_tournament", read_tournament_action<pause_tournament>},
    {"resume_tournament", read_tournament_action<resume_tournament>},
    {"remove_player", read_remove_player},
    {"add_bot", read_add_bot},
    {"watch_tournament", read_tournament_action<watch_tournament>},
    {"unwatch_tournament", read_tournament_action<unwatch_tournament>},
}};

} // namespace

std::variant<parsed_message, parse_error> parse_client_message(std::string_view text)
{
    // Built in place and returned as is: a move costs no copy of the message.
    std::variant<parsed_message, parse_error> result{std::in_place_index<0>};
    if (detail::read_plain_move(text, std::get<0>(result))) return result;
    json m = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (m.is_discarded()) return parse_error{error_code::bad_json, "The message is not valid JSON.", nullptr, {}};
    if (!m.is_object()) return parse_error{error_code::bad_message, "A message must be a JSON object.", nullptr, {}};

    json req = nullptr;
    if (const json* r = find(m, "req"); r && !r->is_null()) {
        if (!usable_req(*r))
            return parse_error{error_code::bad_message, "\"req\" must be a string or a number.", nullptr, {}};
        req = exact_req(*r, text);
    }
    const json* type = find(m, "type");
    if (!type || !type->is_string())
        return parse_error{error_code::bad_message, "A message needs a \"type\" string.", req, {}};

    const auto& name = type->get_ref<const std::string&>();
    for (const message_kind& kind : message_kinds) {
        if (kind.type != name) continue;
        try {
            return parsed_message{kind.read(m), std::move(req)};
        } catch (const field_error& e) {
            return parse_error{error_code::bad_message, e.message, std::move(req), name};
        }
    }
    return parse_error{error_code::unknown_type, "Unknown message type \"" + name + "\".", std::move(req), name};
}

std::optional<rules> read_rules(const nlohmann::json& value)
{
    try {
        return rules_field(value);
    } catch (const field_error&) {
        return std::nullopt;
    }
}

std::optional<std::string> read_player_name(const nlohmann::json& value, std::string& problem)
{
    try {
        return name_field(value, "name", false);
    } catch (const field_error& e) {
        problem = e.message;
        return std::nullopt;
    }
}

std::optional<clock_settings> read_clock_settings(const nlohmann::json& value, clock_settings defaults)
{
    try {
        return clock_field(value, defaults);
    } catch (const field_error&) {
        return std::nullopt;
    }
}

nlohmann::json request_id_of(std::string_view text)
{
    const json m = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!m.is_object()) return nullptr;
    const json* r = find(m, "req");
    return r && usable_req(*r) ? exact_req(*r, text) : json(nullptr);
}

} // namespace quarto::protocol
