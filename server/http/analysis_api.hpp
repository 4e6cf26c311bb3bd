// GET /api/analysis?rules=...&attributes=...&board=...&hand=...: the query read into a position
// for the solver, or the 400 that says what is wrong with it. No I/O here; http_session hands
// the position to the analysis worker.
#pragma once

#include <optional>
#include <string_view>
#include <variant>

#include "http/games_api.hpp"
#include "quarto/core/solver/position.hpp"

namespace quarto::server::http {

struct position_analysis_request {
    rules game_rules;
    solver::position at;
};
using analysis_request = std::variant<position_analysis_request, api_refusal>;

// nullopt when `path` is not /api/analysis. `query` is what follows '?' (may be empty).
std::optional<analysis_request> route_analysis_api(std::string_view path, std::string_view query);

} // namespace quarto::server::http
