// Words for core values: for logs, test failures and screen readers.
#include "quarto/core/game.hpp"
#include "quarto/core/piece.hpp"

namespace quarto {

std::string describe(piece p)
{
    std::string words;
    words += p.has(attribute::color) ? "dark" : "light";
    words += p.has(attribute::height) ? " tall" : " short";
    words += p.has(attribute::shape) ? " square" : " round";
    words += p.has(attribute::fill) ? " hollow" : " solid";
    return words;
}

std::string_view to_string(enum phase p)
{
    switch (p) {
    case phase::give: return "give";
    case phase::place: return "place";
    case phase::final_claim: return "final_claim";
    case phase::finished: return "finished";
    }
    return "?";
}

std::string_view to_string(end_reason r)
{
    switch (r) {
    case end_reason::quarto: return "quarto";
    case end_reason::missed_quarto: return "missed_quarto";
    case end_reason::timeout: return "timeout";
    case end_reason::resign: return "resign";
    case end_reason::false_claim: return "false_claim";
    case end_reason::board_full: return "board_full";
    case end_reason::abandoned: return "abandoned";
    }
    return "?";
}

std::string_view to_string(action_error e)
{
    switch (e) {
    case action_error::game_over: return "game_over";
    case action_error::not_your_turn: return "not_your_turn";
    case action_error::wrong_phase: return "wrong_phase";
    case action_error::square_taken: return "square_taken";
    case action_error::piece_unavailable: return "piece_unavailable";
    case action_error::invalid_claim: return "invalid_claim";
    case action_error::out_of_range: return "out_of_range";
    }
    return "?";
}

std::string_view to_string(claim_problem p)
{
    switch (p) {
    case claim_problem::none: return "none";
    case claim_problem::not_a_pattern: return "not_a_pattern";
    case claim_problem::not_full: return "not_full";
    case claim_problem::no_shared_attribute: return "no_shared_attribute";
    case claim_problem::misses_placement: return "misses_placement";
    case claim_problem::too_late: return "too_late";
    }
    return "?";
}

std::string_view to_string(move_kind k)
{
    switch (k) {
    case move_kind::give: return "give";
    case move_kind::place: return "place";
    case move_kind::call: return "call";
    case move_kind::pass: return "pass";
    case move_kind::resign: return "resign";
    }
    return "?";
}

} // namespace quarto
