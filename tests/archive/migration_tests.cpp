// Files of an older schema version: a version 1 archive (one game_moves row per move), written
// by the v1 code and kept as SQL in fixtures/archive_v1.sql, opens at the current version with
// every game and move as it was stored, in one transaction that leaves the file untouched when
// it cannot finish.
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>
#include <sstream>

#include "quarto/archive/token_hash.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;

namespace {

// The file at `path` as the v1 code left it (the fixture says how it was made).
void write_v1_file(const std::string& path)
{
    const std::string fixture = std::string{QUARTO_ARCHIVE_FIXTURES} + "/archive_v1.sql";
    std::ifstream in{fixture};
    REQUIRE_MESSAGE(in, "cannot read " << fixture);
    std::ostringstream sql;
    sql << in.rdbuf();
    sql_exec(path, sql.str());
    REQUIRE(sql_text(path, "PRAGMA user_version") == "1");
}

// The records the fixture was written from, in the order they were saved.
std::vector<game_record> v1_games()
{
    return {quarto_game("v1-quarto", "Ann", "Bo", 1), resigned_game("v1-resign"), drawn_game("v1-draw"),
            timed_out_game("v1-timeout"), quarto_game("v1-second", "Bo", "Cy")};
}

std::vector<std::string> ids_of(const std::vector<game_record>& games)
{
    std::vector<std::string> ids;
    for (const auto& g : games) ids.push_back(g.id);
    return ids;
}

} // namespace

TEST_CASE("a version 1 file opens at the current version with every game and move as v1 stored them")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    write_v1_file(path);
    REQUIRE(sql_text(path, "SELECT count(*) FROM game_moves") == "55"); // 9 + 3 + 34 + 0 + 9

    sqlite_store store = open_sqlite(path);
    CHECK(store.version() == schema_version);
    const std::vector<game_record> expected = v1_games();
    for (const game_record& g : expected) {
        CAPTURE(g.id);
        const auto found = store.find_game(g.id);
        REQUIRE_FALSE(found.failed);
        REQUIRE(found.value.has_value());
        CHECK(*found.value == g);
    }
    // Spot checks, so that a record equal to itself by accident would still be caught.
    CHECK(store.find_game("v1-draw").value->moves.size() == 34);
    CHECK(store.find_game("v1-timeout").value->moves.empty());

    // The listing order (seq) is kept: newest first, either seat, moves and all.
    const auto bo = store.games_of_player("BO", 50);
    REQUIRE_FALSE(bo.failed);
    CHECK(ids_of(bo.value) == std::vector<std::string>{"v1-second", "v1-timeout", "v1-quarto"});
    CHECK(bo.value == std::vector{expected[4], expected[3], expected[0]});
    CHECK(sql_text(path, "SELECT group_concat(seq || ':' || id, ' ') FROM (SELECT seq, id FROM games ORDER BY seq)") ==
          "1:v1-quarto 2:v1-resign 3:v1-draw 4:v1-timeout 5:v1-second");
    CHECK(store.load_tournaments().value ==
          std::vector<stored_tournament>{{"t1", "Spring cup", "running", R"({"round":2})"}});

    SUBCASE("the file has the current schema: game_moves gone, moves a NOT NULL column, the indexes back")
    {
        CHECK(sql_text(path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE "
                             "name NOT LIKE 'sqlite_%' ORDER BY name)") ==
              "accounts,game_analysis,games,games_by_player0,games_by_player0_id,games_by_player1,games_by_player1_id,"
              "journal,journal_cuts,quarto_fence,rated_games,rating_changes,rating_changes_by_player,ratings,"
              "ratings_by_pool,sessions,sessions_by_player,tournaments");
        CHECK(sql_text(path, "SELECT \"notnull\" FROM pragma_table_info('games') WHERE name = 'moves'") == "1");
        CHECK(sql_text(path, "SELECT count(*) FROM pragma_table_info('games')") == "20");
    }
    SUBCASE("the moves column holds exactly what the current code writes for the same games")
    {
        const std::string fresh = dir.file("fresh.db");
        sqlite_store written = open_sqlite(fresh);
        REQUIRE(written.save_games(expected) == std::vector<bool>(expected.size(), true));
        const std::string all_moves = "SELECT group_concat(id || '=' || moves, ' ') FROM (SELECT * FROM games ORDER BY seq)";
        CHECK(sql_text(path, all_moves) == sql_text(fresh, all_moves));
    }
    SUBCASE("new games go after the old ones, and a second open migrates nothing")
    {
        REQUIRE(store.save_game(quarto_game("v2-first", "Bo", "Dee")));
        CHECK(sql_text(path, "SELECT seq FROM games WHERE id = 'v2-first'") == "6");
        sqlite_store again = open_sqlite(path);
        CHECK(again.version() == schema_version);
        CHECK(ids_of(again.games_of_player("Bo", 50).value) ==
              std::vector<std::string>{"v2-first", "v1-second", "v1-timeout", "v1-quarto"});
        CHECK(*again.find_game("v1-draw").value == expected[2]);
    }
}

TEST_CASE("a migration that cannot finish leaves the version 1 file as it was, and the open fails")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    write_v1_file(path);
    // An operator's view on game_moves: the table cannot go while the view needs it.
    sql_exec(path, "CREATE VIEW moves_per_game AS SELECT game_seq, count(*) AS moves FROM game_moves GROUP BY game_seq");

    auto opened = sqlite_store::open(path);
    REQUIRE(std::holds_alternative<open_error>(opened));
    const std::string message = std::get<open_error>(opened).message;
    CHECK(message.find("version 2") != std::string::npos);
    CHECK(message.find("moves_per_game") != std::string::npos); // SQLite's own words name the view
    CHECK(sql_text(path, "PRAGMA user_version") == "1");
    CHECK(sql_text(path, "SELECT count(*) FROM game_moves") == "55");
    CHECK(sql_text(path, "SELECT count(*) FROM pragma_table_info('games')") == "19");
    CHECK(sql_text(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'games_v2'") == "0");

    // Once the view is gone, the same file migrates.
    sql_exec(path, "DROP VIEW moves_per_game");
    sqlite_store store = open_sqlite(path);
    for (const game_record& g : v1_games()) CHECK(*store.find_game(g.id).value == g);
}

TEST_CASE("a version 1 move the v1 code could not read still fails its own game after the migration, and only it")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    write_v1_file(path);
    sql_exec(path, "UPDATE game_moves SET kind = 'jump' WHERE game_seq = 3 AND n = 5"); // v1-draw

    sqlite_store store = open_sqlite(path);
    CHECK(store.find_game("v1-draw").failed);
    CHECK(store.games_of_player("Dee", 10).failed);
    const std::vector<game_record> expected = v1_games();
    CHECK(*store.find_game("v1-quarto").value == expected[0]);
    CHECK(*store.find_game("v1-timeout").value == expected[3]);
}

// ---- version 2 -> 3: the tournaments' tokens become their hashes --------------------------

namespace {

void write_v2_file(const std::string& path)
{
    const std::string fixture = std::string{QUARTO_ARCHIVE_FIXTURES} + "/archive_v2.sql";
    std::ifstream in{fixture};
    REQUIRE_MESSAGE(in, "cannot read " << fixture);
    std::ostringstream sql;
    sql << in.rdbuf();
    sql_exec(path, sql.str());
    REQUIRE(sql_text(path, "PRAGMA user_version") == "2");
}

// The file's bytes, its write-ahead log's included.
std::string file_bytes(const std::string& path)
{
    std::string all;
    for (const std::string& p : {path, path + "-wal"}) {
        std::ifstream in{p, std::ios::binary};
        all.append(std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{});
    }
    return all;
}

} // namespace

TEST_CASE("a version 2 file keeps its tournaments, with each token replaced by its SHA-256")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    write_v2_file(path);
    const std::string before = sql_text(path, "SELECT state FROM tournaments");
    // The fixture's tokens, as v2 stored them (see fixtures/archive_v2.sql).
    const std::vector<std::pair<std::string, std::string>> tokens{
        {"Dee", "9c5a8aefae8e405fd59e11cfa54e67d7"},
        {"Ann", "42ea81f90619bf8a7698799db5ceb33c"},
        {"Bo", "ba6681c1c15d1ea209e51c7006750299"}};
    for (const auto& [name, token] : tokens) REQUIRE(before.find(token) != std::string::npos);

    {
        sqlite_store store = open_sqlite(path);
        CHECK(store.version() == schema_version);
        const auto loaded = store.load_tournaments();
        REQUIRE_FALSE(loaded.failed);
        REQUIRE(loaded.value.size() == 1);
        const stored_tournament& t = loaded.value[0];
        CHECK(t.id == "tbv2v8sgm");
        CHECK(t.name == "Club night");
        CHECK(t.status == "registering");
        const auto state = nlohmann::json::parse(t.state);
        const auto old_state = nlohmann::json::parse(before);
        CHECK(state["tournament"] == old_state["tournament"]); // the tournament itself untouched
        REQUIRE(state["people"].size() == tokens.size());
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const auto& person = state["people"][i];
            CAPTURE(tokens[i].first);
            CHECK(person["name"] == tokens[i].first);
            CHECK(person["id"] == old_state["people"][i]["id"]);
            CHECK_FALSE(person.contains("token"));
            CHECK(person["token_hash"] == token_hash(tokens[i].second));
        }
    }
    // Not a token left in the file.
    const std::string bytes = file_bytes(path);
    for (const auto& [name, token] : tokens) CHECK_MESSAGE(bytes.find(token) == std::string::npos, name);
}

TEST_CASE("token_hash is SHA-256 in lowercase hex")
{
    // FIPS 180-2's test vectors.
    CHECK(token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(token_hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
