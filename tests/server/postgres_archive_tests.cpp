// A server whose archive is a PostgreSQL database (--db postgresql://…): the games it finishes
// are served from there, and still are after a restart. The journal of live rooms is kept in
// SQLite only so far: with it on, such a --db is refused at start with the reason.
#include <sys/wait.h>

#include "helpers.hpp"
#include "postgres_server.hpp"

using namespace quarto_test;

TEST_CASE("postgres archive: finished games are stored in PostgreSQL and served after a restart")
{
    test_postgres::postgres_server postgres;
    const std::string address = postgres.fresh_database();
    const std::vector<std::string> args{"--db", address, "--journal", "off"};
    std::string id;
    {
        server_process server{args};
        CHECK(server.log().find("archive postgresql:///") != std::string::npos);
        duel d = start_duel(server);
        d.act(1, "resign");
        const json over = d.expect_all("game_over");
        REQUIRE(over["game"].is_string());
        id = over["game"].get<std::string>();
        // The archive answers after the game is stored (the request queues behind the save).
        const http_response res = http_get(server.port(), "/api/games/" + id);
        CHECK(res.status == 200);
        CHECK(json::parse(res.body)["result"]["reason"] == "resign");
    }
    server_process again{args};
    const http_response res = http_get(again.port(), "/api/games/" + id);
    REQUIRE(res.status == 200);
    const json record = json::parse(res.body);
    CHECK(record["id"] == id);
    CHECK(record["players"][0]["name"] == "Ann");
    CHECK(record["result"]["winner"] == 0);
}

TEST_CASE("postgres archive: with the journal on, a postgresql:// --db is refused at start, its password unshown")
{
    const auto run = run_to_exit({"--host", "127.0.0.1", "--port", "0", "--db",
                                  "postgresql://quarto:s3cret@127.0.0.1:1/quarto"});
    REQUIRE(run.status.has_value());
    CHECK(WIFEXITED(*run.status));
    CHECK(WEXITSTATUS(*run.status) != 0);
    CHECK(run.output.find("journal of live rooms is kept in an SQLite file only") != std::string::npos);
    CHECK(run.output.find("s3cret") == std::string::npos);
}
