// Which rating pool a game counts for. Only the full game is rated: all four attributes, on a
// move clock. Beginner games (only some attributes count) and untimed games are casual.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "quarto/core/clock.hpp"
#include "quarto/core/rules.hpp"

namespace quarto::rating {

enum class pool : std::uint8_t {
    standard, // lines win (rows, columns, diagonals)
    advanced, // the nine 2x2 squares win too
};

// The pool's name where it is stored or shown.
constexpr std::string_view name(pool p)
{
    return p == pool::advanced ? "advanced" : "standard";
}

// The pool a game under these rules and clock is rated in; nullopt for a casual game. What a
// wrong Quarto call costs does not change the pool: the board and the pieces are the same game.
constexpr std::optional<pool> pool_of(const rules& r, const clock_settings& clock)
{
    if (!clock.move || r.attributes != attribute_set::all()) return std::nullopt;
    return r.squares ? pool::advanced : pool::standard;
}

} // namespace quarto::rating
