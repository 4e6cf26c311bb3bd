// The command line and QUARTO_* environment (server/config). The input is split at newlines:
// every line is offered as an environment entry (quarto_environment keeps the QUARTO_NAME=VALUE
// ones), and the lines that do not start with QUARTO_ are the arguments, in order. Whatever
// parse_command_line returns, a config must be within the ranges the flags document, since the
// server uses it without checking again.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "config/config.hpp"
#include "config/origin.hpp"

using namespace quarto::server;

namespace {

void check_config(const config& c)
{
    FUZZ_CHECK(!c.host.empty() && !c.db_path.empty());
    FUZZ_CHECK(c.threads >= 1 && c.threads <= 256);
    FUZZ_CHECK(c.max_message_bytes >= 64 && c.max_message_bytes <= (16u << 20));
    FUZZ_CHECK(c.rate_limit > 0 && c.rate_limit <= 1e9 && c.rate_burst > 0 && c.rate_burst <= 1e9);
    FUZZ_CHECK(c.room_idle.count() >= 1);
    FUZZ_CHECK(c.shutdown_grace.count() >= 0 && c.shutdown_grace.count() <= 3'600'000);
    for (std::size_t i = 0; i < c.allowed_origins.size(); ++i) {
        const std::string& origin = c.allowed_origins[i];
        FUZZ_CHECK(normalize_origin(origin) == origin); // stored normalized, so compared as is
        for (std::size_t j = 0; j < i; ++j) FUZZ_CHECK(c.allowed_origins[j] != origin);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::vector<std::string> lines(1);
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') lines.emplace_back();
        else lines.back() += static_cast<char>(data[i]);
    }
    std::vector<std::string> args;
    std::vector<char*> envp;
    for (auto& line : lines) {
        envp.push_back(line.data()); // environment strings end at their first NUL, as in environ
        if (!line.starts_with("QUARTO_")) args.push_back(line);
    }
    envp.push_back(nullptr);

    std::vector<std::string> ignored;
    const auto result = parse_command_line(args, quarto_environment(envp.data()), &ignored);
    if (const auto* c = std::get_if<config>(&result)) check_config(*c);
    if (const auto* e = std::get_if<config_error>(&result)) FUZZ_CHECK(!e->message.empty());
    return 0;
}
