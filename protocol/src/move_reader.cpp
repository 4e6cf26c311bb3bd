#include "move_reader.hpp"

#include <cstdint>

namespace quarto::protocol::detail {
namespace {

class cursor {
public:
    explicit cursor(std::string_view text) : p_{text.data()}, end_{text.data() + text.size()} {}

    void skip_space()
    {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }
    bool eat(char c)
    {
        skip_space();
        if (p_ == end_ || *p_ != c) return false;
        ++p_;
        return true;
    }
    bool at_end()
    {
        skip_space();
        return p_ == end_;
    }
    char peek()
    {
        skip_space();
        return p_ == end_ ? '\0' : *p_;
    }
    // A string of printable ASCII without escapes, its opening quote next.
    bool string(std::string_view& out)
    {
        if (!eat('"')) return false;
        const char* start = p_;
        for (;; ++p_) {
            if (p_ == end_) return false;
            const char c = *p_;
            if (c == '"') break;
            // Printable ASCII is 0x20..0x7e: one unsigned comparison, and the backslash.
            if (static_cast<unsigned char>(c - 0x20) > 0x5e || c == '\\') return false;
        }
        out = {start, static_cast<std::size_t>(p_ - start)};
        ++p_;
        return true;
    }
    // A non-negative integer of at most 18 digits, no leading zero, no fraction or exponent.
    bool integer(std::uint64_t& out)
    {
        skip_space();
        if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
        const char* start = p_;
        std::uint64_t n = 0;
        while (p_ != end_ && *p_ >= '0' && *p_ <= '9') n = n * 10 + static_cast<std::uint64_t>(*p_++ - '0');
        const auto digits = p_ - start;
        if (digits > 18 || (*start == '0' && digits > 1)) return false;
        if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
        out = n;
        return true;
    }
    bool literal(std::string_view word)
    {
        skip_space();
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view{p_, word.size()} != word) return false;
        p_ += word.size();
        return true;
    }

private:
    const char* p_;
    const char* end_;
};

enum member : unsigned { type_member = 1, room_member = 2, number_member = 4, req_member = 8, line_member = 16 };

// A Quarto call's line: 4 distinct squares, as a mask.
bool read_line(cursor& in, square_mask& mask)
{
    if (!in.eat('[')) return false;
    mask = 0;
    for (int i = 0; i < 4; ++i) {
        std::uint64_t s = 0;
        if ((i > 0 && !in.eat(',')) || !in.integer(s) || s > 15 || (mask & bit(static_cast<square>(s)))) return false;
        mask = static_cast<square_mask>(mask | bit(static_cast<square>(s)));
    }
    return in.eat(']');
}

} // namespace

bool read_plain_move(std::string_view text, parsed_message& out)
{
    cursor in{text};
    if (!in.eat('{')) return false;
    unsigned seen = 0;
    std::string_view type, room, number_key;
    std::uint64_t number = 0;
    square_mask line = 0;
    nlohmann::json req;
    do {
        std::string_view key;
        if (!in.string(key) || !in.eat(':')) return false;
        unsigned which;
        if (key == "type") {
            which = type_member;
            if (!in.string(type)) return false;
        } else if (key == "room") {
            which = room_member;
            if (!in.string(room)) return false;
        } else if (key == "piece" || key == "square") {
            which = number_member;
            number_key = key;
            if (!in.integer(number) || number > 15) return false;
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
                if (!in.string(req_text)) return false;
                req = req_text;
            } else if (first >= '0' && first <= '9') {
                if (!in.integer(req_number)) return false;
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
        out.message.emplace<room_message>(room_message{room_id{room}, std::move(action)});
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
