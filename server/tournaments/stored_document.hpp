// What the archive keeps of a tournament (its `state` column): the record and its people (the
// director and the entrants, each an id, a name and a token hash), so that after a restart, or
// on the node that takes a dead node's tournaments over, everyone resumes as themselves.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "play/player_registry.hpp"
#include "quarto/model/tournament.hpp"

namespace quarto::server::tournaments {

struct stored_document {
    model::tournament_record record;
    std::vector<play::player_record> people;
};

std::string write_stored_document(const model::tournament_record& record, const std::vector<play::player_record>& people);
// Nullopt when any part is damaged (a field missing, of the wrong type, or empty).
std::optional<stored_document> read_stored_document(std::string_view text);

} // namespace quarto::server::tournaments
