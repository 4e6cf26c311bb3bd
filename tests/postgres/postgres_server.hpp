// A PostgreSQL server of the tests' own: a cluster made by Debian's initdb in a scratch
// directory, listening on a Unix socket in it only (no TCP port, so nothing else can reach
// it), started with pg_ctl and stopped by its postmaster's PID at the end. As root (CI), the
// cluster belongs to the `postgres` user the package creates, since PostgreSQL refuses root.
#pragma once

#include <string>

namespace test_postgres {

class postgres_server {
public:
    postgres_server(); // throws std::runtime_error with the tools' output when it cannot start
    ~postgres_server();
    postgres_server(const postgres_server&) = delete;
    postgres_server& operator=(const postgres_server&) = delete;

    // A database made for the caller, empty: its address for libpq.
    std::string fresh_database();
    // Stops and starts the server again (the stores' connections break).
    void restart();
    // Stops it (connections break, new ones are refused), and starts it again.
    void stop();
    void start();

private:
    std::string run(const std::string& command) const; // as the cluster's owner; throws on failure

    std::string dir_, bin_, owner_;
    int databases_ = 0;
};

// One server for the whole test binary, started on first use.
postgres_server& shared_postgres();

} // namespace test_postgres
