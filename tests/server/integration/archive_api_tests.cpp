// The archive through the real server: every finished game is kept (players, rules, clock,
// coin flip, every move with its time, result) and served at /api/games/{id} and
// /api/games?player=NAME; bad requests get JSON errors; games survive a restart.
#include <csignal>
#include <fcntl.h>
#include <sstream>
#include <filesystem>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.hpp"

extern char** environ;

using namespace quarto_test;

namespace {

// Concatenation through a stream: g++ 12 -O2 reports false -Wrestrict / -Warray-bounds on
// `"literal" + std::string`.
template <class... Parts>
std::string cat(const Parts&... parts)
{
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

// Pieces 1, 3, 5, 7 are all dark: any line of them is a Quarto.
constexpr int dark[] = {1, 3, 5, 7};

json get_json(const server_process& server, const std::string& target, unsigned expected_status)
{
    const http_response res = http_get(server.port(), target);
    CHECK_MESSAGE(res.status == expected_status, target << " answered " << res.status << ": " << res.body);
    CHECK_MESSAGE(res.content_type == "application/json", target << ": " << res.content_type);
    json body = json::parse(res.body, nullptr, false);
    REQUIRE_MESSAGE(!body.is_discarded(), target << " sent no JSON: " << res.body);
    return body;
}

// An error body: {"type":"error","code":CODE,"message":...}.
void check_refused(const server_process& server, const std::string& target, unsigned status, const std::string& code)
{
    const json body = get_json(server, target, status);
    CHECK_MESSAGE(body.value("type", "") == "error", target << ": " << body.dump());
    CHECK_MESSAGE(body.value("code", "") == code, target << ": " << body.dump());
    CHECK_MESSAGE(!body.value("message", "").empty(), target << ": " << body.dump());
}

// Plays row 0 with the dark pieces and has the last placer call it. Returns the game_over
// event and, in `played`, the moves as the archive should list them (without t_ms).
json play_quarto(duel& d, json& played)
{
    played = json::array();
    int giver = d.first;
    for (int k = 0; k < 4; ++k) {
        const int placer = 1 - giver;
        played.push_back({{"type", "give"}, {"seat", giver}, {"piece", dark[k]}});
        played.push_back({{"type", "place"}, {"seat", placer}, {"square", k}});
        play(d, giver, {{dark[k], k}});
        giver = placer;
    }
    const int caller = giver;
    d.act(caller, "quarto", {{"line", {3, 1, 2, 0}}});
    played.push_back({{"type", "quarto"}, {"seat", caller}, {"line", {0, 1, 2, 3}}});
    return d.expect_all("game_over");
}

// The moves of an archived game without their times, which are checked separately.
json without_times(json moves)
{
    for (json& m : moves) {
        CHECK(m.at("t_ms").is_number_unsigned());
        m.erase("t_ms");
    }
    return moves;
}

std::int64_t unix_ms_now()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// A scratch directory for a database that outlives one server process.
struct scratch {
    std::filesystem::path dir;
    scratch()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "quarto-archive-api-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()));
        dir = pattern;
    }
    ~scratch()
    {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
};

} // namespace

TEST_CASE("archive: a finished game is served at /api/games/{id} exactly as it was played")
{
    server_process server;
    const json options = {{"name", "Friday night"},
                          {"rules", {{"squares", true}, {"attributes", {"color", "shape"}}, {"false_claim", "lose"}}},
                          {"clock", {{"move_ms", 45000}, {"claim_ms", 7000}}}};
    const auto before = unix_ms_now();
    duel d = start_duel(server, options);
    json played;
    const json over = play_quarto(d, played);

    // game_over names the game; the id is the archive's.
    REQUIRE(over.contains("game"));
    REQUIRE(over["game"].is_string());
    const std::string id = over["game"].get<std::string>();
    CHECK(id.size() == 12);
    CHECK(over["reason"] == "quarto");

    // A client that looks at the room afterwards (a snapshot) finds the same id and moves.
    player late = connect_player(server, "Late");
    const json snapshot = join(*late.ws, d.room, "spectator");
    CHECK(snapshot["game"]["id"] == id);

    const json record = get_json(server, cat("/api/games/", id), 200);
    CHECK(record["id"] == id);
    CHECK(record["room"] == d.room);
    CHECK(record["room_name"] == "Friday night");
    CHECK(record["players"] == json::array({{{"seat", 0}, {"id", d.creator.id}, {"name", "Ann"}},
                                            {{"seat", 1}, {"id", d.joiner.id}, {"name", "Bob"}}}));
    CHECK(record["rules"] == json{{"squares", true}, {"attributes", {"color", "shape"}}, {"false_claim", "lose"}});
    CHECK(record["rules"] == snapshot["rules"]);
    CHECK(record["clock"] == json{{"move_ms", 45000}, {"claim_ms", 7000}});
    CHECK(record["first"] == d.first);
    CHECK(record["first"] == d.started["first"]);
    CHECK(record["result"] == json{{"result", "win"}, {"winner", over["winner"]}, {"reason", "quarto"}, {"line", {0, 1, 2, 3}}});
    CHECK(record["result"]["winner"] == played.back()["seat"]);
    // Every move, in order, with the times the room itself reports.
    CHECK(without_times(record["moves"]) == played);
    CHECK(record["moves"] == snapshot["game"]["moves"]);
    std::uint64_t last = 0;
    for (const json& m : record["moves"]) {
        CHECK(m["t_ms"].get<std::uint64_t>() >= last);
        last = m["t_ms"].get<std::uint64_t>();
    }
    const auto after = unix_ms_now();
    CHECK(record["started_ms"].get<std::int64_t>() >= before);
    CHECK(record["started_ms"].get<std::int64_t>() <= record["ended_ms"].get<std::int64_t>());
    CHECK(record["ended_ms"].get<std::int64_t>() <= after);
    // The wall-clock span covers the game's own (steady) times, up to the 2 ms that rounding
    // both clocks to whole milliseconds can lose.
    CHECK(record["ended_ms"].get<std::int64_t>() - record["started_ms"].get<std::int64_t>() + 2 >=
          static_cast<std::int64_t>(last));
}

TEST_CASE("archive: every game of a room has its own id - /api/games?player=NAME lists them newest first")
{
    server_process server;
    duel d = start_duel(server);
    json played;
    const std::string first_id = play_quarto(d, played)["game"].get<std::string>();

    d.act(0, "rematch");
    d.act(1, "rematch");
    d.expect_all("rematch_requested");
    d.expect_all("rematch_requested");
    const json restarted = d.expect_all("game_started");
    d.first = restarted["first"].get<int>();
    d.act(d.first, "resign");
    const json second_over = d.expect_all("game_over");
    const std::string second_id = second_over["game"].get<std::string>();
    CHECK(second_id != first_id);
    CHECK(second_over["reason"] == "resign");

    // The player's name is what hello said; letters in any case find it.
    for (const std::string query : {"player=Ann", "player=ann", "player=%41nn", "player=+Ann+", "player=Ann&limit=50"}) {
        const json list = get_json(server, cat("/api/games?", query), 200);
        CAPTURE(query);
        REQUIRE(list["games"].size() == 2);
        CHECK(list["games"][0]["id"] == second_id); // newest first
        CHECK(list["games"][1]["id"] == first_id);
    }
    const json list = get_json(server, "/api/games?player=Bob", 200);
    CHECK(list["player"] == "Bob");
    REQUIRE(list["games"].size() == 2);
    const json& newest = list["games"][0];
    CHECK(newest["result"]["reason"] == "resign");
    CHECK(newest["result"]["winner"] == 1 - d.first);
    CHECK(newest["move_count"] == 1);
    CHECK_FALSE(newest.contains("moves"));
    CHECK(list["games"][1]["move_count"] == 9);
    CHECK(newest["players"][0]["name"] == "Ann");
    CHECK(newest["room"] == d.room);

    const json limited = get_json(server, "/api/games?player=Bob&limit=1", 200);
    REQUIRE(limited["games"].size() == 1);
    CHECK(limited["games"][0]["id"] == second_id);
    CHECK(get_json(server, "/api/games?player=Nobody", 200) == json{{"player", "Nobody"}, {"games", json::array()}});

    // The full record of the resigned game: one give, then the resignation.
    const json record = get_json(server, cat("/api/games/", second_id), 200);
    REQUIRE(record["moves"].size() == 1);
    CHECK(record["moves"][0]["type"] == "resign");
    CHECK(record["moves"][0]["seat"] == d.first);
}

TEST_CASE("archive: a private room's games are listed without its id, which stays the key to it")
{
    server_process server;
    duel d = start_duel(server, {{"name", "Just us"}, {"private", true}});
    d.act(d.first, "resign");
    const std::string id = d.expect_all("game_over")["game"].get<std::string>();
    const std::string room = d.room.get<std::string>();
    const http_response list = http_get(server.port(), "/api/games?player=Ann");
    REQUIRE(list.status == 200);
    CHECK_MESSAGE(list.body.find(room) == std::string::npos, list.body);
    const json games = json::parse(list.body)["games"];
    REQUIRE(games.size() == 1);
    CHECK(games[0]["id"] == id);
    CHECK(games[0]["room"].is_null());
    CHECK(games[0]["room_name"] == "Just us");
    const http_response record = http_get(server.port(), cat("/api/games/", id));
    REQUIRE(record.status == 200);
    CHECK(record.body.find(room) == std::string::npos);
    CHECK(json::parse(record.body)["room"].is_null());
}

TEST_CASE("archive: names with spaces and accents are found through the query string")
{
    server_process server;
    player zoe = connect_player(server, "Zoë Ann");
    const json room = create_room(*zoe.ws);
    player cy = connect_player(server, "Cy");
    join(*cy.ws, room);
    must(zoe->wait_type("game_started"), "game_started");
    zoe->send(action("resign", room));
    const json over = must(zoe->wait_type("game_over"), "game_over");
    for (const std::string query : {"player=Zo%C3%AB+Ann", "player=Zo%C3%AB%20Ann", "player=zo%C3%AB%20ann"}) {
        const json list = get_json(server, cat("/api/games?", query), 200);
        CAPTURE(query);
        REQUIRE(list["games"].size() == 1);
        CHECK(list["games"][0]["id"] == over["game"]);
        CHECK(list["games"][0]["players"][0]["name"] == "Zoë Ann");
    }
    CHECK(get_json(server, "/api/games?player=Zo%C3%AB+Ann", 200)["player"] == "Zoë Ann"); // decoded
}

TEST_CASE("archive: unknown games are 404 and bad queries 400, as JSON")
{
    server_process server;
    check_refused(server, "/api/games/nosuchgame123", 404, "not_found");
    check_refused(server, "/api/games/a/b", 404, "not_found");
    check_refused(server, cat("/api/games/", std::string(65, 'a')), 404, "not_found");
    check_refused(server, "/api/games", 400, "bad_request");
    check_refused(server, "/api/games?limit=5", 400, "bad_request");
    check_refused(server, "/api/games?player=", 400, "bad_request");
    check_refused(server, "/api/games?player=+++", 400, "bad_request");
    check_refused(server, cat("/api/games?player=", std::string(33, 'x')), 400, "bad_request");
    check_refused(server, "/api/games?player=%zz", 400, "bad_request");
    check_refused(server, "/api/games?player=%FF", 400, "bad_request"); // not UTF-8
    for (const std::string limit : {"0", "101", "-1", "abc", "", "5x", "1.5"})
        check_refused(server, cat("/api/games?player=Ann&limit=", limit), 400, "bad_request");
    // The refusal says what is wrong.
    const json missing = get_json(server, "/api/games", 400);
    CHECK(missing["message"].get<std::string>().find("player") != std::string::npos);
    const json bad_limit = get_json(server, "/api/games?player=Ann&limit=0", 400);
    CHECK(bad_limit["message"].get<std::string>().find("limit") != std::string::npos);
    // Good queries on an empty archive.
    CHECK(get_json(server, "/api/games?player=Ann&limit=100", 200)["games"] == json::array());
    CHECK(get_json(server, "/api/games/?player=Ann", 200)["games"] == json::array());
    // Not this API: a static file lookup as before.
    CHECK(http_get(server.port(), "/api/gamesx").status == 404);
}

TEST_CASE("archive: games survive a restart - a game finished just before SIGTERM is written")
{
    scratch tmp;
    const std::string db = (tmp.dir / "data" / "quarto.db").string();
    std::string first_id, last_id;
    {
        // The test's clients are not reading when the server stops, so they never answer its
        // close: a short grace, or the default 5 s would race server.stop()'s own 5 s.
        server_process server{{"--db", db, "--shutdown-grace", "0.5"}};
        duel d = start_duel(server);
        json played;
        first_id = play_quarto(d, played)["game"].get<std::string>();
        CHECK(get_json(server, cat("/api/games/", first_id), 200)["id"] == first_id);
        // A second game ends, and the server is told to stop at once.
        d.act(0, "rematch");
        d.act(1, "rematch");
        const json restarted = d.expect_all("game_started");
        d.act(restarted["first"].get<int>(), "resign");
        last_id = d.expect_all("game_over")["game"].get<std::string>();
        const std::optional<int> status = server.stop();
        REQUIRE_MESSAGE(status.has_value(), "the server did not exit on SIGTERM");
        CHECK(WIFEXITED(*status));
        CHECK(WEXITSTATUS(*status) == 0);
    }
    CHECK(std::filesystem::is_regular_file(db)); // the directory and file were created

    server_process again{{"--db", db}};
    const json first = get_json(again, cat("/api/games/", first_id), 200);
    CHECK(first["moves"].size() == 9);
    CHECK(first["result"]["reason"] == "quarto");
    const json last = get_json(again, cat("/api/games/", last_id), 200);
    CHECK(last["result"]["reason"] == "resign");
    const json list = get_json(again, "/api/games?player=Ann", 200);
    REQUIRE(list["games"].size() == 2);
    CHECK(list["games"][0]["id"] == last_id);

    // Games of the new process join them.
    duel d = start_duel(again);
    json played;
    const std::string new_id = play_quarto(d, played)["game"].get<std::string>();
    CHECK(get_json(again, "/api/games?player=Bob", 200)["games"].size() == 3);
    CHECK(get_json(again, "/api/games?player=Bob", 200)["games"][0]["id"] == new_id);
}

TEST_CASE("archive: a database that cannot be opened stops the server with exit code 1")
{
    scratch tmp;
    const auto blocker = tmp.dir / "file";
    { std::FILE* f = std::fopen(blocker.c_str(), "w"); REQUIRE(f); std::fclose(f); }
    const auto [exit_status, output] = run_to_exit({"--host", "127.0.0.1", "--port", "0", "--db", (blocker / "quarto.db").string()});
    REQUIRE(exit_status);
    const int status = *exit_status;
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    CHECK_MESSAGE(output.find("cannot open the game archive") != std::string::npos, output);
    CHECK_MESSAGE(output.find("listening on") == std::string::npos, output);

    const auto [empty_status, empty_output] = run_to_exit({"--db", ""});
    REQUIRE(empty_status);
    CHECK(WEXITSTATUS(*empty_status) == 2); // a usage error, like every bad flag
    CHECK_MESSAGE(empty_output.find("--db") != std::string::npos, empty_output);
}

TEST_CASE("archive: one server a file: a second one on it stops with exit code 1, and starts once the first has gone")
{
    scratch tmp;
    const std::string db = (tmp.dir / "quarto.db").string();
    server_process first{{"--db", db}};
    const auto [status, output] = run_to_exit({"--host", "127.0.0.1", "--port", "0", "--db", db});
    REQUIRE(status);
    CHECK(WEXITSTATUS(*status) == 1);
    CHECK_MESSAGE(output.find("another quarto-server is using it") != std::string::npos, output);
    CHECK_MESSAGE(output.find("listening on") == std::string::npos, output);
    get_json(first, "/api/games?player=Ann", 200); // the first one goes on
    const auto stopped = first.stop();
    REQUIRE(stopped);
    CHECK(WEXITSTATUS(*stopped) == 0);
    server_process second{{"--db", db}}; // the lock went with the first process
    get_json(second, "/api/games?player=Ann", 200);
}

TEST_CASE("archive: a file the server may read but not write stops it with exit code 1")
{
    scratch tmp;
    const auto db = tmp.dir / "quarto.db";
    { server_process made{{"--db", db.string()}}; } // an archive file with its schema
    // As another user when the test runs as root, whom permissions do not stop.
    std::vector<std::string> as_nobody;
    if (::geteuid() == 0) as_nobody = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
    std::filesystem::permissions(tmp.dir, std::filesystem::perms::all); // the lock file may be made
    std::filesystem::remove(db.string() + ".lock");
    for (const auto& f : std::filesystem::directory_iterator(tmp.dir))
        std::filesystem::permissions(f.path(), std::filesystem::perms::owner_read | std::filesystem::perms::group_read |
                                                   std::filesystem::perms::others_read);
    const auto [status, output] =
        run_to_exit({"--host", "127.0.0.1", "--port", "0", "--db", db.string()}, {}, std::chrono::milliseconds{5000}, as_nobody);
    REQUIRE(status);
    CHECK(WEXITSTATUS(*status) == 1);
    CHECK_MESSAGE(output.find("read-only") != std::string::npos, output);
    CHECK_MESSAGE(output.find("listening on") == std::string::npos, output);
}

TEST_CASE("archive: /metrics counts archived games")
{
    server_process server;
    duel d = start_duel(server);
    d.act(d.first, "resign");
    const std::string id = d.expect_all("game_over")["game"].get<std::string>();
    get_json(server, cat("/api/games/", id), 200); // written by now: the lookup queues behind the save
    const std::string metrics = http_get(server.port(), "/metrics").body;
    CHECK_MESSAGE(metrics.find("\nquarto_games_archived_total 1\n") != std::string::npos, metrics);
    CHECK_MESSAGE(metrics.find("\nquarto_archive_failures_total 0\n") != std::string::npos, metrics);
}
