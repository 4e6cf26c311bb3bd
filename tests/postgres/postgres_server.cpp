#include "postgres_server.hpp"

#include <pwd.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <libpq-fe.h>

namespace test_postgres {
namespace {

// Debian installs the server's programs under /usr/lib/postgresql/VERSION/bin.
std::string find_bin()
{
    std::string best;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator{"/usr/lib/postgresql", ec})
        if (std::filesystem::exists(e.path() / "bin" / "initdb") && e.path().string() > best) best = e.path().string();
    if (best.empty()) throw std::runtime_error("no PostgreSQL server under /usr/lib/postgresql (deploy/deps.sh installs it)");
    return best + "/bin";
}

std::string shell_quoted(const std::string& s)
{
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
    return out + "'";
}

} // namespace

postgres_server::postgres_server() : bin_{find_bin()}
{
    std::string pattern = (std::filesystem::temp_directory_path() / "quarto-postgres-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    if (::geteuid() == 0) {
        const passwd* pw = ::getpwnam("postgres");
        if (!pw) throw std::runtime_error("running as root and there is no postgres user to own the test cluster");
        owner_ = "postgres";
        if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) throw std::runtime_error("chown of the test cluster failed");
    }
    // No fsync: a test cluster need not survive a power cut, and it makes the tests fast.
    run(shell_quoted(bin_ + "/initdb") + " --no-sync -A trust -U quarto -E UTF8 --locale=C -D " + shell_quoted(dir_ + "/data"));
    start();
}

postgres_server::~postgres_server()
{
    try {
        stop();
    } catch (...) {
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

std::string postgres_server::run(const std::string& command) const
{
    const std::string full = (owner_.empty() ? command : "runuser -u " + owner_ + " -- " + command) + " 2>&1";
    FILE* pipe = ::popen(full.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run " + command);
    std::string output;
    std::array<char, 4096> buffer{};
    while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    if (status != 0) throw std::runtime_error(command + " failed:\n" + output);
    return output;
}

void postgres_server::start()
{
    // listen_addresses '' : the Unix socket in the scratch directory only.
    const std::string options = "-c listen_addresses='' -k " + dir_ + " -c fsync=off -c full_page_writes=off";
    run(shell_quoted(bin_ + "/pg_ctl") + " -w -t 60 -D " + shell_quoted(dir_ + "/data") + " -l " +
        shell_quoted(dir_ + "/server.log") + " -o " + shell_quoted(options) + " start");
}

void postgres_server::stop()
{
    run(shell_quoted(bin_ + "/pg_ctl") + " -w -t 60 -D " + shell_quoted(dir_ + "/data") + " -m fast stop");
}

void postgres_server::restart()
{
    stop();
    start();
}

std::string postgres_server::fresh_database()
{
    const std::string name = "test_" + std::to_string(++databases_);
    const std::string admin = "postgresql:///postgres?host=" + dir_ + "&user=quarto";
    PGconn* c = PQconnectdb(admin.c_str());
    PGresult* r = PQexec(c, ("CREATE DATABASE " + name).c_str());
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    const std::string error = PQerrorMessage(c);
    PQclear(r);
    PQfinish(c);
    if (!ok) throw std::runtime_error("CREATE DATABASE " + name + " failed: " + error);
    return "postgresql:///" + name + "?host=" + dir_ + "&user=quarto";
}

postgres_server& shared_postgres()
{
    static postgres_server server;
    return server;
}

} // namespace test_postgres
