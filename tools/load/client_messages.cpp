#include "client_messages.hpp"

#include <charconv>

namespace quarto::load {

namespace {

// Names and room ids here are ours or the server's (letters and digits), but quote them
// properly anyway.
void append_string(std::string& out, std::string_view s)
{
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        out += c;
    }
    out += '"';
}

void append_int(std::string& out, int n)
{
    char digits[16];
    const auto result = std::to_chars(digits, digits + sizeof digits, n);
    out.append(digits, result.ptr);
}

std::string room_message(std::string_view type, std::string_view room)
{
    std::string out;
    out.reserve(64);
    out += R"({"type":")";
    out += type;
    out += R"(","room":)";
    append_string(out, room);
    return out;
}

} // namespace

std::string hello_message(std::string_view name)
{
    std::string out = R"({"type":"hello","name":)";
    append_string(out, name);
    out += '}';
    return out;
}

std::string resume_message(std::string_view token)
{
    std::string out = R"({"type":"hello","token":)";
    append_string(out, token);
    out += '}';
    return out;
}

std::string create_room_message(std::string_view name, std::optional<int> move_ms)
{
    std::string out = R"({"type":"create_room","name":)";
    append_string(out, name);
    out += R"(,"clock":{"move_ms":)";
    if (move_ms) append_int(out, *move_ms);
    else out += "null";
    out += R"(},"private":true})";
    return out;
}

std::string join_message(std::string_view room, bool as_spectator)
{
    std::string out = room_message("join", room);
    out += as_spectator ? R"(,"as":"spectator"})" : R"(,"as":"player"})";
    return out;
}

std::string action_message(std::string_view room, const action& a, int req)
{
    if (req > 0) {
        std::string out = action_message(room, a);
        out.pop_back(); // the closing brace
        out += R"(,"req":)";
        append_int(out, req);
        out += '}';
        return out;
    }
    switch (a.kind) {
    case move_kind::give:
    case move_kind::place: {
        const bool give = a.kind == move_kind::give;
        std::string out = room_message(give ? "give" : "place", room);
        out += give ? R"(,"piece":)" : R"(,"square":)";
        append_int(out, a.value);
        out += '}';
        return out;
    }
    case move_kind::call: {
        std::string out = room_message("quarto", room);
        out += R"(,"line":[)";
        bool first = true;
        for (int s = 0; s < board_squares; ++s) {
            if (!(a.line & (1u << s))) continue;
            if (!first) out += ',';
            first = false;
            append_int(out, s);
        }
        out += "]}";
        return out;
    }
    case move_kind::pass: return room_message("pass", room) + '}';
    case move_kind::resign: return room_message("resign", room) + '}';
    }
    return room_message("resign", room) + '}';
}

std::string rematch_message(std::string_view room) { return room_message("rematch", room) + '}'; }

} // namespace quarto::load
