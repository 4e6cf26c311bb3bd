#include "move_reader.hpp"

#include <cstdint>

#include "quarto/protocol/json_cursor.hpp"

namespace quarto::protocol::detail {
namespace {

enum member : unsigned { type_member = 1, room_member = 2, number_member = 4, req_member = 8, line_member = 16 };

// A Quarto call's line: 4 distinct squares, as a mask.
bool read_line(json_cursor& in, square_mask& mask)
{
    if (!in.eat('[')) return false;
    mask = 0;
    for (int i = 0; i < 4; ++i) {
        std::uint64_t s = 0;
        if ((i > 0 && !in.eat(',')) || !in.plain_integer(s) || s > 15 || (mask & bit(static_cast<square>(s)))) return false;
        mask = static_cast<square_mask>(mask | bit(static_cast<square>(s)));
    }
    return in.eat(']');
}

} // namespace

bool read_plain_move(std::string_view text, parsed_message& out)
{
    json_cursor in{text};
    if (!in.eat('{')) return false;
    unsigned seen = 0;
    std::string_view type, room, number_key;
    std::uint64_t number = 0;
    square_mask line = 0;
    nlohmann::json req;
    do {
        std::string_view key;
        if (!in.plain_string(key) || !in.eat(':')) return false;
        unsigned which;
        if (key == "type") {
            which = type_member;
            if (!in.plain_string(type)) return false;
        } else if (key == "room") {
            which = room_member;
            if (!in.plain_string(room)) return false;
        } else if (key == "piece" || key == "square") {
            which = number_member;
            number_key = key;
            if (!in.plain_integer(number) || number > 15) return false;
        } else if (key == "line") {
            which = line_member;
            if (!read_line(in, line)) return false;
        } else if (key == "req") {
            which = req_member;
            std::string_view req_text;
            std::uint64_t req_number = 0;
            // Whatever the first character says it is must be read whole: a failed integer has
            // consumed its digits (tests/fuzz/findings/move_reader-1).
            const char first = in.peek();
            if (first == '"') {
                if (!in.plain_string(req_text)) return false;
                req = req_text;
            } else if (first >= '0' && first <= '9') {
                if (!in.plain_integer(req_number)) return false;
                req = req_number;
            } else if (!in.literal("null")) {
                return false;
            }
        } else {
            return false; // another member: the full parser reads (and ignores) it
        }
        if (seen & which) return false; // repeated: the full parser decides
        seen |= which;
    } while (in.eat(','));
    if (!in.eat('}') || !in.at_end()) return false;
    if (!(seen & type_member) || !(seen & room_member) || room.empty() || room.size() > 64) return false;

    const auto move = [&](room_action action) {
        out.message.emplace<room_message>(room_message{model::room_id{room}, std::move(action)});
        out.req = std::move(req);
        return true;
    };
    const bool has_number = (seen & number_member) != 0;
    const bool has_line = (seen & line_member) != 0;
    if (type == "give") {
        if (has_number && !has_line && number_key == "piece") return move(give{piece{static_cast<std::uint8_t>(number)}});
    } else if (type == "place") {
        if (has_number && !has_line && number_key == "square") return move(place{static_cast<square>(number)});
    } else if (type == "quarto") {
        if (has_line && !has_number) return move(call_quarto{line});
    } else if (!has_number && !has_line) {
        if (type == "pass") return move(pass{});
        if (type == "resign") return move(resign{});
        if (type == "rematch") return move(rematch{});
    }
    return false;
}

} // namespace quarto::protocol::detail
