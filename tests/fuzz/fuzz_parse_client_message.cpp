// parse_client_message on any WebSocket text frame: beyond not crashing, what it accepts must
// hold the promise of messages.hpp ("every field present, of the right type and in range, so
// the server never re-checks them"), and what it refuses must be sayable in an error reply.
#include <bit>
#include <cstdint>
#include <string_view>

#include "check.hpp"
#include "quarto/core/solver/bot.hpp"
#include "quarto/protocol/parse.hpp"
#include "quarto/protocol/request_id.hpp"

using namespace quarto;
using namespace quarto::model;
using namespace quarto::protocol;

namespace {

bool id_ok(const std::string& id) { return !id.empty() && id.size() <= 64; }

// The server echoes names and messages into JSON: dump() throws on invalid UTF-8.
bool dumpable(const std::string& text)
{
    try {
        (void)nlohmann::json(text).dump();
        return true;
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}

bool name_ok(const std::string& name, std::size_t longest)
{
    return name.size() <= longest && dumpable(name) && (name.empty() || (name.front() != ' ' && name.back() != ' '));
}

bool clock_ok(const clock_settings& c)
{
    return (!c.move || (c.move->count() >= min_move_ms && c.move->count() <= max_move_ms)) &&
           c.claim.count() >= min_claim_ms && c.claim.count() <= max_claim_ms;
}

void check_room(const room_message& m)
{
    FUZZ_CHECK(id_ok(m.room));
    if (const auto* g = std::get_if<give>(&m.action)) FUZZ_CHECK(g->what.code() <= 15);
    if (const auto* p = std::get_if<place>(&m.action)) FUZZ_CHECK(p->where <= 15);
    if (const auto* q = std::get_if<call_quarto>(&m.action)) FUZZ_CHECK(std::popcount(q->line) == 4);
}

void check_message(const client_message& message)
{
    if (const auto* s = std::get_if<session_message>(&message)) {
        if (const auto* h = std::get_if<hello>(s)) {
            FUZZ_CHECK(h->name || h->token);
            if (h->name) FUZZ_CHECK(!h->name->empty() && name_ok(*h->name, max_name_length));
            if (h->token) FUZZ_CHECK(!h->token->empty() && h->token->size() <= 128);
        }
        if (const auto* r = std::get_if<quarto::protocol::rename>(s)) FUZZ_CHECK(!r->name.empty() && name_ok(r->name, max_name_length));
    } else if (const auto* l = std::get_if<lobby_message>(&message)) {
        if (const auto* c = std::get_if<create_room>(l))
            FUZZ_CHECK(name_ok(c->name, max_name_length) && clock_ok(c->clock));
        if (const auto* c = std::get_if<create_tournament>(l)) {
            const tournament_settings& t = c->settings;
            FUZZ_CHECK(!t.name.empty() && name_ok(t.name, max_tournament_name_length) && clock_ok(t.clock));
            FUZZ_CHECK(t.rounds >= 0 && t.rounds <= max_swiss_rounds);
            FUZZ_CHECK(t.games_per_pairing == 1 || t.games_per_pairing == 2);
            FUZZ_CHECK(t.max_players >= min_tournament_players && t.max_players <= max_tournament_players);
            FUZZ_CHECK(!t.start_at_ms || *t.start_at_ms >= 0);
            FUZZ_CHECK(t.round_pause_seconds >= 0 && t.round_pause_seconds <= max_round_pause_seconds);
        }
    } else if (const auto* r = std::get_if<room_message>(&message)) {
        check_room(*r);
    } else if (const auto* t = std::get_if<tournament_message>(&message)) {
        FUZZ_CHECK(id_ok(t->tournament));
        if (const auto* p = std::get_if<remove_player>(&t->action)) FUZZ_CHECK(id_ok(p->player));
        if (const auto* b = std::get_if<add_bot>(&t->action))
            FUZZ_CHECK(b->opponent.level >= quarto::solver::min_bot_level && b->opponent.level <= quarto::solver::max_bot_level &&
                       b->opponent.delay_ms >= 0 && b->opponent.delay_ms <= max_bot_delay_ms);
    }
}

// "req" is echoed as the client wrote it (request_id.hpp): a string, a number (a float kept as
// its text), or null for none; a reply that carries it must still be JSON, with the same value.
bool req_ok(const nlohmann::json& req)
{
    if (req.is_null()) return true;
    if (!req.is_string() && !req.is_number() && !req.is_binary()) return false;
    const auto echoed = nlohmann::json::parse(req_text(req), nullptr, false);
    if (echoed.is_discarded() || (req.is_binary() ? !echoed.is_number() : echoed != req)) return false;
    return nlohmann::json::accept(with_req(R"({"type":"pong"})", req));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text{reinterpret_cast<const char*>(data), size};
    const auto result = parse_client_message(text);
    // request_id_of answers refusals that read nothing else (rate limiting): the same "req".
    const nlohmann::json req = request_id_of(text);
    if (const auto* parsed = std::get_if<parsed_message>(&result)) {
        check_message(parsed->message);
        FUZZ_CHECK(nlohmann::json::accept(text)); // the flat move scanner too reads only JSON
        FUZZ_CHECK(req_ok(parsed->req) && parsed->req == req);
    } else {
        const auto& error = std::get<parse_error>(result);
        FUZZ_CHECK(!error.message.empty() && dumpable(error.message) && req_ok(error.req));
        FUZZ_CHECK(error.req.is_null() || error.req == req);
    }
    return 0;
}
