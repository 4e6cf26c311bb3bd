// The tools' command line: what it reads. What it refuses ends the program, so those cases are
// ctest entries that run quarto-chaos and quarto-load (tests/tools/CMakeLists.txt).
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "command_line.hpp"

using quarto::tools::command_line;

namespace {

// The options `line` reads from `args`, by name.
std::map<std::string, std::string> read(const command_line& line, std::vector<std::string> args)
{
    args.insert(args.begin(), "tool");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::map<std::string, std::string> seen;
    line.parse(static_cast<int>(argv.size()), argv.data(), {"idle"}, [&](const std::string& name, const std::string& value) {
        seen[name] = value;
        return true;
    });
    return seen;
}

} // namespace

TEST_CASE("options take the next argument or what follows their '=', flags take nothing")
{
    const command_line line{"tool", "usage: tool\n"};
    const auto seen = read(line, {"--rooms", "10", "--idle", "--url=ws://127.0.0.1:1/ws", "--json", "--idle"});
    CHECK(seen.size() == 4);
    CHECK(seen.at("rooms") == "10");
    CHECK(seen.at("idle").empty());
    CHECK(seen.at("url") == "ws://127.0.0.1:1/ws");
    CHECK(seen.at("json") == "--idle"); // a value, even when it looks like a flag
    CHECK(read(line, {}).empty());
}

TEST_CASE("numbers within their bounds")
{
    const command_line line{"tool", "usage: tool\n"};
    CHECK(line.number("rooms", "1000", 1, 1e6) == 1000);
    CHECK(line.number("think-ms", "0", 0, 3.6e6) == 0);
    CHECK(line.number("storm-share", "0.25", 0, 1) == 0.25);
}

TEST_CASE("the server's URL: an IP address, a port and a path")
{
    const command_line line{"tool", "usage: tool\n"};
    const auto v4 = line.url("ws://127.0.0.1:8080/ws");
    CHECK(v4.endpoint.address().to_string() == "127.0.0.1");
    CHECK(v4.endpoint.port() == 8080);
    CHECK(v4.host_header == "127.0.0.1:8080");
    CHECK(v4.path == "/ws");

    const auto v6 = line.url("ws://[::1]:9000");
    CHECK(v6.endpoint.address().to_string() == "::1");
    CHECK(v6.endpoint.port() == 9000);
    CHECK(v6.host_header == "[::1]:9000");
    CHECK(v6.path == "/");
}
