// A player as everyone else sees them: a stable id, the name they chose, and next to it their
// rating where one counts.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace quarto::model {

// A rating as shown beside a name: whole points, and whether it is still provisional (shown
// with a "?").
struct shown_rating {
    int points = 0;
    bool provisional = true;
    friend bool operator==(const shown_rating&, const shown_rating&) = default;
};

struct player_info {
    // A constructor rather than an aggregate: most code names a player by id and name only.
    player_info() = default;
    player_info(std::string player_id, std::string player_name, std::optional<shown_rating> shown = std::nullopt)
        : id{std::move(player_id)}, name{std::move(player_name)}, rating{shown}
    {
    }

    std::string id;
    std::string name;
    // An account's rating in the pool of the room (or tournament) that shows the player; none
    // for a guest, and wherever no pool applies.
    std::optional<shown_rating> rating;
    friend bool operator==(const player_info&, const player_info&) = default;
};

} // namespace quarto::model
