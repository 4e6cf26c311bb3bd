// What both engines share about the accounts' rows: a pool's stored name read back.
#pragma once

#include <optional>
#include <string_view>

#include "quarto/core/rating/pool.hpp"

namespace quarto::archive::detail {

// The pool rating::name stores as `text`; nullopt for any other text.
std::optional<rating::pool> pool_named(std::string_view text);

} // namespace quarto::archive::detail
