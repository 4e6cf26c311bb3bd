// quarto-chaos's command line.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "command_line.hpp"

namespace quarto::chaos {

struct options {
    std::string url = "ws://127.0.0.1:8080/ws";
    tools::ws_target server; // read from url
    double duration_s = 600; // the attack, warm-up included
    double warmup_s = 60;    // then the RSS reference is taken
    double settle_s = 15;    // after the attackers have gone, before the end RSS
    int connections = 2000;  // attackers alive at once
    int honest_rooms = 8;
    pid_t server_pid = 0; // 0: the process listening on the URL's port
    std::uint64_t seed = 1;
    std::string json_path;
    std::size_t max_message_bytes = 4096; // the server's --max-message-bytes
    int honest_move_ms = 5000;
    double clock_tolerance_ms = 1500;
    double connect_rate = 200; // new attackers per second, at most
    double storm_every_s = 60; // 0: no storms
    double storm_share = 0.25;
    int storm_resumes = 300;
    double max_life_s = 150;
    double rss_tolerance = 0.10;
    std::string attack_source = "127.0.0.1";
    std::string honest_source = "127.0.0.2";
    std::string pair_source = "127.0.0.3";
};

// Exits with status 2 and the usage on a bad command line (a bad --url too), 0 on --help.
options parse_options(int argc, char** argv);

} // namespace quarto::chaos
