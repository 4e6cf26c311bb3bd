// Accounts, sessions and ratings (schema versions 7 and 8) on both engines, through open_store
// as the server opens them, and the steps from version 6, from a file (fixtures/archive_v6.sql)
// and from a database.
#include <fstream>
#include <future>
#include <sstream>

#include "postgres_server.hpp"
#include "quarto/archive/game_archive.hpp"
#include "quarto/archive/token_hash.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;

namespace {

std::unique_ptr<store> open_engine(const std::string& where)
{
    auto o = open_store(where);
    if (const auto* e = std::get_if<open_error>(&o)) FAIL("open " << where << ": " << e->message);
    return std::move(std::get<std::unique_ptr<store>>(o));
}

// A hash as libsodium's crypto_pwhash_str writes one; the archive only stores the text.
const std::string hash_a = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG";
const std::string hash_b = "$argon2id$v=19$m=65536,t=2,p=1$b3RoZXJzYWx0$Xk1zQm9yZW1JcHN1bURvbG9yU2l0QW1l";

stored_rating rated(rating::pool pool, double r, int games, std::int64_t at)
{
    return {pool, r, 61.75, 0.0599987, games, at};
}

} // namespace

TEST_CASE("engines: an account keeps the guest's id, and names are unique in any case of their ASCII letters")
{
    each_engine([](const engine& e) {
        const auto s = open_engine(e.fresh());
        CHECK(s->create_account("p1", "Ann", hash_a, 1000).value == account_creation::created);
        CHECK(s->create_account("p2", "aNN", hash_b, 1001).value == account_creation::name_taken);
        CHECK(s->create_account("p1", "Other", hash_b, 1002).value == account_creation::already_account);
        CHECK(s->create_account("p3", "Zoë", hash_b, 1003).value == account_creation::created);
        CHECK(s->create_account("p4", "ZOË", hash_b, 1004).value == account_creation::created); // only ASCII folds

        const auto found = s->find_account_by_name("ANN");
        REQUIRE_FALSE(found.failed);
        CHECK(found.value == std::optional{stored_account{"p1", "Ann", hash_a}});
        CHECK_FALSE(s->find_account_by_name("Bo").value.has_value());
        CHECK(s->name_is_account("ann").value);
        CHECK_FALSE(s->name_is_account("An").value);
        CHECK_FALSE(s->name_is_account("Bo").failed);
    });
}

TEST_CASE("engines: sessions are found by their hash and touched, ended one or all, and a new password ends the others")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_engine(where);
        REQUIRE(s->create_account("p1", "Ann", hash_a, 1000).value == account_creation::created);
        const std::string one = token_hash("00112233445566778899aabbccddeeff");
        const std::string two = token_hash("ffeeddccbbaa99887766554433221100");
        const std::string three = token_hash("0123456789abcdef0123456789abcdef");
        CHECK(s->add_session(one, "p1", 2000).value);
        CHECK(s->add_session(two, "p1", 2100).value);
        CHECK(s->add_session(three, "p1", 2200).value);
        CHECK_FALSE(s->add_session(token_hash("x"), "nobody", 2300).value); // no such account
        CHECK_FALSE(s->add_session(one, "p1", 2400).value);                  // a hash already taken

        const auto found = s->find_session(one, 5000);
        REQUIRE_FALSE(found.failed);
        CHECK(found.value == std::optional<std::string>{"p1"});
        CHECK(e.query(where, "SELECT last_seen_ms FROM sessions WHERE id_hash = '" + one + "'") == "5000");
        CHECK(s->find_session(one, 4000).value.has_value()); // an older time does not go back
        CHECK(e.query(where, "SELECT last_seen_ms FROM sessions WHERE id_hash = '" + one + "'") == "5000");
        CHECK(e.query(where, "SELECT created_ms FROM sessions WHERE id_hash = '" + one + "'") == "2000");
        CHECK_FALSE(s->find_session(token_hash("unknown"), 5000).value.has_value());

        CHECK(s->end_session(two));
        CHECK(s->end_session(two)); // twice is no failure
        CHECK_FALSE(s->find_session(two, 6000).value.has_value());

        REQUIRE(s->add_session(two, "p1", 6100).value);
        const auto changed = s->set_password("p1", hash_b, one);
        REQUIRE_FALSE(changed.failed);
        CHECK(changed.value);
        CHECK(s->find_account_by_name("Ann").value->password_hash == hash_b);
        CHECK(s->find_session(one, 7000).value.has_value()); // the session that changed it stays
        CHECK_FALSE(s->find_session(two, 7000).value.has_value());
        CHECK_FALSE(s->find_session(three, 7000).value.has_value());
        CHECK_FALSE(s->set_password("nobody", hash_b, "").value);

        REQUIRE(s->add_session(two, "p1", 7100).value);
        CHECK(s->end_sessions("p1"));
        CHECK_FALSE(s->find_session(one, 8000).value.has_value());
        CHECK_FALSE(s->find_session(two, 8000).value.has_value());
        CHECK(e.query(where, "SELECT count(*) FROM sessions") == "0");
    });
}

TEST_CASE("engines: a rated game's ratings are applied once, keyed by the game")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_engine(where);
        CHECK(s->ratings_of("p1").value.empty());
        const rating_update ann{"p1", rated(rating::pool::standard, 1662.3125, 1, 10'000)};
        const rating_update bo{"p2", rated(rating::pool::standard, 1337.6875, 1, 10'000)};
        const auto first = s->apply_rated_game("g1", ann, bo, 10'001);
        REQUIRE_FALSE(first.failed);
        CHECK(first.value == rated_game_outcome::applied);
        CHECK(s->ratings_of("p1").value == std::vector{ann.rating});
        CHECK(s->ratings_of("p2").value == std::vector{bo.rating});

        // The same game again changes nothing, whatever it carries.
        const rating_update ann_again{"p1", rated(rating::pool::standard, 1800, 2, 20'000)};
        const auto second = s->apply_rated_game("g1", ann_again, bo, 20'001);
        REQUIRE_FALSE(second.failed);
        CHECK(second.value == rated_game_outcome::already_applied);
        CHECK(s->ratings_of("p1").value == std::vector{ann.rating});
        CHECK(e.query(where, "SELECT applied_ms FROM rated_games WHERE game_id = 'g1'") == "10001");

        // Another game, another pool: one row per pool, by pool name; values exact to the bit.
        const rating_update ann_advanced{"p1", rated(rating::pool::advanced, 1500.0 + 1.0 / 3.0, 1, 30'000)};
        const rating_update cy{"p3", rated(rating::pool::advanced, 1499.9, 1, 30'000)};
        REQUIRE(s->apply_rated_game("g2", ann_advanced, cy, 30'001).value == rated_game_outcome::applied);
        CHECK(s->ratings_of("p1").value == std::vector{ann_advanced.rating, ann.rating});
        const rating_update ann_later{"p1", rated(rating::pool::standard, 1700.03125, 2, 40'000)};
        REQUIRE(s->apply_rated_game("g3", ann_later, bo, 40'001).value == rated_game_outcome::applied);
        CHECK(s->ratings_of("p1").value == std::vector{ann_advanced.rating, ann_later.rating});
        CHECK(e.query(where, "SELECT count(*) FROM rated_games") == "3");
    });
}

TEST_CASE("engines: a deleted account loses its name, hash and sessions, keeps its games and ratings, and its export has it all")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_engine(where);
        // The guest played before claiming the account: quarto_game's players are "p" + name.
        REQUIRE(s->save_game(quarto_game("g1", "Ann", "Bo")));
        REQUIRE(s->save_game(quarto_game("g2", "Cy", "Ann")));
        REQUIRE(s->save_game(quarto_game("g3", "Bo", "Cy")));
        REQUIRE(s->create_account("pAnn", "Ann", hash_a, 1000).value == account_creation::created);
        const std::string session = token_hash("00112233445566778899aabbccddeeff");
        REQUIRE(s->add_session(session, "pAnn", 2000).value);
        REQUIRE(s->find_session(session, 2500).value);
        const rating_update ann{"pAnn", rated(rating::pool::standard, 1662.5, 1, 3000)};
        REQUIRE(s->apply_rated_game("g1", ann, {"pBo", rated(rating::pool::standard, 1337.5, 1, 3000)}, 3001).value ==
                rated_game_outcome::applied);

        const auto exported = s->export_account("pAnn");
        REQUIRE_FALSE(exported.failed);
        REQUIRE(exported.value.has_value());
        const account_export& x = *exported.value;
        CHECK(x.player_id == "pAnn");
        CHECK(x.name == "Ann");
        CHECK(x.created_ms == 1000);
        CHECK_FALSE(x.deleted);
        CHECK(x.sessions == std::vector<account_export::session>{{2000, 2500}});
        CHECK(x.ratings == std::vector{ann.rating});
        CHECK(x.games == std::vector<std::string>{"g1", "g2"});
        const std::string text = account_export_json(x).dump();
        CHECK(text.find(hash_a) == std::string::npos); // secrets are not the player's data
        CHECK(text.find(session) == std::string::npos);
        CHECK(account_export_json(x)["ratings"][0]["pool"] == "standard");
        CHECK_FALSE(s->export_account("nobody").value.has_value());

        const auto deleted = s->delete_account("pAnn");
        REQUIRE_FALSE(deleted.failed);
        CHECK(deleted.value);
        CHECK_FALSE(s->delete_account("pAnn").value); // once
        CHECK_FALSE(s->find_account_by_name("Ann").value.has_value());
        CHECK_FALSE(s->find_session(session, 9000).value.has_value());
        CHECK_FALSE(s->add_session(session, "pAnn", 9000).value);
        CHECK_FALSE(s->set_password("pAnn", hash_b, "").value);
        CHECK(e.query(where, "SELECT count(*) FROM accounts WHERE password_hash IS NOT NULL") == "0");
        CHECK(e.query(where, "SELECT count(*) FROM games") == "3");
        CHECK(s->find_game("g1").value->players[0].name == deleted_player_name);
        CHECK(s->find_game("g2").value->players[1].name == deleted_player_name);
        CHECK(s->find_game("g2").value->players[0].name == "Cy");
        CHECK(s->games_of_player("Ann", 10).value.empty());
        CHECK(s->ratings_of("pAnn").value == std::vector{ann.rating});
        // The name is free again, the player id is not.
        CHECK(s->create_account("pAnn", "Ann", hash_b, 9000).value == account_creation::already_account);
        CHECK(s->create_account("pNew", "ann", hash_b, 9000).value == account_creation::created);
        const auto after = s->export_account("pAnn").value;
        REQUIRE(after.has_value());
        CHECK(after->deleted);
        CHECK(after->name == deleted_player_name);
        CHECK(after->sessions.empty());
    });
}

TEST_CASE("engines: game_archive carries the account calls to its thread and back")
{
    each_engine([](const engine& e) {
        auto opened = game_archive::open(e.fresh());
        REQUIRE(std::holds_alternative<std::unique_ptr<game_archive>>(opened));
        auto& archive = *std::get<std::unique_ptr<game_archive>>(opened);
        std::promise<archive_result<account_creation>> created;
        archive.create_account("p1", "Ann", hash_a, 1000, [&](auto r) { created.set_value(r); });
        CHECK(created.get_future().get().value == account_creation::created);
        std::promise<archive_result<bool>> added;
        archive.add_session(token_hash("s"), "p1", 2000, [&](auto r) { added.set_value(r); });
        CHECK(added.get_future().get().value);
        std::promise<archive_result<std::optional<std::string>>> found;
        archive.find_session(token_hash("s"), 3000, [&](auto r) { found.set_value(std::move(r)); });
        CHECK(found.get_future().get().value == std::optional<std::string>{"p1"});
        std::promise<archive_result<rated_game_outcome>> applied;
        archive.apply_rated_game("g1", {"p1", rated(rating::pool::advanced, 1600, 1, 4000)},
                                 {"p2", rated(rating::pool::advanced, 1400, 1, 4000)}, 4001,
                                 [&](auto r) { applied.set_value(r); });
        CHECK(applied.get_future().get().value == rated_game_outcome::applied);
        std::promise<archive_result<std::optional<account_export>>> exported;
        archive.export_account("p1", [&](auto r) { exported.set_value(std::move(r)); });
        const auto x = exported.get_future().get();
        REQUIRE(x.value.has_value());
        CHECK(x.value->ratings.size() == 1);
        archive.close();
        std::promise<archive_result<bool>> refused;
        archive.name_is_account("Ann", [&](auto r) { refused.set_value(r); });
        CHECK(refused.get_future().get().failed);
    });
}

// ---- version 6 -> 7 ----------------------------------------------------------------------

TEST_CASE("a version 6 file written by the server opens at the current version with its games and journal, and empty account tables")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    const std::string fixture = std::string{QUARTO_ARCHIVE_FIXTURES} + "/archive_v6.sql";
    std::ifstream in{fixture};
    REQUIRE_MESSAGE(in, "cannot read " << fixture);
    std::ostringstream sql;
    sql << in.rdbuf();
    sql_exec(path, sql.str());
    REQUIRE(sql_text(path, "PRAGMA user_version") == "6");
    const std::string games_before = sql_text(path, "SELECT group_concat(seq || id || moves, ' ') FROM games");
    const std::string journal_before = sql_text(path, "SELECT count(*) || ':' || sum(length(entries)) FROM journal");

    {
        sqlite_store s = open_sqlite(path);
        CHECK(s.version() == schema_version);
        for (const char* id : {"c3nk5ujdmhyj", "2re2scyazsxg", "g79gbdfizqaf", "hqiq8xy4cxwu", "jie52cjwtc5b", "tv8qwzptz7ia"}) {
            CAPTURE(id);
            const auto found = s.find_game(id);
            REQUIRE_FALSE(found.failed);
            CHECK(found.value.has_value());
        }
        CHECK(s.games_of_player("A0", 50).value.size() == 3);
        CHECK(s.export_account("pgxnizq9k").value == std::nullopt); // a guest: no account yet
        // The guest claims an account: its games are the account's, by its player id.
        REQUIRE(s.create_account("pgxnizq9k", "a0", hash_a, 1).value == account_creation::created);
        CHECK(s.export_account("pgxnizq9k").value->games.size() == 3);
    }
    CHECK(sql_text(path, "SELECT group_concat(seq || id || moves, ' ') FROM games") == games_before);
    CHECK(sql_text(path, "SELECT count(*) || ':' || sum(length(entries)) FROM journal") == journal_before);
    for (const char* table : {"sessions", "ratings", "rated_games", "rating_changes"}) {
        CAPTURE(table);
        CHECK(sql_text(path, std::string{"SELECT count(*) FROM "} + table) == "0");
    }
    CHECK(sql_text(path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' "
                         "ORDER BY name)") ==
          "accounts,game_analysis,games,journal,journal_cuts,quarto_fence,rated_games,rating_changes,ratings,sessions,"
          "tournaments");
    // Its games are indexed by player id too, as profiles and exports search them.
    CHECK(sql_text(path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'index' "
                         "AND tbl_name = 'games' AND name GLOB '*_id' ORDER BY name)") ==
          "games_by_player0_id,games_by_player1_id");
}

TEST_CASE("postgresql: a version 6 database migrates to the current version, keeping its games, with empty account tables")
{
    each_engine([](const engine& e) {
        if (e.name != "postgresql") return; // the file's path is the test above
        const std::string where = e.fresh();
        {
            const auto s = open_engine(where);
            REQUIRE(s->save_game(quarto_game("g1")));
        }
        // Back to what version 6 had: the step to 7 only adds tables and indexes.
        e.query(where, "DROP TABLE accounts, sessions, ratings, rated_games, rating_changes; "
                       "DROP INDEX games_by_player0_id, games_by_player1_id; UPDATE quarto_schema SET version = 6");
        REQUIRE(e.query(where, "SELECT count(*) FROM pg_tables WHERE tablename = 'accounts'") == "0");
        const auto s = open_engine(where);
        CHECK(s->version() == schema_version);
        CHECK(*s->find_game("g1").value == quarto_game("g1"));
        for (const char* table : {"accounts", "sessions", "ratings", "rated_games", "rating_changes"}) {
            CAPTURE(table);
            CHECK(e.query(where, std::string{"SELECT count(*) FROM "} + table) == "0");
        }
        CHECK(e.query(where, "SELECT count(*) FROM pg_indexes WHERE indexname IN ('games_by_player0_id', "
                             "'games_by_player1_id', 'rating_changes_by_player', 'ratings_by_pool')") == "4");
        CHECK(s->create_account("pAnn", "Ann", hash_a, 1).value == account_creation::created);
    });
}
