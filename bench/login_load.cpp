// login_load: logins at a steady rate against a running quarto-server, for bench/logins.sh.
// With --sign-up it first makes --accounts accounts one after another (POST /api/accounts);
// with --rate R it then logs them in (POST /api/sessions, each account's right password, the
// accounts in turn) R times a second on a fixed schedule, for --duration seconds or until SIGINT
// or SIGTERM: an open loop, so a slow answer never delays the next login, over keep-alive
// connections opened as needed.
// Each login is timed from when it was due to its answer; the answers are counted by status
// (200, 401, 429, any other, none) and everything is printed as one JSON object.
//   build/release/bin/login_load --port 8080 --accounts 20 --sign-up
//   build/release/bin/login_load --port 8080 --accounts 20 --rate 20 --duration 20 --json logins.json
//   build/release/bin/login_load --port 8080 --rate 20 & ... ; kill -INT $!    logins until stopped
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <nlohmann/json.hpp>

#include "command_line.hpp"
#include "histogram.hpp"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using steady = std::chrono::steady_clock;
using quarto::load::histogram;

struct options {
    tcp::endpoint server{net::ip::make_address("127.0.0.1"), 0};
    int accounts = 20;
    std::string prefix = "loginbench";
    std::string password = "a long enough password";
    bool sign_up = false;
    double rate = 0;
    double duration_s = 0; // 0: until a signal
    double drain_s = 30;
    std::string json_path;
};

const char* usage = R"(usage: login_load --port N [options]
  --host IP           the server's address (default 127.0.0.1)
  --port N            the server's port
  --accounts N        accounts named PREFIX0 .. PREFIX(N-1), all with --password (default 20)
  --prefix NAME       the accounts' names before their number (default loginbench)
  --password TEXT     their password (default "a long enough password")
  --sign-up           make the accounts first, one after another (POST /api/accounts; a 429 is
                      waited out and tried again)
  --rate R            then log in R times a second, the accounts in turn (default 0: no logins)
  --duration S        for S seconds (default 0: until SIGINT or SIGTERM)
  --drain S           then wait at most S seconds for the answers still due (default 30)
  --json FILE         write the JSON there too (it always goes to stdout)
  --help              this text
)";

options parse(int argc, char** argv)
{
    const quarto::tools::command_line line{"login_load", usage};
    options o;
    bool port_given = false;
    line.parse(argc, argv, {"sign-up"}, [&](const std::string& name, const std::string& value) {
        if (name == "sign-up") o.sign_up = true;
        else if (name == "host") {
            boost::system::error_code ec;
            o.server.address(net::ip::make_address(value, ec));
            if (ec) line.bad("--host must be an IP address");
        } else if (name == "port") {
            o.server.port(static_cast<unsigned short>(line.number(name, value, 1, 65535)));
            port_given = true;
        } else if (name == "accounts") o.accounts = static_cast<int>(line.number(name, value, 1, 100000));
        else if (name == "prefix") o.prefix = value;
        else if (name == "password") o.password = value;
        else if (name == "rate") o.rate = line.number(name, value, 0, 100000);
        else if (name == "duration") o.duration_s = line.number(name, value, 0, 1e6);
        else if (name == "drain") o.drain_s = line.number(name, value, 0, 1e6);
        else if (name == "json") o.json_path = value;
        else return false;
        return true;
    });
    if (!port_given) line.bad("--port is required");
    return o;
}

std::string host_header(const tcp::endpoint& e)
{
    const std::string host = e.address().to_string();
    return (e.address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(e.port());
}

http::request<http::string_body> post(const options& o, const char* target, int account)
{
    http::request<http::string_body> req{http::verb::post, target, 11};
    req.set(http::field::host, host_header(o.server));
    req.set(http::field::content_type, "application/json");
    req.keep_alive(true);
    req.body() = nlohmann::json{{"name", o.prefix + std::to_string(account)}, {"password", o.password}}.dump();
    req.prepare_payload();
    return req;
}

nlohmann::ordered_json in_ms(const histogram& h)
{
    const auto ms = [](std::uint64_t ns) { return static_cast<double>(ns) / 1e6; };
    return {{"samples", h.count()}, {"p50", ms(h.percentile(50))}, {"p90", ms(h.percentile(90))},
            {"p99", ms(h.percentile(99))}, {"max", ms(h.max())}};
}

// The accounts, one request at a time on one connection. A 429 (the hashing queue full, which
// one request at a time should never meet) is waited out and tried again.
nlohmann::ordered_json sign_up(const options& o)
{
    net::io_context io;
    beast::tcp_stream stream{io};
    stream.connect(o.server);
    beast::flat_buffer buffer;
    std::uint64_t created = 0, existed = 0, retried = 0;
    std::map<std::string, std::uint64_t> other;
    const auto start = steady::now();
    for (int i = 0; i < o.accounts; ++i) {
        for (int attempt = 0;; ++attempt) {
            auto req = post(o, "/api/accounts", i);
            http::write(stream, req);
            http::response<http::string_body> res;
            http::read(stream, buffer, res);
            if (!res.keep_alive()) {
                stream.close();
                stream.connect(o.server);
            }
            if (res.result() == http::status::too_many_requests && attempt < 30) {
                ++retried;
                std::this_thread::sleep_for(std::chrono::seconds{1});
                continue;
            }
            if (res.result() == http::status::created) ++created;
            else if (res.result() == http::status::conflict) ++existed;
            else ++other[std::to_string(res.result_int())];
            break;
        }
    }
    return {{"accounts", o.accounts}, {"created", created}, {"existed", existed}, {"retried_after_429", retried},
            {"other", other}, {"seconds", std::chrono::duration<double>(steady::now() - start).count()}};
}

// The logins: one due every 1/rate s from the start, each on an idle keep-alive connection or
// a new one. A reused connection that the server had closed meanwhile fails before any answer;
// that login is sent again once on a new connection, from its first due time. Once the last is
// sent (the duration is over, or stop()), the answers still due are awaited for --drain seconds.
class login_run {
public:
    login_run(net::io_context& io, const options& o)
        : io_{io}, options_{o}, period_{std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(1.0 / o.rate))},
          total_{o.duration_s > 0 ? static_cast<std::uint64_t>(o.rate * o.duration_s + 0.5) : UINT64_MAX}, pacer_{io}, drain_{io}
    {
    }

    // `finished` is called once every login has its answer or has been given up on.
    void start(std::function<void()> finished)
    {
        finished_ = std::move(finished);
        start_ = steady::now();
        pace();
    }

    // No more logins; the ones sent are awaited.
    void stop()
    {
        if (sent_ == total_) return;
        total_ = sent_;
        pacer_.cancel();
        last_sent();
    }

    nlohmann::ordered_json report() const
    {
        const double seconds = static_cast<double>(sent_) / options_.rate; // the schedule's span
        return {{"rate_per_s", options_.rate},
                {"seconds", seconds},
                {"sent", sent_},
                {"ok", ok_},
                {"wrong_credentials", wrong_},
                {"rate_limited", refused_},
                {"other", other_},
                {"failed", failed_},
                {"unanswered", unanswered_},
                {"ok_per_s", seconds > 0 ? static_cast<double>(ok_) / seconds : 0.0},
                {"connections_opened", opened_},
                {"most_in_flight", most_in_flight_},
                {"latency_ms", {{"all", in_ms(all_)}, {"ok", in_ms(ok_latency_)}, {"rate_limited", in_ms(refused_latency_)}}}};
    }

private:
    struct connection {
        explicit connection(net::io_context& io) : stream{io} {}
        beast::tcp_stream stream;
        beast::flat_buffer buffer;
        http::request<http::string_body> req;
        http::response<http::string_body> res;
        bool open = false;
    };
    using connection_ptr = std::shared_ptr<connection>;

    void pace()
    {
        const auto now = steady::now();
        for (; sent_ < total_ && start_ + period_ * static_cast<steady::rep>(sent_) <= now; ++sent_)
            launch(static_cast<int>(sent_ % static_cast<std::uint64_t>(options_.accounts)),
                   start_ + period_ * static_cast<steady::rep>(sent_), false);
        if (sent_ == total_) return last_sent();
        pacer_.expires_at(start_ + period_ * static_cast<steady::rep>(sent_));
        pacer_.async_wait([this](beast::error_code ec) {
            if (!ec) pace();
        });
    }

    void launch(int account, steady::time_point due, bool retry)
    {
        connection_ptr c;
        if (!retry && !idle_.empty()) {
            c = idle_.back();
            idle_.pop_back();
        } else {
            c = std::make_shared<connection>(io_);
        }
        in_flight_.insert(c);
        most_in_flight_ = std::max<std::uint64_t>(most_in_flight_, in_flight_.size());
        c->req = post(options_, "/api/sessions", account);
        c->res = {};
        const bool reused = c->open;
        if (reused) return send(c, account, due, reused, retry);
        ++opened_;
        c->stream.async_connect(options_.server, [this, c, account, due, retry](beast::error_code ec) {
            if (ec) return done(c, account, due, ec, false, retry);
            c->open = true;
            beast::error_code ignored;
            c->stream.socket().set_option(tcp::no_delay{true}, ignored);
            send(c, account, due, false, retry);
        });
    }

    void send(const connection_ptr& c, int account, steady::time_point due, bool reused, bool retry)
    {
        http::async_write(c->stream, c->req, [this, c, account, due, reused, retry](beast::error_code ec, std::size_t) {
            if (ec) return done(c, account, due, ec, reused, retry);
            http::async_read(c->stream, c->buffer, c->res, [this, c, account, due, reused, retry](beast::error_code e, std::size_t) {
                done(c, account, due, e, reused, retry);
            });
        });
    }

    void done(const connection_ptr& c, int account, steady::time_point due, beast::error_code ec, bool reused, bool retry)
    {
        in_flight_.erase(c);
        if (ec) {
            beast::error_code ignored;
            c->stream.socket().close(ignored);
            c->open = false;
            if (draining_) ++unanswered_;
            else if (reused && !retry) return launch(account, due, true);
            else ++failed_;
            return finish_if_done();
        }
        const auto ns = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(steady::now() - due).count());
        all_.record(ns);
        switch (c->res.result()) {
        case http::status::ok: ++ok_; ok_latency_.record(ns); break;
        case http::status::unauthorized: ++wrong_; break;
        case http::status::too_many_requests: ++refused_; refused_latency_.record(ns); break;
        default: ++other_[std::to_string(c->res.result_int())];
        }
        if (c->res.keep_alive()) idle_.push_back(c);
        else {
            beast::error_code ignored;
            c->stream.socket().close(ignored);
        }
        finish_if_done();
    }

    void last_sent()
    {
        drain_.expires_after(std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(options_.drain_s)));
        drain_.async_wait([this](beast::error_code ec) {
            if (ec) return;
            draining_ = true;
            for (const auto& c : in_flight_) c->stream.socket().close(ec);
        });
        finish_if_done();
    }

    void finish_if_done()
    {
        if (sent_ < total_ || !in_flight_.empty() || !finished_) return;
        drain_.cancel();
        for (const auto& c : idle_) {
            beast::error_code ignored;
            c->stream.socket().close(ignored);
        }
        idle_.clear();
        std::exchange(finished_, nullptr)();
    }

    net::io_context& io_;
    const options& options_;
    steady::duration period_;
    std::uint64_t total_;
    net::steady_timer pacer_; // fires when the next login is due
    net::steady_timer drain_; // fires when the answers still due are given up on
    steady::time_point start_;
    bool draining_ = false;
    std::function<void()> finished_;
    std::set<connection_ptr> in_flight_;
    std::vector<connection_ptr> idle_;
    std::uint64_t sent_ = 0, ok_ = 0, wrong_ = 0, refused_ = 0, failed_ = 0, unanswered_ = 0, opened_ = 0,
                  most_in_flight_ = 0;
    std::map<std::string, std::uint64_t> other_;
    histogram all_, ok_latency_, refused_latency_; // ns from due to answer
};

} // namespace

int main(int argc, char** argv)
{
    const options o = parse(argc, argv);
    nlohmann::ordered_json out;
    out["server"] = host_header(o.server);
    try {
        if (o.sign_up) out["sign_up"] = sign_up(o);
        if (o.rate > 0) {
            net::io_context io{1};
            login_run run{io, o};
            net::signal_set signals{io, SIGINT, SIGTERM};
            signals.async_wait([&run](beast::error_code ec, int) {
                if (!ec) run.stop();
            });
            run.start([&signals] { signals.cancel(); });
            io.run();
            out["logins"] = run.report();
        }
    } catch (const std::exception& e) {
        std::cerr << "login_load: " << e.what() << "\n";
        return 1;
    }
    const std::string text = out.dump(2) + "\n";
    std::cout << text << std::flush;
    if (!o.json_path.empty()) {
        std::ofstream file{o.json_path};
        file << text;
        if (!file) {
            std::cerr << "login_load: cannot write " << o.json_path << "\n";
            return 1;
        }
    }
    return 0;
}
