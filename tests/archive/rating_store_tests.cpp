// Rated games stored with their ratings, and what is read from them: profiles, rating charts,
// the leaderboard and a player's tournaments, on both engines through open_store as the server
// opens them.
#include <future>

#include "quarto/archive/game_archive.hpp"
#include "quarto/core/rating/glicko2.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;

namespace {

std::unique_ptr<store> open_rated_store(const std::string& where)
{
    auto o = open_store(where);
    if (const auto* e = std::get_if<open_error>(&o)) FAIL("open " << where << ": " << e->message);
    return std::move(std::get<std::unique_ptr<store>>(o));
}

constexpr auto standard = rating::pool::standard;
constexpr auto advanced = rating::pool::advanced;
constexpr std::int64_t day_ms = 86'400'000;

const std::string profile_hash = "$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA";

// What a player brings to a first rated game.
stored_rating newcomer(rating::pool pool)
{
    const rating::rating& n = rating::new_player;
    return {pool, n.value, n.deviation, n.volatility, 0, 0};
}

stored_rating stored_of(rating::pool pool, const rating::rating& r, std::int64_t at)
{
    return {pool, r.value, r.deviation, r.volatility, r.games, at};
}

rating::rating glicko_of(const stored_rating& s)
{
    return {.value = s.rating, .deviation = s.deviation, .volatility = s.volatility, .games = s.games};
}

// `g` rated in `pool` from these ratings, its `after`s computed as the server computes them
// (the idle days already in `before`, as ratings_of's reader would have them).
game_record rated_from(game_record g, rating::pool pool, const stored_rating& before0, const stored_rating& before1)
{
    const double score0 = !g.result.winner ? 0.5 : *g.result.winner == 0 ? 1.0 : 0.0;
    const auto after0 = rating::after_game(glicko_of(before0), glicko_of(before1), score0);
    const auto after1 = rating::after_game(glicko_of(before1), glicko_of(before0), 1.0 - score0);
    g.ratings = game_ratings{pool, {{{before0, stored_of(pool, after0, g.ended_ms)}, {before1, stored_of(pool, after1, g.ended_ms)}}}};
    return g;
}

// A game of these two that ends `at` (quarto_game's end, moved); seat 0 gives first and wins.
game_record game_at(const std::string& id, const std::string& name0, const std::string& name1, std::int64_t at)
{
    game_record g = quarto_game(id, name0, name1);
    g.started_ms += at - g.ended_ms;
    g.ended_ms = at;
    return g;
}

std::string count_of(const engine& e, const std::string& where, const std::string& table)
{
    return e.query(where, "SELECT count(*) FROM " + table);
}

} // namespace

TEST_CASE("engines: a rated game stores its ratings with it, once, and reads back with them")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_rated_store(where);
        const game_record g1 = rated_from(quarto_game("g1", "Ann", "Bo"), standard, newcomer(standard), newcomer(standard));
        REQUIRE(g1.ratings->seats[0].after.rating > 1500); // Ann won
        REQUIRE(s->save_game(g1));
        const auto found = s->find_game("g1");
        REQUIRE_FALSE(found.failed);
        CHECK(found.value == std::optional{g1}); // exactly what was applied, to the bit
        CHECK(s->ratings_of("pAnn").value == std::vector{g1.ratings->seats[0].after});
        CHECK(s->ratings_of("pBo").value == std::vector{g1.ratings->seats[1].after});
        CHECK(s->games_of_player("bo", 10).value == std::vector{g1});
        CHECK(count_of(e, where, "rating_changes") == "2");
        CHECK(count_of(e, where, "rated_games WHERE game_id = 'g1'") == "1");

        // Stored again (a restart that saves it once more), whatever it carries: nothing changes.
        game_record again = g1;
        again.ratings->seats[0].after.rating = 2400;
        CHECK_FALSE(s->save_game(again));
        CHECK(s->save_games(std::vector{g1, again}) == std::vector<bool>{false, false});
        CHECK(s->ratings_of("pAnn").value == std::vector{g1.ratings->seats[0].after});
        CHECK(s->find_game("g1").value == std::optional{g1});
        CHECK(count_of(e, where, "rating_changes") == "2");
        CHECK(count_of(e, where, "rated_games") == "1");

        // In a batch beside a refused one, the next game of the same players counts once.
        const stored_rating ann = g1.ratings->seats[0].after, bo = g1.ratings->seats[1].after;
        const game_record g2 = rated_from(game_at("g2", "Bo", "Ann", g1.ended_ms), standard, bo, ann);
        CHECK(s->save_games(std::vector{again, g2}) == std::vector<bool>{false, true});
        CHECK(s->find_game("g2").value == std::optional{g2});
        CHECK(s->ratings_of("pAnn").value == std::vector{g2.ratings->seats[1].after});
        CHECK(s->ratings_of("pBo").value == std::vector{g2.ratings->seats[0].after});
        CHECK(s->ratings_of("pAnn").value.front().games == 2);
    });
}

TEST_CASE("engines: a casual game touches no table of the ratings, and reads back unrated")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_rated_store(where);
        REQUIRE(s->save_games(std::vector{quarto_game("c1"), drawn_game("c2")}) == std::vector<bool>{true, true});
        for (const char* table : {"ratings", "rated_games", "rating_changes"}) {
            CAPTURE(table);
            CHECK(count_of(e, where, table) == "0");
        }
        const auto found = s->find_game("c1");
        REQUIRE(found.value.has_value());
        CHECK_FALSE(found.value->ratings.has_value());
        CHECK(*found.value == quarto_game("c1"));
    });
}

TEST_CASE("engines: a rated game whose before is not the stored rating is rated again from the stored ratings")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_rated_store(where);
        const std::int64_t t1 = 1'760'000'000'900;
        const game_record g1 = rated_from(game_at("g1", "Ann", "Bo", t1), standard, newcomer(standard), newcomer(standard));
        REQUIRE(s->save_game(g1));
        const stored_rating ann = g1.ratings->seats[0].after;

        // Rated while g1 was being stored: the record thinks Ann new. Cy is new indeed. Cy wins.
        const std::int64_t t2 = t1 + 30 * day_ms;
        const game_record g2 = rated_from(game_at("g2", "Cy", "Ann", t2), standard, newcomer(standard), newcomer(standard));
        REQUIRE(s->save_game(g2));

        // Ann's stored rating, 30 days idle, against a new player; a new player has no idle time.
        const rating::rating ann_idle = rating::after_idle(glicko_of(ann), 30.0);
        REQUIRE(ann_idle.deviation > ann.deviation);
        const rating::rating cy_new = glicko_of(newcomer(standard));
        const game_ratings applied{standard,
                                   {{{newcomer(standard), stored_of(standard, rating::after_game(cy_new, ann_idle, 1.0), t2)},
                                     {ann, stored_of(standard, rating::after_game(ann_idle, cy_new, 0.0), t2)}}}};
        REQUIRE(applied != *g2.ratings);
        const auto found = s->find_game("g2");
        REQUIRE(found.value.has_value());
        CHECK(found.value->ratings == std::optional{applied});
        game_record unrated = *found.value;
        unrated.ratings = g2.ratings;
        CHECK(unrated == g2); // the rest as it came
        CHECK(s->ratings_of("pAnn").value == std::vector{applied.seats[1].after});
        CHECK(s->ratings_of("pAnn").value.front().games == 2);
        CHECK(s->ratings_of("pCy").value == std::vector{applied.seats[0].after});

        // The same games count with another rating is stale too (Bo's rating is g1's, not 1500).
        const stored_rating bo = g1.ratings->seats[1].after;
        stored_rating bo_wrong = bo;
        bo_wrong.rating = 1500;
        const game_record g3 = rated_from(game_at("g3", "Bo", "Dee", t1), standard, bo_wrong, newcomer(standard));
        REQUIRE(s->save_game(g3));
        const rating::rating dee_new = glicko_of(newcomer(standard));
        const rating::rating bo_idle = rating::after_idle(glicko_of(bo), 0.0); // g3 ends as g1 did
        CHECK(s->ratings_of("pBo").value == std::vector{stored_of(standard, rating::after_game(bo_idle, dee_new, 1.0), t1)});
        CHECK(s->find_game("g3").value->ratings->seats[0].before == bo);
    });
}

TEST_CASE("engines: a rated game whose ratings cannot be written is undone with them, alone in its batch")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_rated_store(where);
        if (e.name == "sqlite")
            e.query(where, "CREATE TRIGGER refuse BEFORE INSERT ON rating_changes WHEN NEW.game_id = 'bad' "
                           "BEGIN SELECT RAISE(ABORT, 'refused'); END");
        else
            e.query(where, "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
                           "$$ BEGIN RAISE EXCEPTION 'refused'; END $$; "
                           "CREATE TRIGGER refuse BEFORE INSERT ON rating_changes FOR EACH ROW "
                           "WHEN (NEW.game_id = 'bad') EXECUTE FUNCTION refuse()");
        const auto fresh = newcomer(advanced);
        const std::vector batch{rated_from(quarto_game("ok1", "Ann", "Bo"), advanced, fresh, fresh),
                                rated_from(quarto_game("bad", "Cy", "Dee"), advanced, fresh, fresh),
                                rated_from(quarto_game("ok2", "Eve", "Fay"), advanced, fresh, fresh)};
        CHECK(s->save_games(batch) == std::vector<bool>{true, false, true});
        CHECK_FALSE(s->find_game("bad").value.has_value());
        CHECK(s->ratings_of("pCy").value.empty());
        CHECK(s->ratings_of("pDee").value.empty());
        CHECK(count_of(e, where, "rated_games WHERE game_id = 'bad'") == "0");
        CHECK(s->find_game("ok1").value == std::optional{batch[0]});
        CHECK(s->ratings_of("pFay").value == std::vector{batch[2].ratings->seats[1].after});
    });
}

TEST_CASE("engines: an account is found by its player id, and a deleted one is not")
{
    each_engine([](const engine& e) {
        const auto s = open_rated_store(e.fresh());
        REQUIRE(s->create_account("pAnn", "Ann", profile_hash, 1000).value == account_creation::created);
        const auto found = s->find_account("pAnn");
        REQUIRE_FALSE(found.failed);
        CHECK(found.value == std::optional{stored_account{"pAnn", "Ann", profile_hash}});
        CHECK_FALSE(s->find_account("pann").value.has_value()); // ids are compared as they are
        CHECK_FALSE(s->find_account("nobody").value.has_value());
        REQUIRE(s->delete_account("pAnn").value);
        const auto gone = s->find_account("pAnn");
        CHECK_FALSE(gone.failed);
        CHECK_FALSE(gone.value.has_value());
    });
}

TEST_CASE("engines: a profile is the account of the name, else the guest of its most recent game, with results and ratings")
{
    each_engine([](const engine& e) {
        const auto s = open_rated_store(e.fresh());
        // quarto_game's players are "p" + name; seat `first` wins. drawn_game: "pa" Ann and "pd" Dee.
        REQUIRE(s->save_game(quarto_game("g1", "Ann", "Bo", 0)));
        REQUIRE(s->save_game(quarto_game("g2", "Bo", "Ann", 1)));
        REQUIRE(s->save_game(quarto_game("g3", "Ann", "Cy", 1)));
        const auto guest = s->find_player("ANN");
        REQUIRE_FALSE(guest.failed);
        player_profile expected{"pAnn", "Ann", false, {}, 2, 0, 1};
        CHECK(guest.value == std::optional{expected});

        // Another guest called Ann played since: the name is theirs now.
        REQUIRE(s->save_game(drawn_game("g4")));
        CHECK(s->find_player("ann").value == std::optional{player_profile{"pa", "Ann", false, {}, 0, 1, 0}});

        // An account holds its name whoever played under it last; its results are its player id's.
        REQUIRE(s->create_account("pBo", "Bo", profile_hash, 1000).value == account_creation::created);
        REQUIRE(s->save_game(timed_out_game("g5"))); // "pb" Bo wins on time
        REQUIRE(s->apply_rated_game("r1", {"pBo", {standard, 1450, 120, 0.09, 1, 5}}, {"pX", newcomer(standard)}, 6).value ==
                rated_game_outcome::applied);
        const auto bo = s->find_player("bo");
        REQUIRE(bo.value.has_value());
        CHECK(*bo.value == player_profile{"pBo", "Bo", true, {{standard, 1450, 120, 0.09, 1, 5}}, 0, 0, 2});

        // A guest who took an account under another name is that account.
        REQUIRE(s->create_account("pa", "Annabel", profile_hash, 2000).value == account_creation::created);
        CHECK(s->find_player("Ann").value == std::optional{player_profile{"pa", "Annabel", true, {}, 0, 1, 0}});
        // Once deleted, its games say "deleted player", which names no one.
        REQUIRE(s->delete_account("pa").value);
        CHECK(s->find_player("Ann").value == std::optional{expected});
        const auto deleted = s->find_player(deleted_player_name);
        CHECK_FALSE(deleted.failed);
        CHECK_FALSE(deleted.value.has_value());
        CHECK_FALSE(s->find_player("Annabel").value.has_value());
        CHECK_FALSE(s->find_player("Nobody").value.has_value());
    });
}

TEST_CASE("engines: a rating chart holds the most recent points of one pool, oldest first")
{
    each_engine([](const engine& e) {
        const auto s = open_rated_store(e.fresh());
        const std::int64_t t = 1'760'000'000'000;
        // Ids out of their order, and c4 and c3 ending in the same millisecond: the games count
        // orders them.
        game_record last = rated_from(game_at("c1", "Ann", "Bo", t), standard, newcomer(standard), newcomer(standard));
        std::vector<game_record> games{last};
        for (const auto& [id, at] : std::vector<std::pair<std::string, std::int64_t>>{
                 {"c2", t + day_ms}, {"c4", t + 2 * day_ms}, {"c3", t + 2 * day_ms}}) {
            last = rated_from(game_at(id, "Ann", "Bo", at), standard, last.ratings->seats[0].after,
                              last.ratings->seats[1].after);
            games.push_back(last);
        }
        games.push_back(rated_from(game_at("d1", "Cy", "Ann", t + 3 * day_ms), advanced, newcomer(advanced),
                                   newcomer(advanced)));
        CHECK(s->save_games(games) == std::vector<bool>(5, true));

        const auto point = [&](std::size_t game, seat p) {
            const stored_rating& after = games[game].ratings->seats[p].after;
            return rating_point{games[game].id, games[game].ended_ms, after.rating, after.deviation};
        };
        const auto chart = s->rating_history("pAnn", standard, 10);
        REQUIRE_FALSE(chart.failed);
        CHECK(chart.value == std::vector{point(0, 0), point(1, 0), point(2, 0), point(3, 0)});
        CHECK(s->rating_history("pAnn", standard, 2).value == std::vector{point(2, 0), point(3, 0)});
        CHECK(s->rating_history("pAnn", standard, 0).value == std::vector{point(3, 0)}); // at least one
        CHECK(s->rating_history("pAnn", advanced, 10).value == std::vector{point(4, 1)});
        CHECK(s->rating_history("pBo", standard, 1).value == std::vector{point(3, 1)});
        const auto none = s->rating_history("pCy", standard, 10);
        CHECK_FALSE(none.failed);
        CHECK(none.value.empty());
    });
}

TEST_CASE("engines: the leaderboard ranks the settled ratings of live accounts in one pool, best first")
{
    each_engine([](const engine& e) {
        const auto s = open_rated_store(e.fresh());
        for (const auto& [id, name] : std::vector<std::pair<std::string, std::string>>{
                 {"pA", "Ann"}, {"pB", "Bo"}, {"pC", "Cy"}, {"pD", "Dee"}, {"pF", "Fay"}})
            REQUIRE(s->create_account(id, name, profile_hash, 1).value == account_creation::created);
        const auto at = [](rating::pool pool, double r, double rd, int games) {
            return stored_rating{pool, r, rd, 0.06, games, 100};
        };
        const auto apply = [&](const char* game, const rating_update& a, const rating_update& b) {
            REQUIRE(s->apply_rated_game(game, a, b, 200).value == rated_game_outcome::applied);
        };
        apply("x1", {"pA", at(standard, 1700, 60, 20)}, {"pB", at(standard, 1800, 80, 30)});
        apply("x2", {"pC", at(standard, 1900, 50, 40)}, {"pD", at(standard, 2000, 110, 5)}); // Dee provisional
        apply("x3", {"pE", at(standard, 2100, 50, 50)}, {"pA", at(advanced, 1600, 50, 10)}); // pE a guest
        apply("x4", {"pF", at(standard, 1750, 109.5, 12)}, {"pB", at(advanced, 1650, 120, 3)});
        REQUIRE(s->delete_account("pC").value);

        const auto board = s->leaderboard(standard, 10);
        REQUIRE_FALSE(board.failed);
        CHECK(board.value == std::vector<leaderboard_entry>{
                                 {"pB", "Bo", 1800, 80, 30}, {"pF", "Fay", 1750, 109.5, 12}, {"pA", "Ann", 1700, 60, 20}});
        CHECK(s->leaderboard(standard, 1).value == std::vector<leaderboard_entry>{{"pB", "Bo", 1800, 80, 30}});
        CHECK(s->leaderboard(advanced, 10).value == std::vector<leaderboard_entry>{{"pA", "Ann", 1600, 50, 10}});
    });
}

TEST_CASE("engines: a player's tournaments are those whose state names their id, most recently updated first")
{
    each_engine([](const engine& e) {
        const std::string where = e.fresh();
        const auto s = open_rated_store(where);
        const auto state = [](const std::string& id) {
            return R"({"people":[{"id":")" + id + R"(","name":"Someone","token_hash":"ab12"}],"round":1})";
        };
        REQUIRE(s->save_tournament({"t1", "Spring cup", "finished", state("pAnn")}));
        REQUIRE(s->save_tournament({"t2", "Summer cup", "running", state("pAnnie")})); // begins like pAnn
        REQUIRE(s->save_tournament({"t3", "Autumn cup", "running", state("pann")}));   // another id by case
        REQUIRE(s->save_tournament({"t4", "Winter cup", "registering", state("pAnn")}));
        e.query(where, "UPDATE tournaments SET updated_ms = 1000 WHERE id = 't1'");
        e.query(where, "UPDATE tournaments SET updated_ms = 2000 WHERE id IN ('t2', 't3', 't4')");
        const auto found = s->tournaments_of_player("pAnn", 10);
        REQUIRE_FALSE(found.failed);
        CHECK(found.value == std::vector<stored_tournament>{{"t4", "Winter cup", "registering", ""},
                                                            {"t1", "Spring cup", "finished", ""}});
        CHECK(s->tournaments_of_player("pAnn", 1).value == std::vector<stored_tournament>{{"t4", "Winter cup", "registering", ""}});
        CHECK(s->tournaments_of_player("pann", 10).value.size() == 1);
        CHECK(s->tournaments_of_player("p%", 10).value.empty()); // no pattern: the id as written
        CHECK(s->tournaments_of_player("pAn", 10).value.empty());
    });
}

TEST_CASE("engines: game_archive carries the profile calls to its thread and back")
{
    each_engine([](const engine& e) {
        auto opened = game_archive::open(e.fresh());
        REQUIRE(std::holds_alternative<std::unique_ptr<game_archive>>(opened));
        auto& archive = *std::get<std::unique_ptr<game_archive>>(opened);
        const game_record g1 = rated_from(quarto_game("g1", "Ann", "Bo"), standard, newcomer(standard), newcomer(standard));
        archive.save_game(g1);
        archive.save_game(quarto_game("g2", "Ann", "Bo"));
        archive.save_tournament("t1", "Spring cup", "finished", R"({"people":[{"id":"pAnn"}]})");
        std::promise<archive_result<account_creation>> created;
        archive.create_account("pAnn", "Ann", profile_hash, 1000, [&](auto r) { created.set_value(r); });
        REQUIRE(created.get_future().get().value == account_creation::created);

        std::promise<archive_result<std::vector<game_record>>> page;
        archive.games_of_player("ann", 1, [&](auto r) { page.set_value(std::move(r)); }, 1);
        CHECK(page.get_future().get().value == std::vector{g1});
        std::promise<archive_result<std::optional<stored_account>>> account;
        archive.find_account("pAnn", [&](auto r) { account.set_value(std::move(r)); });
        CHECK(account.get_future().get().value == std::optional{stored_account{"pAnn", "Ann", profile_hash}});
        std::promise<archive_result<std::optional<player_profile>>> profile;
        archive.find_player("ANN", [&](auto r) { profile.set_value(std::move(r)); });
        const auto p = profile.get_future().get();
        REQUIRE(p.value.has_value());
        CHECK(p.value->wins == 2);
        CHECK(p.value->ratings == std::vector{g1.ratings->seats[0].after});
        std::promise<archive_result<std::vector<rating_point>>> chart;
        archive.rating_history("pAnn", standard, 5, [&](auto r) { chart.set_value(std::move(r)); });
        CHECK(chart.get_future().get().value.size() == 1);
        std::promise<archive_result<std::vector<leaderboard_entry>>> board;
        archive.leaderboard(standard, 5, [&](auto r) { board.set_value(std::move(r)); });
        const auto b = board.get_future().get();
        CHECK_FALSE(b.failed);
        CHECK(b.value.empty()); // one game: still provisional
        std::promise<archive_result<std::vector<stored_tournament>>> tournaments;
        archive.tournaments_of_player("pAnn", 5, [&](auto r) { tournaments.set_value(std::move(r)); });
        CHECK(tournaments.get_future().get().value == std::vector<stored_tournament>{{"t1", "Spring cup", "finished", ""}});

        archive.close();
        std::promise<archive_result<std::optional<player_profile>>> refused;
        archive.find_player("Ann", [&](auto r) { refused.set_value(std::move(r)); });
        CHECK(refused.get_future().get().failed);
    });
}
