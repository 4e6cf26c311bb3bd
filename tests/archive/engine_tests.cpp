// What every storage engine must do the same way: each test runs on an SQLite file and on a
// PostgreSQL database (a server of the tests' own, postgres_server.hpp), through open_store as
// the server opens them. What only one engine has (SQLite's files, WAL and migrations from
// version 1; PostgreSQL's reconnection) is tested beside it.
#include <functional>
#include <future>

#include "postgres_server.hpp"
#include "quarto/archive/game_archive.hpp"
#include "quarto/archive/journal.hpp"
#include "quarto/archive/postgres_store.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;
using namespace test_postgres;

namespace {

std::unique_ptr<store> opened(const std::string& where)
{
    auto o = open_store(where);
    if (const auto* e = std::get_if<open_error>(&o)) FAIL("open " << where << ": " << e->message);
    return std::move(std::get<std::unique_ptr<store>>(o));
}

std::vector<std::string> ids_of(store& s, std::string_view name, int limit, int offset = 0)
{
    const auto games = s.games_of_player(name, limit, offset);
    REQUIRE_FALSE(games.failed);
    std::vector<std::string> out;
    for (const auto& g : games.value) out.push_back(g.id);
    return out;
}

} // namespace

TEST_CASE("engines: every kind of game is read back exactly as it was stored, at the current schema version")
{
    each_engine([](const engine& e) {
        const auto s = opened(e.fresh());
        CHECK(s->version() == schema_version);
        const std::vector<game_record> games{quarto_game("g1", "Ann", "Bo", 1), resigned_game("g2"), drawn_game("g3"),
                                             timed_out_game("g4")};
        for (const auto& g : games) REQUIRE(s->save_game(g));
        for (const auto& g : games) {
            const auto found = s->find_game(g.id);
            REQUIRE_FALSE(found.failed);
            REQUIRE(found.value.has_value());
            CHECK(*found.value == g);
        }
        const auto missing = s->find_game("nope");
        CHECK_FALSE(missing.failed);
        CHECK_FALSE(missing.value.has_value());
        CHECK(s->commits() == games.size());
    });
}

TEST_CASE("engines: a batch is one commit in which a game under a taken id is refused alone")
{
    each_engine([](const engine& e) {
        const auto s = opened(e.fresh());
        const game_record first = quarto_game("same");
        REQUIRE(s->save_game(first));
        const std::vector<game_record> batch{quarto_game("b1"), resigned_game("same"), drawn_game("b2")};
        CHECK(s->save_games(batch) == std::vector<bool>{true, false, true});
        CHECK(*s->find_game("same").value == first);
        CHECK(*s->find_game("b1").value == batch[0]);
        CHECK(*s->find_game("b2").value == batch[2]);
        CHECK(s->commits() == 2);
        // Nothing was left half open.
        CHECK(s->save_games(std::vector<game_record>{quarto_game("after")}) == std::vector<bool>{true});
    });
}

TEST_CASE("engines: games of a player - either seat, newest first, ASCII letters in any case, limited")
{
    each_engine([](const engine& e) {
        const auto s = opened(e.fresh());
        REQUIRE(s->save_game(quarto_game("a1", "Ann", "Bo")));
        REQUIRE(s->save_game(quarto_game("a2", "Cy", "ann")));
        REQUIRE(s->save_game(quarto_game("a3", "Bo", "Cy")));
        REQUIRE(s->save_game(quarto_game("a4", "ANN", "Dee")));
        REQUIRE(s->save_game(quarto_game("a5", "Annie", "Zoë")));
        CHECK(ids_of(*s, "Ann", 50) == std::vector<std::string>{"a4", "a2", "a1"});
        CHECK(ids_of(*s, "ann", 2) == std::vector<std::string>{"a4", "a2"});
        CHECK(ids_of(*s, "Bo", 50) == std::vector<std::string>{"a3", "a1"});
        CHECK(ids_of(*s, "An", 50).empty()); // whole names only
        // Only ASCII letters fold, as SQLite's NOCASE does: ë is not Ë.
        CHECK(ids_of(*s, "zoë", 50) == std::vector<std::string>{"a5"});
        CHECK(ids_of(*s, "ZOË", 50).empty());
        CHECK(ids_of(*s, "Cy", 0).size() == 1); // limits are clamped to 1..max_games_per_query
        CHECK(ids_of(*s, "Cy", 1000).size() == 2);
        const auto listed = s->games_of_player("Dee", 5);
        REQUIRE(listed.value.size() == 1);
        CHECK(listed.value.front() == quarto_game("a4", "ANN", "Dee")); // with its moves
    });
}

TEST_CASE("engines: games of a player page by offset - newest first, each game on one page")
{
    each_engine([](const engine& e) {
        const auto s = opened(e.fresh());
        for (const char* id : {"a1", "a2", "a3", "a4", "a5"}) REQUIRE(s->save_game(quarto_game(id, "Ann", "Bo")));
        REQUIRE(s->save_game(quarto_game("b1", "Bo", "Cy")));
        CHECK(ids_of(*s, "ann", 2, 0) == std::vector<std::string>{"a5", "a4"});
        CHECK(ids_of(*s, "ann", 2, 2) == std::vector<std::string>{"a3", "a2"});
        CHECK(ids_of(*s, "ann", 2, 4) == std::vector<std::string>{"a1"});
        CHECK(ids_of(*s, "ann", 2, 5).empty());
        CHECK(ids_of(*s, "Bo", 3, 1) == std::vector<std::string>{"a5", "a4", "a3"});
        CHECK(ids_of(*s, "ann", 1, -3) == std::vector<std::string>{"a5"}); // a negative offset skips none
        const auto paged = s->games_of_player("Ann", 1, 3);
        REQUIRE(paged.value.size() == 1);
        CHECK(paged.value.front() == quarto_game("a2", "Ann", "Bo")); // with its moves
    });
}

TEST_CASE("engines: tournaments are inserted, replaced by id, loaded in id order, found and deleted")
{
    each_engine([](const engine& e) {
        const auto s = opened(e.fresh());
        CHECK(s->load_tournaments().value.empty());
        CHECK_FALSE(s->find_tournament("t1").value.has_value());
        const stored_tournament t2{"t2", "Summer cup", "running", R"({"round":2})"};
        const stored_tournament t1{"t1", "Spring cup", "registering", R"({"players":[]})"};
        REQUIRE(s->save_tournament(t2));
        REQUIRE(s->save_tournament(t1));
        const stored_tournament t1_later{"t1", "Spring cup", "running", R"({"players":["Ann","Bo"],"round":1})"};
        REQUIRE(s->save_tournament(t1_later));
        const auto all = s->load_tournaments();
        REQUIRE_FALSE(all.failed);
        CHECK(all.value == std::vector<stored_tournament>{t1_later, t2});
        CHECK(s->find_tournament("t2").value == std::optional{t2});
        CHECK(s->delete_tournament("t1"));
        CHECK(s->delete_tournament("t1")); // none is no failure
        CHECK(s->load_tournaments().value == std::vector<stored_tournament>{t2});
    });
}

TEST_CASE("engines: an analysis is read back by game id, and a second one replaces it")
{
    each_engine([](const engine& e) {
        const auto s = opened(e.fresh());
        CHECK_FALSE(s->find_analysis("g1").value.has_value());
        const stored_analysis first{"g1", 1, false, R"({"game":"g1","exact":false,"positions":[]})"};
        REQUIRE(s->save_analysis(first));
        CHECK(*s->find_analysis("g1").value == first);
        const stored_analysis newer{"g1", 2, true, R"({"game":"g1","exact":true,"positions":[]})"};
        REQUIRE(s->save_analysis(newer));
        CHECK(*s->find_analysis("g1").value == newer);
        CHECK_FALSE(s->find_analysis("g2").value.has_value());
    });
}

TEST_CASE("engines: everything survives opening the store again, and a newer schema is refused")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const game_record played = quarto_game("keep");
        {
            const auto s = opened(where);
            REQUIRE(s->save_game(played));
            REQUIRE(s->save_tournament({"t", "Cup", "done", "{}"}));
            REQUIRE(s->save_analysis({"keep", 1, true, "{}"}));
        }
        {
            const auto again = opened(where);
            CHECK(again->version() == schema_version);
            CHECK(*again->find_game("keep").value == played);
            CHECK(again->games_of_player("Ann", 10).value.size() == 1); // opened twice, stored once
            CHECK(again->load_tournaments().value.size() == 1);
            CHECK(again->find_analysis("keep").value.has_value());
        }
        e.query(where, e.name == "sqlite" ? "PRAGMA user_version = " + std::to_string(schema_version + 1)
                                          : "UPDATE quarto_schema SET version = " + std::to_string(schema_version + 1));
        auto refused = open_store(where);
        REQUIRE(std::holds_alternative<open_error>(refused));
        CHECK(std::get<open_error>(refused).message.find("newer") != std::string::npos);
    });
}

TEST_CASE("engines: game_archive runs either engine on its thread")
{
    each_engine([](const engine& e) {
        auto opened_archive = game_archive::open(e.fresh());
        REQUIRE(std::holds_alternative<std::unique_ptr<game_archive>>(opened_archive));
        auto& archive = *std::get<std::unique_ptr<game_archive>>(opened_archive);
        std::promise<bool> stored;
        archive.save_game(quarto_game("t1"), [&](bool ok) { stored.set_value(ok); });
        CHECK(stored.get_future().get());
        std::promise<archive_result<std::optional<game_record>>> found;
        archive.find_game("t1", [&](auto r) { found.set_value(std::move(r)); });
        const auto r = found.get_future().get();
        REQUIRE(r.value.has_value());
        CHECK(*r.value == quarto_game("t1"));
        archive.close();
    });
}

TEST_CASE("postgresql: an address's password stays out of what is shown, and a server that is not there is a clear error")
{
    CHECK(without_password("postgresql://quarto:s3cret@db.example:5432/quarto") == "postgresql://quarto:***@db.example:5432/quarto");
    CHECK(without_password("postgresql://quarto@db.example/quarto") == "postgresql://quarto@db.example/quarto");
    CHECK(without_password("postgresql:///quarto?host=/run/postgresql") == "postgresql:///quarto?host=/run/postgresql");
    CHECK(without_password("postgresql:///quarto?host=/run/postgresql&password=s3cret&user=q") ==
          "postgresql:///quarto?host=/run/postgresql&password=***&user=q");
    CHECK(without_password("postgresql://q:pw@h/db?password=s3cret") == "postgresql://q:***@h/db?password=***");
    CHECK(is_postgres_address("postgres://x/y"));
    CHECK_FALSE(is_postgres_address("/var/lib/quarto/quarto.db"));

    scratch_dir dir; // a socket directory where no server listens
    // A password no scratch directory's random name can hold (a short one, "pw", once did).
    auto refused = open_store("postgresql://quarto:hunter2-secret@/quarto?host=" + dir.path().string());
    REQUIRE(std::holds_alternative<open_error>(refused));
    const std::string message = std::get<open_error>(refused).message;
    CHECK(message.find("cannot connect to postgresql://quarto:***@/quarto") != std::string::npos);
    CHECK(message.find("hunter2") == std::string::npos);
}

TEST_CASE("postgresql: a database that restarted between two requests costs none of them, the journal's included")
{
    postgres_server own; // its own server: restarting the shared one would break the other tests' stores
    const std::string where = own.fresh_database();
    const auto s = opened(where);
    auto opened_journal = journal::open(where);
    REQUIRE(std::holds_alternative<std::unique_ptr<journal>>(opened_journal));
    auto& j = *std::get<std::unique_ptr<journal>>(opened_journal);
    CHECK_FALSE(j.closes_windows_early()); // its commits cost too much to make more of them
    const auto write = [&](std::int64_t n) {
        journal_batch b;
        b.append({"r", n, "change", {}});
        std::promise<bool> committed;
        j.write(std::move(b), [&](bool ok) { committed.set_value(ok); });
        return committed.get_future().get();
    };
    REQUIRE(s->save_game(quarto_game("before")));
    REQUIRE(write(1));

    own.restart();
    const auto found = s->find_game("before"); // a read
    REQUIRE_FALSE(found.failed);
    CHECK(*found.value == quarto_game("before"));
    CHECK(write(2)); // a journal transaction

    own.restart();
    CHECK(s->save_game(quarto_game("after"))); // a transaction of games
    own.restart();
    CHECK(s->save_tournament({"t", "Cup", "running", "{}"})); // a write of its own
    CHECK(s->find_game("after").value.has_value());
    const auto loaded = j.load();
    REQUIRE_FALSE(loaded.failed);
    CHECK(loaded.value.size() == 2);
}

TEST_CASE("postgresql: while the database is down, journal batches fail at once and are written once it is back")
{
    postgres_server own;
    const std::string where = own.fresh_database();
    opened(where); // the schema
    auto opened_journal = journal::open(where);
    REQUIRE(std::holds_alternative<std::unique_ptr<journal>>(opened_journal));
    auto& j = *std::get<std::unique_ptr<journal>>(opened_journal);
    const auto write = [&](std::int64_t n) {
        journal_batch b;
        b.append({"r", n, "change " + std::to_string(n), {}});
        std::promise<bool> committed;
        j.write(std::move(b), [&](bool ok) { committed.set_value(ok); });
        return committed.get_future().get();
    };
    REQUIRE(write(1));
    own.stop();
    CHECK_FALSE(write(2)); // answered at once: the room's events go out, the game goes on
    CHECK_FALSE(write(3));
    own.start();
    CHECK(write(4));
    const auto loaded = j.load();
    REQUIRE_FALSE(loaded.failed);
    std::vector<std::int64_t> ns;
    for (const auto& e : loaded.value) ns.push_back(e.n);
    CHECK(ns == std::vector<std::int64_t>{1, 2, 3, 4}); // no hole
}
