// The cache of games' analyses (schema version 5): stored and read back by game id, replaced by
// a newer analysis, answered on the archive thread; and the migration that adds its table to a
// version 4 file, in one transaction that leaves the file as it was when it cannot finish.
#include <future>

#include "quarto/archive/game_archive.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;

namespace {

// A file exactly as version 4 left it, with one game: the current schema without what
// versions 5 and 6 added (a step is never edited, so the steps before it made the same file).
void write_v4_file(const std::string& path)
{
    {
        sqlite_store store = open_sqlite(path);
        REQUIRE(store.save_game(quarto_game("v4-game")));
    }
    sql_exec(path, "DROP TABLE sessions; DROP TABLE accounts; DROP TABLE ratings; DROP TABLE rated_games; "
                   "DROP TABLE rating_changes; DROP INDEX games_by_player0_id; DROP INDEX games_by_player1_id; "
                   "DROP TABLE game_analysis; ALTER TABLE journal DROP COLUMN node; ALTER TABLE journal_cuts DROP COLUMN node; "
                   "ALTER TABLE tournaments DROP COLUMN node; DROP TABLE quarto_fence; PRAGMA user_version = 4");
}

const stored_analysis first_analysis{"g1", 1, false, R"({"game":"g1","exact":false,"positions":[]})"};

} // namespace

TEST_CASE("an analysis is read back by game id as it was stored, and a second one replaces it")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    sqlite_store store = open_sqlite(path);
    REQUIRE(store.save_game(quarto_game("g1")));

    const auto none = store.find_analysis("g1");
    CHECK_FALSE(none.failed);
    CHECK_FALSE(none.value.has_value());

    REQUIRE(store.save_analysis(first_analysis));
    auto found = store.find_analysis("g1");
    REQUIRE_FALSE(found.failed);
    REQUIRE(found.value.has_value());
    CHECK(*found.value == first_analysis);
    CHECK_FALSE(store.find_analysis("g2").value.has_value());

    const stored_analysis newer{"g1", 2, true, R"({"game":"g1","exact":true,"positions":[]})"};
    REQUIRE(store.save_analysis(newer));
    CHECK(*store.find_analysis("g1").value == newer);
    CHECK(sql_text(path, "SELECT count(*) FROM game_analysis") == "1");
    CHECK(sql_text(path, "SELECT exact FROM game_analysis WHERE game_id = 'g1'") == "1");
}

TEST_CASE("game_archive stores and finds analyses on its thread, in the order asked")
{
    scratch_dir dir;
    auto opened = game_archive::open(dir.file("quarto.db"));
    REQUIRE(std::holds_alternative<std::unique_ptr<game_archive>>(opened));
    auto& archive = *std::get<std::unique_ptr<game_archive>>(opened);

    std::promise<bool> stored;
    archive.save_analysis(first_analysis, [&](bool ok) { stored.set_value(ok); });
    // Enqueued after the save: it finds what the save wrote.
    std::promise<archive_result<std::optional<stored_analysis>>> found;
    archive.find_analysis("g1", [&](auto r) { found.set_value(std::move(r)); });
    auto stored_future = stored.get_future();
    auto found_future = found.get_future();
    REQUIRE(stored_future.wait_for(std::chrono::seconds{10}) == std::future_status::ready);
    CHECK(stored_future.get());
    REQUIRE(found_future.wait_for(std::chrono::seconds{10}) == std::future_status::ready);
    const auto r = found_future.get();
    CHECK_FALSE(r.failed);
    REQUIRE(r.value.has_value());
    CHECK(*r.value == first_analysis);

    archive.close();
    std::promise<archive_result<std::optional<stored_analysis>>> after_close;
    archive.find_analysis("g1", [&](auto answer) { after_close.set_value(std::move(answer)); });
    CHECK(after_close.get_future().get().failed);
}

TEST_CASE("a version 4 file opens at the current version with its games, and an empty analysis cache")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    write_v4_file(path);
    REQUIRE(sql_text(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'game_analysis'") == "0");

    sqlite_store store = open_sqlite(path);
    CHECK(store.version() == schema_version);
    CHECK(store.find_game("v4-game").value == quarto_game("v4-game"));
    CHECK(sql_text(path, "SELECT count(*) FROM game_analysis") == "0");
    CHECK(sql_text(path, "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('game_analysis') "
                         "ORDER BY cid)") == "game_id,version,exact,document,computed_ms");
    REQUIRE(store.save_analysis(first_analysis));
    CHECK(*store.find_analysis("g1").value == first_analysis);
}

TEST_CASE("a version 4 file whose step to version 5 cannot finish is left as it was")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    write_v4_file(path);
    // An operator's own table of that name: the step's CREATE TABLE fails on it.
    sql_exec(path, "CREATE TABLE game_analysis (note TEXT)");

    auto opened = sqlite_store::open(path);
    REQUIRE(std::holds_alternative<open_error>(opened));
    const std::string message = std::get<open_error>(opened).message;
    CHECK_MESSAGE(message.find("version 5") != std::string::npos, message);
    CHECK_MESSAGE(message.find("game_analysis") != std::string::npos, message); // SQLite's own words
    CHECK(sql_text(path, "PRAGMA user_version") == "4");
    CHECK(sql_text(path, "SELECT count(*) FROM pragma_table_info('game_analysis')") == "1");
    CHECK(sql_text(path, "SELECT count(*) FROM games") == "1");
}
