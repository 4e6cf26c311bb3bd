// Differential: the flat move scanner (protocol/src/move_reader) against the full parser. The
// scanner may decline anything, but what it accepts the full parser must read as the same move
// with the same "req". To reach the full parser with the same message, the harness adds a
// member the scanner always declines and the parser ignores (unknown members are ignored).
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "move_reader.hpp"
#include "quarto/protocol/parse.hpp"

using namespace quarto;
using namespace quarto::protocol;

namespace {

// Enough to tell two room moves apart; other categories by index only (the scanner makes none).
std::string describe(const client_message& message)
{
    const auto* r = std::get_if<room_message>(&message);
    if (!r) return "category " + std::to_string(message.index());
    std::string out = r->room + " action " + std::to_string(r->action.index());
    if (const auto* g = std::get_if<give>(&r->action)) out += " piece " + std::to_string(g->what.code());
    if (const auto* p = std::get_if<place>(&r->action)) out += " square " + std::to_string(p->where);
    if (const auto* q = std::get_if<call_quarto>(&r->action)) out += " line " + std::to_string(q->line);
    if (const auto* s = std::get_if<protocol::sync>(&r->action)) out += " since " + std::to_string(s->since);
    if (const auto* j = std::get_if<join>(&r->action)) out += j->as_spectator ? " spectator" : " player";
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text{reinterpret_cast<const char*>(data), size};
    // A value the scanner can never produce: a decline must leave it as it was.
    parsed_message fast{session_message{ping{}}, "untouched"};
    if (!detail::read_plain_move(text, fast)) {
        FUZZ_CHECK(fast.message.index() == 0 && fast.req == "untouched");
        return 0;
    }
    // It accepted, so the text opens with '{' (after whitespace) and then a member.
    std::string slow_text{text};
    slow_text.insert(slow_text.find('{') + 1, R"("fuzz_extra":0,)");
    parsed_message probe{session_message{ping{}}, nullptr};
    FUZZ_CHECK(!detail::read_plain_move(slow_text, probe)); // or the comparison would be with itself

    const auto slow = parse_client_message(slow_text);
    const auto* parsed = std::get_if<parsed_message>(&slow);
    FUZZ_CHECK(parsed != nullptr);
    FUZZ_CHECK(describe(parsed->message) == describe(fast.message));
    FUZZ_CHECK(parsed->req == fast.req);
    return 0;
}
