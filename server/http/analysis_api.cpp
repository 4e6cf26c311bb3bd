#include "http/analysis_api.hpp"

#include <algorithm>
#include <cctype>
#include <array>
#include <string>

#include "http/query_string.hpp"

namespace quarto::server::http {
namespace {

api_refusal bad_query(std::string message)
{
    return {beast::http::status::bad_request, "bad_request", std::move(message)};
}

int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The character as the message can show it: a control or non-ASCII byte as its code.
std::string shown(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x21 && byte < 0x7F) return std::string{"'"} + c + "'";
    return "byte " + std::to_string(byte);
}

std::variant<rules, api_refusal> rules_of(const std::vector<query_param>& params)
{
    rules r;
    const std::string* name = find(params, "rules");
    if (!name) return bad_query("Say which rules: rules=lines, or rules=squares when 2x2 squares win too.");
    if (*name == "squares") r.squares = true;
    else if (*name != "lines") return bad_query("\"rules\" must be \"lines\" or \"squares\".");

    const std::string* list = find(params, "attributes");
    if (!list) return r;
    constexpr std::array<std::pair<std::string_view, attribute>, 4> names{
        {{"color", attribute::color}, {"height", attribute::height}, {"shape", attribute::shape}, {"fill", attribute::fill}}};
    attribute_set counted;
    std::string_view rest = *list;
    for (;;) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const auto known = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == item; });
        if (known == names.end())
            return bad_query("\"attributes\" must list one to four of color, height, shape and fill, separated by "
                               "commas" + (item.empty() ? std::string{"."} : "; \"" + std::string{item} + "\" is none of them."));
        if (counted.contains(known->second)) return bad_query("\"attributes\" repeats \"" + std::string{item} + "\".");
        counted = counted.with(known->second);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    r.attributes = counted;
    return r;
}

std::variant<board, api_refusal> board_of(const std::vector<query_param>& params)
{
    const std::string* text = find(params, "board");
    if (!text)
        return bad_query("Say which board: board= then 16 characters, square 0 first, each '.' for an empty square "
                           "or a hex digit 0-f for the piece on it.");
    if (text->size() != board_squares)
        return bad_query("\"board\" must be 16 characters, one per square; it has " + std::to_string(text->size()) + ".");
    std::array<int, piece::count> square_of;
    square_of.fill(-1);
    for (int s = 0; s < board_squares; ++s) {
        const char c = (*text)[static_cast<std::size_t>(s)];
        if (c == '.') continue;
        const int code = hex_value(c);
        if (code < 0)
            return bad_query("\"board\" has " + shown(c) + " at square " + std::to_string(s) +
                               ": each square is '.' (empty) or a hex digit 0-f (a piece).");
        if (square_of[static_cast<std::size_t>(code)] >= 0)
            return bad_query("Piece " + std::to_string(code) + " is on the board twice (squares " +
                               std::to_string(square_of[static_cast<std::size_t>(code)]) + " and " + std::to_string(s) + ").");
        square_of[static_cast<std::size_t>(code)] = s;
    }
    return *solver::board_from_text(*text);
}

} // namespace

std::optional<analysis_request> route_analysis_api(std::string_view path, std::string_view query)
{
    if (path != "/api/analysis" && path != "/api/analysis/") return std::nullopt;
    const auto params = parse_query(query);
    if (!params) return bad_query("The query string has a malformed %-escape.");

    auto r = rules_of(*params);
    if (auto* refusal = std::get_if<api_refusal>(&r)) return std::move(*refusal);
    auto b = board_of(*params);
    if (auto* refusal = std::get_if<api_refusal>(&b)) return std::move(*refusal);

    solver::position p{std::get<board>(b), std::nullopt, std::nullopt};
    if (p.placed.full()) return bad_query("The board is full: nothing is left to play.");
    const std::string* hand = find(*params, "hand");
    if (!hand)
        return bad_query("Say which piece the player to move holds: hand=0 to f, or hand=- when they are to give one.");
    if (*hand != "-") {
        const int code = hand->size() == 1 ? hex_value(hand->front()) : -1;
        if (code < 0) return bad_query("\"hand\" must be one hex digit 0-f (the piece to place), or - (a piece to give).");
        p.hand = piece{static_cast<std::uint8_t>(code)};
        for (square s = 0; s < board_squares; ++s)
            if (p.placed.at(s) == p.hand)
                return bad_query("The piece in hand, " + std::to_string(code) + ", is already on the board (square " +
                                   std::to_string(s) + ").");
    }
    // A placement whose Quarto may still be called: by the player who made it, before giving
    // (hand=-), or claimed by the opponent (hand=N).
    if (const std::string* callable = find(*params, "callable"); callable && *callable != "-") {
        int sq = -1;
        if (callable->size() == 1 && std::isdigit(static_cast<unsigned char>((*callable)[0]))) sq = (*callable)[0] - '0';
        else if (callable->size() == 2 && (*callable)[0] == '1' && (*callable)[1] >= '0' && (*callable)[1] <= '5')
            sq = 10 + ((*callable)[1] - '0');
        if (sq < 0) return bad_query("\"callable\" must be a square, 0 to 15, or - for none.");
        if (!p.placed.occupied(static_cast<square>(sq)))
            return bad_query("\"callable\" names square " + std::to_string(sq) +
                             ", which is empty: it must be the square of the last placement.");
        p.callable = static_cast<square>(sq);
    }
    // Everything check() knows has been refused above, each with its own words; this keeps a
    // problem the solver may learn to see from ever reaching it.
    if (const auto problem = solver::check(p); problem != solver::position_problem::none)
        return bad_query("Impossible position: " + std::string{solver::to_string(problem)} + ".");
    return position_analysis_request{std::get<rules>(r), p};
}

} // namespace quarto::server::http
