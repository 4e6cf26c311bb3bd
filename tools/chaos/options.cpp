#include "options.hpp"

namespace quarto::chaos {

namespace {

const char* usage = R"(usage: quarto-chaos [options]
A chaos soak: thousands of misbehaving connections against a running quarto-server for a bounded
time while a few honest rooms play; checks the honest games, the server's survival and its memory.
  --url URL                ws://HOST:PORT/PATH of the server, HOST an IP (default ws://127.0.0.1:8080/ws)
  --duration SECONDS       how long the attack lasts, warm-up included (default 600)
  --warmup SECONDS         the server's RSS at its end is the reference (default 60)
  --settle SECONDS         pause after the attackers have gone, before the end RSS (default 15)
  --connections N          attackers alive at once (default 2000)
  --honest-rooms N         rooms of two honest players (default 8)
  --server-pid PID         the server process (default: the one listening on the URL's port)
  --seed N                 random seed (default 1)
  --json FILE              also write a summary as JSON
  --max-message-bytes N    the server's --max-message-bytes (default 4096)
  --honest-move-ms MS      the honest rooms' move clock (default 5000)
  --clock-tolerance-ms MS  how far a clock may be from what the honest players measure (default 1500)
  --connect-rate N         new attackers per second at most (default 200)
  --storm-every SECONDS    a reset and reconnect storm this often after the warm-up (default 60; 0: none)
  --storm-share F          share of the live attackers a storm resets (default 0.25)
  --storm-resumes N        resumes with tokens a storm starts at once (default 300)
  --max-life SECONDS       an attacker still alive this long is stopped (default 150)
  --rss-tolerance F        the end RSS may exceed the post-warm-up RSS by this share (default 0.10)
  --attack-source ADDR     attackers' address (default 127.0.0.1: they meet the per-address caps)
  --honest-source ADDR     honest players' address (default 127.0.0.2)
  --pair-source ADDR       the drop/resume pairs' address (default 127.0.0.3)
  --help                   this text
Exit status: 0 all is well; 1 an honest game went wrong, the server died or its RSS did not come
back; 2 a bad command line.
)";

} // namespace

options parse_options(int argc, char** argv)
{
    const tools::command_line line{"quarto-chaos", usage};
    const auto number = [&](const std::string& name, const std::string& value, double low, double high) {
        return line.number(name, value, low, high);
    };
    options o;
    line.parse(argc, argv, {}, [&](const std::string& name, const std::string& value) {
        if (name == "url") o.url = value;
        else if (name == "duration") o.duration_s = number(name, value, 1, 1e6);
        else if (name == "warmup") o.warmup_s = number(name, value, 5, 1e6);
        else if (name == "settle") o.settle_s = number(name, value, 5, 3600);
        else if (name == "connections") o.connections = static_cast<int>(number(name, value, 0, 1e6));
        else if (name == "honest-rooms") o.honest_rooms = static_cast<int>(number(name, value, 1, 1000));
        else if (name == "server-pid") o.server_pid = static_cast<pid_t>(number(name, value, 1, 1e9));
        else if (name == "seed") o.seed = static_cast<std::uint64_t>(number(name, value, 0, 1e15));
        else if (name == "json") o.json_path = value;
        else if (name == "max-message-bytes")
            o.max_message_bytes = static_cast<std::size_t>(number(name, value, 64, 16777216));
        else if (name == "honest-move-ms") o.honest_move_ms = static_cast<int>(number(name, value, 1000, 3.6e6));
        else if (name == "clock-tolerance-ms") o.clock_tolerance_ms = number(name, value, 1, 1e6);
        else if (name == "connect-rate") o.connect_rate = number(name, value, 1, 1e6);
        else if (name == "storm-every") o.storm_every_s = number(name, value, 0, 1e6);
        else if (name == "storm-share") o.storm_share = number(name, value, 0, 1);
        else if (name == "storm-resumes") o.storm_resumes = static_cast<int>(number(name, value, 0, 1e5));
        else if (name == "max-life") o.max_life_s = number(name, value, 10, 1e6);
        else if (name == "rss-tolerance") o.rss_tolerance = number(name, value, 0, 10);
        else if (name == "attack-source") o.attack_source = value;
        else if (name == "honest-source") o.honest_source = value;
        else if (name == "pair-source") o.pair_source = value;
        else return false;
        return true;
    });
    if (o.warmup_s + 5 > o.duration_s) line.bad("--warmup must end at least 5 s before --duration");
    o.server = line.url(o.url);
    return o;
}

} // namespace quarto::chaos
