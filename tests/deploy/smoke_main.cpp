// quarto-smoke: plays one short game through a deployed quarto-server, as both players, over
// ws:// or wss:// (through a TLS reverse proxy, say); then, if asked, keeps both connections
// open until the server goes away and reports the close code it sent. deploy/test.sh drives
// it against the container image and nginx; tests/deploy/smoke.sh against a local server.
//
//   quarto-smoke --url wss://localhost:8443/ws --ca cert.pem --wait-close 60 --expect-close 1012
//
// Prints one line per stage on stdout ("game over: ..." once the game has ended) and exits 0
// when everything expected happened, 1 otherwise, 2 for a bad command line.
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bot_player.hpp"
#include "client_messages.hpp"
#include "ws_link.hpp"

namespace quarto::smoke {
namespace {

using json = nlohmann::json;

struct options {
    ws_url url;
    std::string url_text;
    std::string ca_file;  // trust this certificate (or CA) for wss://, besides the system's
    std::string origin;   // sent as Origin when not empty
    int wait_close = 0;   // seconds to wait after the game for the server to close; 0: close ourselves
    std::optional<int> expect_close;
    int timeout = 30;     // seconds for connecting and playing
    std::uint64_t seed = std::random_device{}();
    bool verbose = false; // every message, sent and received, on stderr
};

const char* const usage = R"(Usage: quarto-smoke --url ws[s]://HOST[:PORT]/ws [options]
  --ca FILE            trust this PEM certificate or CA for wss:// (besides the system store)
  --origin ORIGIN      send this Origin header (as a browser page from ORIGIN would)
  --timeout SECONDS    limit for connecting and playing the game (default 30)
  --wait-close SECONDS after the game, keep the connections open until the server closes
                       them, at most this long (default 0: close them ourselves)
  --expect-close CODE  fail unless the server closed both connections with this code
  --seed N             seed of the players' random moves
  --verbose            print every message sent and received on stderr
)";

std::optional<int> integer(const std::string& text)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::optional<options> parse(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help") {
            std::cout << usage;
            std::exit(0);
        }
        if (flag == "--verbose") {
            o.verbose = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::cerr << "quarto-smoke: " << flag << " needs a value\n";
            return std::nullopt;
        }
        const std::string value = argv[++i];
        const auto number = integer(value);
        if (flag == "--url") {
            const auto url = parse_ws_url(value);
            if (!url) {
                std::cerr << "quarto-smoke: --url must be ws://... or wss://..., got '" << value << "'\n";
                return std::nullopt;
            }
            o.url = *url;
            o.url_text = value;
        } else if (flag == "--ca") {
            o.ca_file = value;
        } else if (flag == "--origin") {
            o.origin = value;
        } else if ((flag == "--timeout" || flag == "--wait-close") && number && *number >= 0 && *number <= 3600) {
            (flag == "--timeout" ? o.timeout : o.wait_close) = *number;
        } else if (flag == "--expect-close" && number && *number >= 1000 && *number <= 4999) {
            o.expect_close = *number;
        } else if (flag == "--seed" && number) {
            o.seed = static_cast<std::uint64_t>(*number);
        } else {
            std::cerr << "quarto-smoke: bad option or value: " << flag << " " << value << "\n";
            return std::nullopt;
        }
    }
    if (o.url_text.empty()) {
        std::cerr << "quarto-smoke: --url is required\n" << usage;
        return std::nullopt;
    }
    return o;
}

// Two players in one room, each with a bot that plays random legal moves (and calls every
// Quarto it makes) from its own copy of the game, kept from the server's events.
class smoke_game {
public:
    smoke_game(net::io_context& ioc, ssl::context& tls, const options& o) : ioc_{ioc}, options_{o}, deadline_{ioc}
    {
        for (int i = 0; i < 2; ++i) {
            players_[i].name = i == 0 ? "Smoke A" : "Smoke B";
            players_[i].link = std::make_shared<ws_link>(ioc, tls, o.url, o.origin);
        }
    }

    int run()
    {
        arm(options_.timeout, "connecting and playing");
        for (int i = 0; i < 2; ++i) {
            players_[i].link->start([this, i](const std::string& error) { on_open(i, error); },
                                    [this, i](const std::string& text) { on_message(i, text); },
                                    [this, i](const ws_link::close_info& info) { on_close(i, info); });
        }
        ioc_.run();
        return failed_ ? 1 : 0;
    }

private:
    struct player {
        std::string name;
        std::shared_ptr<ws_link> link;
        std::optional<load::bot_player> bot;
        bool welcomed = false;
        bool in_flight = false; // an action sent, its event not yet back
        bool game_over = false;
        std::optional<ws_link::close_info> closed;
    };

    void arm(int seconds, std::string stage)
    {
        stage_ = std::move(stage);
        deadline_.expires_after(std::chrono::seconds(seconds));
        deadline_.async_wait([this](const beast::error_code& ec) {
            if (!ec) fail("timed out " + stage_);
        });
    }

    void say(const std::string& line) { std::cout << line << std::endl; }

    void fail(const std::string& why)
    {
        if (failed_) return;
        failed_ = true;
        std::cout << "FAILED: " << why << std::endl;
        ioc_.stop();
    }

    void on_open(int i, const std::string& error)
    {
        if (!error.empty()) return fail(players_[i].name + ": " + error);
        send(i, load::hello_message(players_[i].name));
        if (++opened_ == 2) say("connected: 2 players to " + options_.url_text);
    }

    void on_message(int i, const std::string& text)
    {
        player& p = players_[i];
        if (options_.verbose) std::cerr << p.name << " <- " << text << "\n";
        const json m = json::parse(text, nullptr, false);
        if (m.is_discarded() || !m.is_object()) return fail(p.name + ": not a JSON object: " + text);
        const std::string type = m.value("type", "");
        if (type == "error") return fail(p.name + ": server error: " + text);
        if (type == "welcome") {
            p.welcomed = true;
            if (i == 0) send(i, load::create_room_message("smoke test"));
            else join_second();
        } else if (type == "room_created") {
            room_ = m.value("room", "");
            join_second();
        } else if (type == "room") {
            const int seat = m.contains("you") && m["you"].is_object() ? m["you"].value("seat", -1) : -1;
            if (seat != 0 && seat != 1) return fail(p.name + ": no seat in " + text);
            p.bot.emplace(static_cast<quarto::seat>(seat), options_.seed * 2 + static_cast<std::uint64_t>(i));
        } else if (type == "game_started") {
            if (!p.bot) return fail(p.name + ": game_started before the room snapshot");
            p.bot->on_game_started(static_cast<quarto::seat>(m.value("first", 0)));
            if (i == 0) say("room " + room_ + ": game started");
            act(i);
        } else if (type == "given" || type == "placed" || type == "passed") {
            if (!p.bot) return fail(p.name + ": " + type + " before the room snapshot");
            const int by = m.value("seat", -1);
            if (by != 0 && by != 1) return fail(p.name + ": no seat in " + text);
            const auto who = static_cast<quarto::seat>(by);
            bool fits = false;
            if (type == "given") fits = p.bot->on_given(who, static_cast<std::uint8_t>(m.value("piece", 99)));
            else if (type == "placed") fits = p.bot->on_placed(who, static_cast<std::uint8_t>(m.value("square", 99)));
            else fits = p.bot->on_passed(who);
            if (!fits) return fail(p.name + ": the event does not fit the game: " + text);
            if (who == p.bot->me()) p.in_flight = false;
            if (i == 0) ++moves_;
            act(i);
        } else if (type == "game_over") {
            p.game_over = true;
            if (p.bot) p.bot->on_game_over();
            if (i == 0) summary_ = m.value("result", "?") + " by " + m.value("reason", "?");
            if (players_[0].game_over && players_[1].game_over) finished_game();
        }
    }

    // The second player joins once it has been welcomed and the room exists, in either order.
    void join_second()
    {
        if (players_[1].welcomed && !room_.empty()) send(1, load::join_message(room_, false));
    }

    void send(int i, std::string text)
    {
        if (options_.verbose) std::cerr << players_[i].name << " -> " << text << "\n";
        players_[i].link->send(std::move(text));
    }

    void act(int i)
    {
        player& p = players_[i];
        if (p.in_flight) return;
        const auto next = p.bot->next_action();
        if (!next) return;
        p.in_flight = true;
        send(i, load::action_message(room_, *next));
    }

    void finished_game()
    {
        say("game over: " + summary_ + " after " + std::to_string(moves_) + " moves");
        if (options_.wait_close == 0) {
            deadline_.cancel();
            for (auto& p : players_) p.link->close();
            return;
        }
        say("waiting up to " + std::to_string(options_.wait_close) + " s for the server to close the connections");
        arm(options_.wait_close, "waiting for the server to close the connections");
    }

    void on_close(int i, const ws_link::close_info& info)
    {
        player& p = players_[i];
        p.closed = info;
        const bool game_done = players_[0].game_over && players_[1].game_over;
        if (!game_done) return fail(p.name + ": connection lost during the game: " + describe(info));
        if (!players_[0].closed || !players_[1].closed) return;
        deadline_.cancel();
        if (options_.wait_close == 0) return say("closed by us");
        const auto& a = *players_[0].closed;
        const auto& b = *players_[1].closed;
        say("closed by the server: " + describe(a) + (describe(a) == describe(b) ? " (both)" : ", and " + describe(b)));
        if (options_.expect_close && (a.code != options_.expect_close || b.code != options_.expect_close))
            fail("expected close code " + std::to_string(*options_.expect_close));
    }

    static std::string describe(const ws_link::close_info& info)
    {
        if (!info.code) return "no close frame (" + info.error + ")";
        return std::to_string(*info.code) + (info.reason.empty() ? "" : " '" + info.reason + "'");
    }

    net::io_context& ioc_;
    const options& options_;
    net::steady_timer deadline_; // the current stage's limit
    std::string stage_;
    player players_[2];
    std::string room_;
    std::string summary_;
    int opened_ = 0;
    int moves_ = 0;
    bool failed_ = false;
};

} // namespace
} // namespace quarto::smoke

int main(int argc, char** argv)
{
    using namespace quarto::smoke;
    const auto parsed = parse(argc, argv);
    if (!parsed) return 2;
    try {
        ssl::context tls{ssl::context::tls_client};
        tls.set_default_verify_paths();
        if (!parsed->ca_file.empty()) tls.load_verify_file(parsed->ca_file);
        net::io_context ioc{1};
        smoke_game game{ioc, tls, *parsed};
        return game.run();
    } catch (const std::exception& e) {
        std::cout << "FAILED: " << e.what() << std::endl;
        return 1;
    }
}
