#include "quarto/archive/store.hpp"

#include "quarto/archive/postgres_store.hpp"
#include "quarto/archive/sqlite_store.hpp"

namespace quarto::archive {

bool is_postgres_address(std::string_view where)
{
    return where.starts_with("postgresql://") || where.starts_with("postgres://");
}

std::variant<std::unique_ptr<store>, open_error> open_store(const std::string& where, const std::string& node,
                                                           file_sync sync)
{
    if (is_postgres_address(where)) {
        auto opened = postgres_store::open(where, node);
        if (auto* error = std::get_if<open_error>(&opened)) return std::move(*error);
        return std::unique_ptr<store>{std::move(std::get<std::unique_ptr<postgres_store>>(opened))};
    }
    auto opened = sqlite_store::open(where, sync);
    if (auto* error = std::get_if<open_error>(&opened)) return std::move(*error);
    return std::unique_ptr<store>{std::make_unique<sqlite_store>(std::move(std::get<sqlite_store>(opened)))};
}

} // namespace quarto::archive
