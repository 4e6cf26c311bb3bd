// Shared by the archive tests: a scratch directory, real games played through core, a direct
// look at the SQLite file, and each storage engine in turn (each_engine).
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include <doctest/doctest.h>

#include "quarto/archive/game_record.hpp"
#include "quarto/archive/sqlite_store.hpp"

namespace archive_tests {

// A fresh directory under the system's temporary directory, removed with its contents.
class scratch_dir {
public:
    scratch_dir();
    ~scratch_dir();
    scratch_dir(const scratch_dir&) = delete;
    scratch_dir& operator=(const scratch_dir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A record of a real game: seat `first` gives first, pieces 0, 2, 4, 6 fill row 0, and the
// placer of the last one calls the Quarto (9 moves). `id` and the players' names vary.
quarto::archive::game_record quarto_game(const std::string& id, const std::string& name0 = "Ann",
                                         const std::string& name1 = "Bo", quarto::seat first = 0);
// A record of a real game that seat 1 resigns after one give and one placement.
quarto::archive::game_record resigned_game(const std::string& id);
// A record of a real drawn game: only colour counts, the board fills without a Quarto, the
// last placer passes and so does the claimant (34 moves: 16 gives, 16 placements, 2 passes).
quarto::archive::game_record drawn_game(const std::string& id);
// A record of a real game that seat 0 loses on time before its first give (no moves).
quarto::archive::game_record timed_out_game(const std::string& id);

quarto::archive::sqlite_store open_sqlite(const std::string& path);

// The first column of the first row of `sql` run on the file at `path` through SQLite itself,
// as text ("" when there is no row).
std::string sql_text(const std::string& path, const std::string& sql);
void sql_exec(const std::string& path, const std::string& sql);

// A storage engine as the tests drive it: where a new, empty store is, and SQL run on a store
// as an operator's shell would (the first column of the first row as text, "" when none).
struct engine {
    std::string name;
    std::function<std::string()> fresh;
    std::function<std::string(const std::string& where, const std::string& sql)> query;
};
// Runs `body` once per engine, SQLite then PostgreSQL (a server of the tests' own, started on
// first use); a failure names the engine.
void each_engine(const std::function<void(const engine&)>& body);

} // namespace archive_tests

namespace doctest {
template <>
struct StringMaker<quarto::archive::game_record> {
    static String convert(const quarto::archive::game_record& r);
};
} // namespace doctest
