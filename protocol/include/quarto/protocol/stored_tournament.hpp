// A tournament record as the archive keeps it: everything needed to carry on after a restart,
// in a versioned JSON document that reads back into an equal record.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "quarto/model/tournament.hpp"

namespace quarto::protocol {

nlohmann::json stored_tournament(const model::tournament_record& t);
// nullopt when `stored` is not a tournament document this version can read.
std::optional<model::tournament_record> read_stored_tournament(const nlohmann::json& stored);

} // namespace quarto::protocol
