// archive_store on a real file: open and create, schema version and migration guard, a game
// and its moves back exactly as stored, per-player listings, tournaments, reopen.
#include <fstream>

#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;

TEST_CASE("open creates the directory and the file, in WAL mode, at the current schema version")
{
    scratch_dir dir;
    const std::string path = dir.file("nested/deeper/quarto.db");
    REQUIRE_FALSE(std::filesystem::exists(dir.path() / "nested"));
    {
        archive_store store = open_store(path);
        CHECK(store.version() == schema_version);
        CHECK(store.path() == path);
    }
    CHECK(std::filesystem::is_regular_file(path));
    CHECK(sql_text(path, "PRAGMA user_version") == std::to_string(schema_version));
    CHECK(sql_text(path, "PRAGMA journal_mode") == "wal");
    CHECK(sql_text(path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' "
                         "ORDER BY name)") == "game_moves,games,tournaments");
}

TEST_CASE("a game is read back exactly as it was stored, moves in order")
{
    scratch_dir dir;
    archive_store store = open_store(dir.file("quarto.db"));
    const game_record played = quarto_game("g1", "Ann", "Bo", 1);
    REQUIRE(played.moves.size() == 9);
    REQUIRE(store.save_game(played));

    const auto found = store.find_game("g1");
    REQUIRE_FALSE(found.failed);
    REQUIRE(found.value.has_value());
    CHECK(*found.value == played);
    // Spot checks, so that a record equal to itself by accident would still be caught.
    CHECK(found.value->first == 1);
    CHECK(found.value->result == game_result{seat{1}, end_reason::quarto, 0x000F});
    CHECK(found.value->moves.back() == move_record{move_kind::call, 1, 0, 0x000F, 900});
    CHECK(found.value->game_rules.squares);
    CHECK(found.value->game_rules.false_claim == false_claim_policy::lose);
    CHECK(found.value->clock == clock_settings{milliseconds{30'000}, milliseconds{5'000}});

    SUBCASE("untimed, beginner rules, a resignation, a draw-free null line, UTF-8 names")
    {
        const game_record resigned = resigned_game("g2");
        REQUIRE(store.save_game(resigned));
        const auto back = store.find_game("g2");
        REQUIRE(back.value.has_value());
        CHECK(*back.value == resigned);
        CHECK_FALSE(back.value->clock.move.has_value());
        CHECK(back.value->game_rules.attributes.bits() == 9);
        CHECK(back.value->players[0].name == "Zoë");
    }
    SUBCASE("the rows an operator sees in the sqlite3 shell")
    {
        const std::string path = dir.file("quarto.db");
        CHECK(sql_text(path, "SELECT count(*) FROM game_moves") == "9");
        CHECK(sql_text(path, "SELECT group_concat(kind, ' ') FROM (SELECT kind FROM game_moves ORDER BY n)") ==
              "give place give place give place give place call");
        CHECK(sql_text(path, "SELECT reason || ' ' || winner || ' ' || player1_name FROM games WHERE id = 'g1'") ==
              "quarto 1 Bo");
    }
}

TEST_CASE("an unknown id is not found, and not a failure")
{
    scratch_dir dir;
    archive_store store = open_store(dir.file("quarto.db"));
    REQUIRE(store.save_game(quarto_game("g1")));
    const auto missing = store.find_game("nope");
    CHECK_FALSE(missing.failed);
    CHECK_FALSE(missing.value.has_value());
}

TEST_CASE("a second game under a taken id is refused and the first one kept whole")
{
    scratch_dir dir;
    archive_store store = open_store(dir.file("quarto.db"));
    const game_record first = quarto_game("same");
    REQUIRE(store.save_game(first));
    CHECK_FALSE(store.save_game(resigned_game("same")));
    CHECK(*store.find_game("same").value == first);
    // The refused game's moves were rolled back with it.
    CHECK(sql_text(dir.file("quarto.db"), "SELECT count(*) FROM game_moves") == "9");
}

TEST_CASE("games of a player: either seat, newest first, letters in any case, limited")
{
    scratch_dir dir;
    archive_store store = open_store(dir.file("quarto.db"));
    REQUIRE(store.save_game(quarto_game("a1", "Ann", "Bo")));
    REQUIRE(store.save_game(quarto_game("a2", "Cy", "ann")));
    REQUIRE(store.save_game(quarto_game("a3", "Bo", "Cy")));
    REQUIRE(store.save_game(quarto_game("a4", "ANN", "Dee")));
    REQUIRE(store.save_game(quarto_game("a5", "Annie", "Bo")));

    const auto ids = [&](std::string_view name, int limit) {
        const auto games = store.games_of_player(name, limit);
        REQUIRE_FALSE(games.failed);
        std::vector<std::string> out;
        for (const auto& g : games.value) {
            CHECK(g.moves.size() == 9); // listed with their moves
            out.push_back(g.id);
        }
        return out;
    };
    CHECK(ids("Ann", 50) == std::vector<std::string>{"a4", "a2", "a1"});
    CHECK(ids("ann", 2) == std::vector<std::string>{"a4", "a2"});
    CHECK(ids("Bo", 50) == std::vector<std::string>{"a5", "a3", "a1"});
    CHECK(ids("Nobody", 50).empty());
    CHECK(ids("An", 50).empty()); // whole names only
    // Limits are clamped to 1..max_games_per_query.
    CHECK(ids("Bo", 0).size() == 1);
    CHECK(ids("Bo", 1000).size() == 3);
}

TEST_CASE("tournaments: insert, replace by id, load all, find one")
{
    scratch_dir dir;
    archive_store store = open_store(dir.file("quarto.db"));
    CHECK(store.load_tournaments().value.empty());
    CHECK_FALSE(store.find_tournament("t1").value.has_value());

    const stored_tournament t1{"t1", "Spring cup", "registering", R"({"players":[]})"};
    const stored_tournament t2{"t2", "Summer cup", "running", R"({"round":2})"};
    REQUIRE(store.save_tournament(t1));
    REQUIRE(store.save_tournament(t2));
    const stored_tournament t1_later{"t1", "Spring cup", "running", R"({"players":["Ann","Bo"],"round":1})"};
    REQUIRE(store.save_tournament(t1_later));

    const auto all = store.load_tournaments();
    REQUIRE_FALSE(all.failed);
    CHECK(all.value == std::vector<stored_tournament>{t1_later, t2});
    CHECK(store.find_tournament("t2").value == std::optional{t2});
}

TEST_CASE("everything survives closing and reopening the file")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    const game_record played = quarto_game("keep");
    {
        archive_store store = open_store(path);
        REQUIRE(store.save_game(played));
        REQUIRE(store.save_tournament({"t", "Cup", "done", "{}"}));
    }
    archive_store again = open_store(path);
    CHECK(again.version() == schema_version);
    CHECK(*again.find_game("keep").value == played);
    CHECK(again.load_tournaments().value.size() == 1);
    // A second open of a current file runs no migration: the games are still there once.
    CHECK(sql_text(path, "SELECT count(*) FROM games") == "1");
}

TEST_CASE("files the server cannot use are refused with a reason")
{
    scratch_dir dir;
    SUBCASE("a schema newer than this build")
    {
        const std::string path = dir.file("future.db");
        { archive_store store = open_store(path); }
        sql_exec(path, "PRAGMA user_version = " + std::to_string(schema_version + 1));
        auto opened = archive_store::open(path);
        REQUIRE(std::holds_alternative<open_error>(opened));
        CHECK(std::get<open_error>(opened).message.find("newer") != std::string::npos);
    }
    SUBCASE("a file that is not a database")
    {
        const std::string path = dir.file("notes.txt");
        std::ofstream{path} << "These are not the bytes of a SQLite database, and there are enough of them to be "
                               "sure that SQLite reads a header and rejects it.\n";
        auto opened = archive_store::open(path);
        REQUIRE(std::holds_alternative<open_error>(opened));
        CHECK(std::get<open_error>(opened).message.find(path) != std::string::npos);
    }
    SUBCASE("a directory that cannot be made (a file is in the way)")
    {
        std::ofstream{dir.file("plain")} << "x";
        auto opened = archive_store::open(dir.file("plain/quarto.db"));
        REQUIRE(std::holds_alternative<open_error>(opened));
        CHECK(std::get<open_error>(opened).message.find("directory") != std::string::npos);
    }
    SUBCASE("an empty path")
    {
        CHECK(std::holds_alternative<open_error>(archive_store::open("")));
    }
}
