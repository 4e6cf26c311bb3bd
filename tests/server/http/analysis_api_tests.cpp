// GET /api/analysis's query read into a position, and every malformed or impossible one refused
// with 400 and a reason that names what is wrong; /api/games/{id}/analysis routed to its game.
#include <doctest/doctest.h>

#include "http/analysis_api.hpp"

using namespace quarto;
using namespace quarto::server;
using namespace quarto::server::http;

namespace {

position_analysis_request accepted(std::string_view query)
{
    CAPTURE(query);
    auto routed = route_analysis_api("/api/analysis", query);
    REQUIRE(routed.has_value());
    const auto* refusal = std::get_if<api_refusal>(&*routed);
    REQUIRE_MESSAGE(refusal == nullptr, (refusal ? refusal->message : std::string{}));
    return std::get<position_analysis_request>(*routed);
}

// The refusal's message, after checking that it is a 400 bad_request.
std::string refused(std::string_view query)
{
    CAPTURE(query);
    auto routed = route_analysis_api("/api/analysis", query);
    REQUIRE(routed.has_value());
    const auto* refusal = std::get_if<api_refusal>(&*routed);
    REQUIRE(refusal != nullptr);
    CHECK(refusal->status == beast::http::status::bad_request);
    CHECK(refusal->code == "bad_request");
    return refusal->message;
}

bool mentions(const std::string& message, std::string_view words)
{
    return message.find(words) != std::string::npos;
}

} // namespace

TEST_CASE("analysis api: only /api/analysis is routed here")
{
    CHECK_FALSE(route_analysis_api("/api/analysisx", "").has_value());
    CHECK_FALSE(route_analysis_api("/api/games", "").has_value());
    CHECK(route_analysis_api("/api/analysis", "").has_value());
}

TEST_CASE("analysis api: a position with its rules, board and piece in hand")
{
    const auto standard = accepted("rules=lines&board=135.............&hand=7");
    CHECK_FALSE(standard.game_rules.squares);
    CHECK(standard.game_rules.attributes == attribute_set::all());
    CHECK(solver::board_text(standard.at.placed) == "135.............");
    CHECK(standard.at.hand == piece{7});
    CHECK_FALSE(standard.at.callable.has_value());

    // Squares, some attributes, upper-case digits, and a give after a placement.
    const auto advanced = accepted("rules=squares&attributes=shape,color&board=A.......F.......&hand=-");
    CHECK(advanced.game_rules.squares);
    CHECK(advanced.game_rules.attributes == attribute_set{}.with(attribute::color).with(attribute::shape));
    CHECK(solver::board_text(advanced.at.placed) == "a.......f.......");
    CHECK_FALSE(advanced.at.hand.has_value());

    // The very first give: an empty board and nothing in hand; %-escapes and unknown keys.
    const auto first = accepted("board=%2E...............&hand=-&rules=lines&note=hello");
    CHECK(first.at.placed.pieces_placed() == 0);
    CHECK_FALSE(first.at.hand.has_value());

    // Fifteen pieces and the last in hand.
    const auto last = accepted("rules=lines&board=0123456789abcde.&hand=f");
    CHECK(last.at.empty_squares() == 1);

    // A placement whose Quarto may still be called (before the give) or claimed (with a piece
    // in hand); `-` is none, as leaving it out is.
    CHECK(accepted("rules=lines&board=1357............&hand=-&callable=3").at.callable == square{3});
    CHECK(accepted("rules=lines&board=.......a.......3&hand=9&callable=15").at.callable == square{15});
    CHECK_FALSE(accepted("rules=lines&board=1357............&hand=-&callable=-").at.callable.has_value());
}

TEST_CASE("analysis api: every malformed query is refused with its reason")
{
    constexpr std::string_view board = "board=................";
    const auto with = [&](std::string_view rest) { return std::string{board} + "&" + std::string{rest}; };

    CHECK(mentions(refused("rules=lines&board=...&hand=%G1"), "%-escape"));
    CHECK(mentions(refused(with("hand=-")), "Say which rules"));
    CHECK(mentions(refused(with("rules=diagonals&hand=-")), "\"lines\" or \"squares\""));
    CHECK(mentions(refused(with("rules=Lines&hand=-")), "\"lines\" or \"squares\""));
    CHECK(mentions(refused(with("rules=lines&attributes=&hand=-")), "one to four of color"));
    CHECK(mentions(refused(with("rules=lines&attributes=colour&hand=-")), "\"colour\" is none of them"));
    CHECK(mentions(refused(with("rules=lines&attributes=color,&hand=-")), "one to four of color"));
    CHECK(mentions(refused(with("rules=lines&attributes=color,height,color&hand=-")), "repeats \"color\""));
    CHECK(mentions(refused("rules=lines&hand=-"), "Say which board"));
    CHECK(mentions(refused("rules=lines&board=...............&hand=-"), "it has 15"));
    CHECK(mentions(refused("rules=lines&board=.................&hand=-"), "it has 17"));
    CHECK(mentions(refused("rules=lines&board=&hand=-"), "it has 0"));
    CHECK(mentions(refused("rules=lines&board=.......g........&hand=-"), "'g' at square 7"));
    CHECK(mentions(refused("rules=lines&board=.......+........&hand=-"), "byte 32 at square 7")); // '+' is a space
    CHECK(mentions(refused(with("rules=lines")), "Say which piece"));
    CHECK(mentions(refused(with("rules=lines&hand=")), "one hex digit"));
    CHECK(mentions(refused(with("rules=lines&hand=10")), "one hex digit"));
    CHECK(mentions(refused(with("rules=lines&hand=g")), "one hex digit"));
    for (const char* bad : {"", "16", "-1", "3a", "03", "x", "1.5"}) {
        CAPTURE(bad);
        CHECK(mentions(refused(std::string{"rules=lines&board=1357............&hand=-&callable="} + bad),
                       "\"callable\" must be a square, 0 to 15"));
    }
    CHECK(mentions(refused("rules=lines&board=1357............&hand=-&callable=4"), "square 4, which is empty"));
}

TEST_CASE("analysis api: impossible positions are refused with their reason")
{
    CHECK(mentions(refused("rules=lines&board=5..5............&hand=-"), "Piece 5 is on the board twice (squares 0 and 3)"));
    CHECK(mentions(refused("rules=lines&board=a........A......&hand=-"), "Piece 10 is on the board twice"));
    CHECK(mentions(refused("rules=lines&board=..7.............&hand=7"), "piece in hand, 7, is already on the board (square 2)"));
    CHECK(mentions(refused("rules=lines&board=0123456789abcdef&hand=-"), "The board is full"));
    CHECK(mentions(refused("rules=lines&board=0123456789abcdef&hand=3"), "The board is full"));
}

TEST_CASE("analysis api: /api/games/{id}/analysis names its game, and other paths under a game are unknown")
{
    const auto analysis = route_games_api("/api/games/g7mq2x9kbn4a/analysis", "");
    REQUIRE(analysis.has_value());
    REQUIRE(std::holds_alternative<game_analysis_lookup>(*analysis));
    CHECK(std::get<game_analysis_lookup>(*analysis).id == "g7mq2x9kbn4a");

    const auto game = route_games_api("/api/games/g7mq2x9kbn4a", "");
    REQUIRE(game.has_value());
    CHECK(std::get<game_lookup>(*game).id == "g7mq2x9kbn4a");

    for (const char* path : {"/api/games/g7mq2x9kbn4a/moves", "/api/games/a/b/analysis", "/api/games//analysis",
                             "/api/games/g7mq2x9kbn4a/analysis/"}) {
        CAPTURE(path);
        const auto other = route_games_api(path, "");
        REQUIRE(other.has_value());
        REQUIRE(std::holds_alternative<api_refusal>(*other));
        CHECK(std::get<api_refusal>(*other).status == beast::http::status::not_found);
    }
}
