// The command line of quarto-server.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <spdlog/common.h>

namespace quarto::server {

struct config {
    std::string host = "0.0.0.0";
    std::uint16_t port = 8080;
    unsigned threads = 0; // 0: one per core
    std::string web_root;
    spdlog::level::level_enum log_level = spdlog::level::info;
    std::size_t max_message_bytes = 4096;
    double rate_limit = 20;   // messages per second per connection
    double rate_burst = 40;   // bucket size
    std::chrono::seconds room_idle{600};  // finished or deserted rooms are reclaimed after this
    std::size_t max_connections_per_address = 0; // 0: no cap
    std::string db_path = "data/quarto.db"; // the archive of finished games (SQLite), made on first run
};

struct usage_request {};               // --help
struct config_error { std::string message; };

std::variant<config, usage_request, config_error> parse_command_line(const std::vector<std::string>& args);
std::string usage_text();

} // namespace quarto::server
