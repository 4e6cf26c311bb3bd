// A player as everyone else sees them: a stable id and the name they chose.
#pragma once

#include <string>

namespace quarto::model {

struct player_info {
    std::string id;
    std::string name;
    friend bool operator==(const player_info&, const player_info&) = default;
};

} // namespace quarto::model
