// Sockets that misbehave below the protocol: a reader that stops reading (the server must close
// it at 1024 queued messages or 8 MiB, not grow), upgrade requests that never finish (30 s),
// upgraded sockets that go silent and ignore pings (20 s), quiet ones that answer pings (kept),
// and hello-and-close loops.
#include "scripted_attacker.hpp"

namespace quarto::chaos {

namespace {

// "20-25 s": when the server gave up on a connection, in 5 s steps.
std::string bucket(double seconds)
{
    const int low = static_cast<int>(seconds / 5) * 5;
    return std::to_string(low) + "-" + std::to_string(low + 5) + " s";
}

class slow_reader final : public attacker {
public:
    explicit slow_reader(attack_context& c) : attacker{c, attack_kind::slow_reader} {}

    // A small receive buffer: the kernel holds little, so the server's own queue fills.
    void start() override { conn_ = connect(true, 4096); }

private:
    static constexpr std::chrono::seconds unread_for{45};

    void opened(ws_client& c) override { send(c, hello_named(attacker_name("sr"))); }

    void text(ws_client& c, std::string_view, const load::server_message& m) override
    {
        if (m.type != "welcome") return;
        // Watch a live game too, so events pile up as well as pages.
        if (!context_.honest_rooms.empty())
            send(c, join_room(context_.honest_rooms[static_cast<std::size_t>(
                                  uniform(0, static_cast<int>(context_.honest_rooms.size()) - 1))],
                              true));
        c.pause_reading();
        paused_at_ = clock_type::now();
        ask_more();
    }

    // The biggest page, 16 times a second (under the 20/s rate): about 40 KB each once the lobby
    // holds a few hundred rooms.
    void ask_more()
    {
        if (clock_type::now() - paused_at_ >= unread_for) {
            conn_->resume_reading(); // read what is left, to see how the server ended it
            return after(ms{10'000}, [this] { end_connection(*conn_); });
        }
        send(*conn_, list_rooms(0, 200));
        after(ms{60}, [this] { ask_more(); });
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        if (e.close_code == 1008 && e.close_reason == "not reading") outcome("closed 1008 not reading");
        else if (e.ours.empty())
            outcome("ended while not reading: " + e.describe()); // the close frame was behind the unread bytes
        else outcome("survived 45 s unread");
        finish();
    }

    std::shared_ptr<ws_client> conn_;
    clock_type::time_point paused_at_{};
};

class slowloris final : public attacker {
public:
    explicit slowloris(attack_context& c) : attacker{c, attack_kind::slowloris} {}

    void start() override
    {
        variant_ = uniform(0, 3);
        conn_ = connect(false);
    }

private:
    static constexpr std::string_view names[] = {"nothing sent", "one byte every few seconds", "all but the last CRLF",
                                                 "a 16 KB header"};

    void opened(ws_client& c) override
    {
        request_ = upgrade_request(context_.attackers.host_header, context_.attackers.path);
        switch (variant_) {
        case 0: break;
        case 1: sent_ = request_.find("\r\n") + 2; c.send_raw(request_.substr(0, sent_)); break;
        case 2: c.send_raw(request_.substr(0, request_.size() - 2)); break;
        default: {
            std::string big = request_;
            big.insert(big.size() - 2, "X-Padding: " + std::string(16 << 10, 'p') + "\r\n");
            c.send_raw(big);
        }
        }
        ++counts().messages_out;
        dribble();
    }

    void dribble()
    {
        if (clock_type::now() - born() > std::chrono::seconds{60}) {
            surprise(std::string{names[variant_]} + " -> still open after 60 s");
            return conn_->abort();
        }
        if (variant_ == 1 && sent_ + 2 < request_.size()) conn_->send_raw(request_.substr(sent_++, 1));
        after(between(2000, 5000), [this] { dribble(); });
    }

    void raw(ws_client&, std::string_view bytes) override
    {
        if (status_.empty()) status_ = std::string{bytes.substr(0, bytes.find("\r\n"))};
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        if (e.ours.empty()) {
            const std::string how = status_.empty() ? e.describe() : status_;
            outcome(std::string{names[variant_]} + " -> " + how + " after " + bucket(e.seconds));
            // The front allows 30 s for a request (PROTOCOL.md 15).
            if (e.seconds > 40 && variant_ != 3)
                surprise(std::string{names[variant_]} + " -> open for " + bucket(e.seconds));
        }
        finish();
    }

    std::shared_ptr<ws_client> conn_;
    int variant_ = 0;
    std::string request_;
    std::size_t sent_ = 0;
    std::string status_;
};

class idle_silent final : public attacker {
public:
    explicit idle_silent(attack_context& c) : attacker{c, attack_kind::idle_silent} {}

    void start() override
    {
        conn_ = connect();
        conn_->set_auto_pong(false);
    }

private:
    void opened(ws_client&) override
    {
        after(ms{45'000}, [this] {
            surprise("silent and deaf, still open after 45 s");
            conn_->abort();
        });
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        if (e.ours.empty()) {
            outcome("closed after " + bucket(e.seconds) + ": " + e.describe());
            // Pinged after 10 s of silence, closed after 20 s (PROTOCOL.md 1).
            if (e.seconds > 30) surprise("silent and deaf, closed only after " + bucket(e.seconds));
        }
        finish();
    }

    std::shared_ptr<ws_client> conn_;
};

class idle_quiet final : public attacker {
public:
    explicit idle_quiet(attack_context& c) : attacker{c, attack_kind::idle_quiet} {}

    void start() override { conn_ = connect(); }

private:
    void opened(ws_client& c) override { send(c, hello_named(attacker_name("iq"))); }

    void text(ws_client&, std::string_view, const load::server_message& m) override
    {
        if (m.type == "welcome") after(between(30'000, 120'000), [this] { end_connection(*conn_); });
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        // It answers every ping: the server has no reason to close it.
        if (e.ours.empty()) surprise("closed by the server", e.describe());
        else outcome("held until it left");
        finish();
    }

    std::shared_ptr<ws_client> conn_;
};

class guest_spam final : public attacker {
public:
    explicit guest_spam(attack_context& c) : attacker{c, attack_kind::guest_spam} {}

    void start() override
    {
        loops_ = uniform(3, 15);
        next();
    }

private:
    void next() { conn_ = connect(); }

    void opened(ws_client& c) override { send(c, hello_named(attacker_name("gs"))); }

    void text(ws_client& c, std::string_view, const load::server_message& m) override
    {
        if (m.type != "welcome") return;
        outcome("welcome");
        end_connection(c);
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        if (e.ours.empty()) surprise("closed by the server", e.describe());
        if (--loops_ > 0) return after(between(100, 1500), [this] { next(); });
        finish();
    }

    std::shared_ptr<ws_client> conn_;
    int loops_ = 0;
};

} // namespace

std::shared_ptr<attacker> make_transport_attacker(attack_kind kind, attack_context& context)
{
    switch (kind) {
    case attack_kind::slow_reader: return std::make_shared<slow_reader>(context);
    case attack_kind::slowloris: return std::make_shared<slowloris>(context);
    case attack_kind::idle_silent: return std::make_shared<idle_silent>(context);
    case attack_kind::idle_quiet: return std::make_shared<idle_quiet>(context);
    case attack_kind::guest_spam: return std::make_shared<guest_spam>(context);
    default: return nullptr;
    }
}

} // namespace quarto::chaos
