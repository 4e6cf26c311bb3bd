// sqlite_store on a real file: open and create, schema version and migration guard, a game
// and its moves back exactly as stored, batches of games in one transaction, per-player
// listings, a row that cannot be read, tournaments, reopen.
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
        sqlite_store store = open_sqlite(path);
        CHECK(store.version() == schema_version);
        CHECK(store.path() == path);
    }
    CHECK(std::filesystem::is_regular_file(path));
    CHECK(sql_text(path, "PRAGMA user_version") == std::to_string(schema_version));
    CHECK(sql_text(path, "PRAGMA journal_mode") == "wal");
    CHECK(sql_text(path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' "
                         "ORDER BY name)") ==
              "accounts,game_analysis,games,journal,journal_cuts,quarto_fence,rated_games,rating_changes,ratings,sessions,"
              "tournaments");
}

TEST_CASE("a game is read back exactly as it was stored, moves in order")
{
    scratch_dir dir;
    sqlite_store store = open_sqlite(dir.file("quarto.db"));
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
        // The moves column in the format archive/README.md documents, and what json_each makes of it.
        CHECK(sql_text(path, "SELECT moves FROM games WHERE id = 'g1'") ==
              R"([["give",1,0,0,100],["place",0,0,0,250],["give",0,2,0,300],["place",1,1,0,400],)"
              R"(["give",1,4,0,500],["place",0,2,0,600],["give",0,6,0,700],["place",1,3,0,800],["call",1,0,15,900]])");
        CHECK(sql_text(path, "SELECT count(*) FROM games, json_each(games.moves) WHERE games.id = 'g1'") == "9");
        CHECK(sql_text(path, "SELECT group_concat(kind, ' ') FROM (SELECT value ->> 0 AS kind FROM games, "
                             "json_each(games.moves) WHERE games.id = 'g1' ORDER BY key)") ==
              "give place give place give place give place call");
        CHECK(sql_text(path, "SELECT reason || ' ' || winner || ' ' || player1_name FROM games WHERE id = 'g1'") ==
              "quarto 1 Bo");
    }
}

TEST_CASE("a game whose moves column cannot be read fails the lookups that meet it, and only those")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    sqlite_store store = open_sqlite(path);
    REQUIRE(store.save_game(quarto_game("bad", "Ann", "Bo")));
    REQUIRE(store.save_game(quarto_game("good", "Ann", "Cy")));
    std::string broken;
    SUBCASE("cut short") { broken = R"([["give",1,0,0,100],["place",0,0)"; }
    SUBCASE("empty") { broken = ""; }
    SUBCASE("an unknown kind") { broken = R"([["jump",1,0,0,100]])"; }
    SUBCASE("a seat out of range") { broken = R"([["give",2,0,0,100]])"; }
    SUBCASE("not an array of moves") { broken = R"({"moves":[]})"; }
    CAPTURE(broken);
    sql_exec(path, "UPDATE games SET moves = '" + broken + "' WHERE id = 'bad'");

    const auto bad = store.find_game("bad");
    CHECK(bad.failed);
    CHECK_FALSE(bad.value.has_value());
    const auto ann = store.games_of_player("Ann", 10);
    CHECK(ann.failed);
    CHECK(ann.value.empty());
    // The other game, and a listing that does not meet the broken row, are answered.
    const auto good = store.find_game("good");
    REQUIRE_FALSE(good.failed);
    CHECK(*good.value == quarto_game("good", "Ann", "Cy"));
    const auto cy = store.games_of_player("Cy", 10);
    REQUIRE_FALSE(cy.failed);
    CHECK(cy.value.size() == 1);
    // The store goes on working.
    CHECK(store.save_game(quarto_game("after")));
}

TEST_CASE("a second game under a taken id is refused and the first one kept whole")
{
    scratch_dir dir;
    sqlite_store store = open_sqlite(dir.file("quarto.db"));
    const game_record first = quarto_game("same");
    REQUIRE(store.save_game(first));
    CHECK_FALSE(store.save_game(resigned_game("same")));
    CHECK(*store.find_game("same").value == first);
    // The refused game's moves were rolled back with it.
    CHECK(sql_text(dir.file("quarto.db"), "SELECT sum(json_array_length(moves)) FROM games") == "9");
}

TEST_CASE("a batch is one transaction in which a game that cannot be stored is undone alone")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    sqlite_store store = open_sqlite(path);
    const game_record taken = quarto_game("taken");
    REQUIRE(store.save_game(taken));
    REQUIRE(store.commits() == 1);

    const std::vector<game_record> batch{quarto_game("b1", "Cy", "Dee"), resigned_game("taken"),
                                         quarto_game("b2", "Eve", "Fay"), resigned_game("b1")};
    CHECK(store.save_games(batch) == std::vector<bool>{true, false, true, false});
    CHECK(store.commits() == 2);
    CHECK(*store.find_game("b1").value == batch[0]);
    CHECK(*store.find_game("b2").value == batch[2]);
    CHECK(*store.find_game("taken").value == taken);
    // The refused games' moves went with them: 9 for each of the three games stored.
    CHECK(sql_text(path, "SELECT sum(json_array_length(moves)) FROM games") == "27");
    CHECK(sql_text(path, "SELECT group_concat(id, ' ') FROM (SELECT id FROM games ORDER BY seq)") == "taken b1 b2");

    SUBCASE("an empty batch writes nothing")
    {
        CHECK(store.save_games({}).empty());
        CHECK(store.commits() == 2);
    }
}

TEST_CASE("a game that fails halfway through its writing leaves no row behind, and the batch goes on")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    sqlite_store store = open_sqlite(path);
    // Game 'half' is refused after its games row, moves and all, and a row of another table are
    // written.
    sql_exec(path, "CREATE TABLE audit (id TEXT); "
                   "CREATE TRIGGER half AFTER INSERT ON games WHEN NEW.id = 'half' "
                   "BEGIN INSERT INTO audit VALUES (NEW.id); SELECT RAISE(ABORT, 'half'); END");
    const std::vector<game_record> batch{quarto_game("h1"), quarto_game("half"), quarto_game("h2")};
    CHECK(store.save_games(batch) == std::vector<bool>{true, false, true});
    CHECK(store.commits() == 1);
    CHECK(sql_text(path, "SELECT group_concat(id, ' ') FROM (SELECT id FROM games ORDER BY seq)") == "h1 h2");
    CHECK(sql_text(path, "SELECT count(*) FROM audit") == "0");
    CHECK(sql_text(path, "SELECT sum(json_array_length(moves)) FROM games") == "18");
    CHECK(*store.find_game("h2").value == batch[2]);
}

TEST_CASE("a batch that SQLite rolls back as a whole, or that cannot commit, stores none of its games")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    sqlite_store store = open_sqlite(path);
    REQUIRE(store.save_game(quarto_game("before")));
    const std::vector<game_record> good{quarto_game("ok1"), quarto_game("ok2")};

    SUBCASE("a statement that rolls the whole transaction back, not only its own game")
    {
        sql_exec(path, "CREATE TRIGGER boom BEFORE INSERT ON games WHEN NEW.id = 'boom' "
                       "BEGIN SELECT RAISE(ROLLBACK, 'boom'); END");
        // ok2 comes after the failure: it must not slip in outside the (gone) transaction.
        CHECK(store.save_games(std::vector{good[0], quarto_game("boom"), good[1]}) ==
              std::vector<bool>{false, false, false});
    }
    SUBCASE("COMMIT refused (a deferred foreign key left dangling)")
    {
        sql_exec(path, "CREATE TABLE audit_parent (id TEXT PRIMARY KEY); "
                       "CREATE TABLE audit (parent TEXT REFERENCES audit_parent (id) DEFERRABLE INITIALLY DEFERRED); "
                       "CREATE TRIGGER orphan AFTER INSERT ON games WHEN NEW.id = 'orphan' "
                       "BEGIN INSERT INTO audit VALUES ('nobody'); END");
        CHECK(store.save_games(std::vector{good[0], quarto_game("orphan"), good[1]}) ==
              std::vector<bool>{false, false, false});
    }
    CHECK(store.commits() == 1);
    CHECK(sql_text(path, "SELECT group_concat(id, ' ') FROM games") == "before");
    CHECK(sql_text(path, "SELECT sum(json_array_length(moves)) FROM games") == "9");
    // Nothing was left half open: the next batch is stored.
    CHECK(store.save_games(good) == std::vector<bool>{true, true});
    CHECK(store.commits() == 2);
    CHECK(sql_text(path, "SELECT count(*) FROM games") == "3");
}

TEST_CASE("files the server cannot use are refused with a reason")
{
    scratch_dir dir;
    SUBCASE("a file that is not a database")
    {
        const std::string path = dir.file("notes.txt");
        std::ofstream{path} << "These are not the bytes of a SQLite database, and there are enough of them to be "
                               "sure that SQLite reads a header and rejects it.\n";
        auto opened = sqlite_store::open(path);
        REQUIRE(std::holds_alternative<open_error>(opened));
        CHECK(std::get<open_error>(opened).message.find(path) != std::string::npos);
    }
    SUBCASE("a directory that cannot be made (a file is in the way)")
    {
        std::ofstream{dir.file("plain")} << "x";
        auto opened = sqlite_store::open(dir.file("plain/quarto.db"));
        REQUIRE(std::holds_alternative<open_error>(opened));
        CHECK(std::get<open_error>(opened).message.find("directory") != std::string::npos);
    }
    SUBCASE("an empty path")
    {
        CHECK(std::holds_alternative<open_error>(sqlite_store::open("")));
    }
}
