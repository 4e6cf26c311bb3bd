// A server whose archive and journal are a PostgreSQL database (--db postgresql://…): the
// games it finishes are served from there after a restart, and a game in progress comes back
// after kill -9.
#include <csignal>

#include <sys/wait.h>

#include "helpers.hpp"
#include "postgres_server.hpp"

using namespace quarto_test;

TEST_CASE("postgres archive: finished games are stored in PostgreSQL and served after a restart")
{
    test_postgres::postgres_server postgres;
    const std::string address = postgres.fresh_database();
    const std::vector<std::string> args{"--db", address};
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

TEST_CASE("postgres archive: with the journal there too, a game in progress survives kill -9")
{
    test_postgres::postgres_server postgres;
    const std::vector<std::string> args{"--db", postgres.fresh_database()};
    json room;
    {
        server_process server{args};
        duel d = start_duel(server);
        d.act(d.first, "give", {{"piece", 5}});
        d.expect_all("given");
        room = d.room;
        ::kill(server.pid(), SIGKILL);
        REQUIRE(server.wait_exit().has_value());
    }
    server_process again{args};
    CHECK(again.log().find("journal: 1 rooms restored") != std::string::npos);
    const http_response res = http_get(again.port(), "/api/rooms/" + room.get<std::string>());
    REQUIRE(res.status == 200);
    CHECK(json::parse(res.body)["status"] == "playing");
}

TEST_CASE("postgres archive: a database that is not there stops the start with the reason, its password unshown")
{
    test_postgres::postgres_server postgres; // its socket directory, where no database "absent" is
    std::string address = postgres.fresh_database();
    address.replace(address.find("test_"), 5, "absent_");
    address.insert(std::string{"postgresql://"}.size(), "quarto:s3cret@");
    const auto run = run_to_exit({"--host", "127.0.0.1", "--port", "0", "--db", address});
    REQUIRE(run.status.has_value());
    CHECK(WIFEXITED(*run.status));
    CHECK(WEXITSTATUS(*run.status) != 0);
    CHECK(run.output.find("cannot open the game archive") != std::string::npos);
    CHECK(run.output.find("s3cret") == std::string::npos);
}
