// The SQLite file's schema: one migration step per version (sqlite_schema.cpp), which
// sqlite_store::open runs in order, each in the transaction that sets user_version.
#pragma once

#include "quarto/archive/store.hpp"
#include "sqlite_db.hpp"

namespace quarto::archive::sqlite {

// One step of the schema, run in the transaction that sets user_version: `sql`, then (when
// present) `convert` for what SQL alone cannot do, then `sql_after`.
struct migration {
    const char* sql;
    bool (*convert)(sqlite::database&) = nullptr;
    const char* sql_after = nullptr;
};

// migrations[v] brings a file from user_version v to v + 1 (0 <= v < schema_version).
const migration& migration_to_next(int v);

} // namespace quarto::archive::sqlite
