// Shared by the archive tests; see support.hpp.
#include "support.hpp"

#include <array>
#include <cstdlib>
#include <stdexcept>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "postgres_server.hpp"

#include "quarto/archive/game_json.hpp"

namespace archive_tests {

using namespace quarto;

scratch_dir::scratch_dir()
{
    std::string pattern = (std::filesystem::temp_directory_path() / "quarto-archive-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
}

scratch_dir::~scratch_dir()
{
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

namespace {
piece pc(int code) { return *piece::from_code(code); }
} // namespace

archive::game_record quarto_game(const std::string& id, const std::string& name0, const std::string& name1, seat first)
{
    rules r;
    r.squares = true;
    r.false_claim = false_claim_policy::lose;
    const clock_settings clock{milliseconds{30'000}, milliseconds{5'000}};
    game g{r, clock, first, at_ms(1000)};
    const seat other = opponent(first);
    REQUIRE(g.give(first, pc(0), at_ms(1100)).ok());
    REQUIRE(g.place(other, 0, at_ms(1250)).ok());
    REQUIRE(g.give(other, pc(2), at_ms(1300)).ok());
    REQUIRE(g.place(first, 1, at_ms(1400)).ok());
    REQUIRE(g.give(first, pc(4), at_ms(1500)).ok());
    REQUIRE(g.place(other, 2, at_ms(1600)).ok());
    REQUIRE(g.give(other, pc(6), at_ms(1700)).ok());
    REQUIRE(g.place(first, 3, at_ms(1800)).ok());
    REQUIRE(g.call_quarto(first, 0x000F, at_ms(1900)).ok());
    REQUIRE(g.finished());
    std::string id0 = "p", id1 = "p";
    id0 += name0;
    id1 += name1;
    archive::game_origin origin{id, "k3x9abqz", "Friday night", {{{id0, name0}, {id1, name1}}},
                                1'760'000'000'000, 1'760'000'000'900};
    return archive::make_game_record(std::move(origin), g);
}

archive::game_record resigned_game(const std::string& id)
{
    clock_settings untimed;
    untimed.move.reset();
    rules beginner;
    beginner.attributes = attribute_set{}.with(attribute::color).with(attribute::fill);
    game g{beginner, untimed, 1, at_ms(0)};
    REQUIRE(g.give(1, pc(15), at_ms(10)).ok());
    REQUIRE(g.place(0, 9, at_ms(20)).ok());
    REQUIRE(g.resign(1, at_ms(30)).ok());
    archive::game_origin origin{id, "room2", "Zoë's room", {{{"pz", "Zoë"}, {"pc", "Cy"}}}, 5, 6};
    return archive::make_game_record(std::move(origin), g);
}

archive::game_record drawn_game(const std::string& id)
{
    rules colour_only;
    colour_only.attributes = attribute_set{}.with(attribute::color);
    game g{colour_only, clock_settings{}, 0, at_ms(0)};
    // Dark pieces (odd codes) on these squares, light ones on the others: every row, column and
    // diagonal holds two of each.
    constexpr std::array<int, 8> dark_squares{0, 1, 6, 7, 8, 9, 14, 15};
    constexpr std::array<int, 8> light_squares{2, 3, 4, 5, 10, 11, 12, 13};
    seat giver = 0;
    std::int64_t t = 0;
    for (int code = 0; code < 16; ++code) {
        const int where = (code % 2 == 1) ? dark_squares[static_cast<std::size_t>(code / 2)]
                                          : light_squares[static_cast<std::size_t>(code / 2)];
        REQUIRE(g.give(giver, pc(code), at_ms(t += 40)).ok());
        REQUIRE(g.place(opponent(giver), static_cast<square>(where), at_ms(t += 70)).ok());
        giver = opponent(giver);
    }
    REQUIRE(g.pass(giver, at_ms(t += 50)).ok());
    REQUIRE(g.pass(opponent(giver), at_ms(t += 60)).ok());
    REQUIRE(g.finished());
    archive::game_origin origin{id, "room3", "Draws only", {{{"pa", "Ann"}, {"pd", "Dee"}}}, 7'000, 7'000 + t};
    return archive::make_game_record(std::move(origin), g);
}

archive::game_record timed_out_game(const std::string& id)
{
    const clock_settings clock{milliseconds{10'000}, milliseconds{3'000}};
    game g{rules{}, clock, 0, at_ms(0)};
    g.expire(at_ms(10'001));
    REQUIRE(g.finished());
    archive::game_origin origin{id, "room4", "", {{{"pe", "Eve"}, {"pb", "Bo"}}}, 9'000, 19'000};
    return archive::make_game_record(std::move(origin), g);
}

archive::sqlite_store open_sqlite(const std::string& path)
{
    auto opened = archive::sqlite_store::open(path);
    if (const auto* e = std::get_if<archive::open_error>(&opened)) FAIL("open " << path << ": " << e->message);
    return std::move(std::get<archive::sqlite_store>(opened));
}

std::string sql_text(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    const int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
    std::string text;
    bool ok = rc == SQLITE_OK;
    std::string error = ok ? "" : sqlite3_errmsg(db);
    if (ok) {
        const int step = sqlite3_step(s);
        if (step == SQLITE_ROW && sqlite3_column_text(s, 0))
            text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        ok = step == SQLITE_ROW || step == SQLITE_DONE;
        if (!ok) error = sqlite3_errmsg(db);
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    REQUIRE_MESSAGE(ok, sql << ": " << error);
    return text;
}

void sql_exec(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE_MESSAGE(rc == SQLITE_OK, sql << ": " << message);
}

namespace {

std::string postgres_query(const std::string& address, const std::string& sql)
{
    PGconn* c = PQconnectdb(address.c_str());
    PGresult* r = PQexec(c, sql.c_str());
    const auto status = PQresultStatus(r);
    const bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    const std::string error = PQerrorMessage(c);
    std::string text = ok && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
    PQclear(r);
    PQfinish(c);
    REQUIRE_MESSAGE(ok, sql << ": " << error);
    return text;
}

} // namespace

void each_engine(const std::function<void(const engine&)>& body)
{
    scratch_dir dir;
    int files = 0;
    const engine sqlite{"sqlite", [&] { return dir.file("quarto-" + std::to_string(++files) + ".db"); },
                        [](const std::string& path, const std::string& sql) {
                            if (sql.starts_with("SELECT")) return sql_text(path, sql);
                            sql_exec(path, sql);
                            return std::string{};
                        }};
    const engine postgres{"postgresql", [] { return test_postgres::shared_postgres().fresh_database(); }, postgres_query};
    for (const engine* e : {&sqlite, &postgres}) {
        CAPTURE(e->name);
        body(*e);
    }
}

} // namespace archive_tests

doctest::String doctest::StringMaker<quarto::archive::game_record>::convert(const quarto::archive::game_record& r)
{
    return quarto::archive::game_json(r).dump().c_str();
}
