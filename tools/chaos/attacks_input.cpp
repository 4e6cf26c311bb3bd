// Input the server must refuse without falling over: garbage of every kind (answered with an
// error, the connection kept), frames RFC 6455 forbids (1002), floods (rate_limited, then
// 1008), req values that must come back exactly as written, and messages over the size limit
// (1009), with a message of exactly the limit answered first.
#include <deque>

#include <nlohmann/json.hpp>

#include "raw_field.hpp"
#include "scripted_attacker.hpp"

namespace quarto::chaos {

namespace {

// Garbage that still carries a readable req, and what the server must answer after hello.
struct readable_garbage {
    std::string_view json;
    std::initializer_list<std::string_view> accepted;
};
const readable_garbage readable[] = {
    {R"({"type":"nope"})", {"error:unknown_type"}},
    {R"({})", {"error:bad_message"}},
    {R"({"type":7})", {"error:bad_message"}},
    {R"({"type":"give","room":"zz","piece":99})", {"error:bad_message"}},
    {R"({"type":"place","room":"nosuchroom","square":3})", {"error:no_such_room"}},
    {R"({"type":"join","room":""})", {"error:bad_message"}},
    {R"({"type":"sync","room":"zz","since":-1})", {"error:bad_message"}},
    {R"({"type":"ping","type":"pong"})", {"pong", "error:unknown_type", "error:bad_message", "error:bad_json"}},
    {R"({"type":"create_room","clock":{"move_ms":3.0}})", {"error:bad_message"}},
    {R"({"type":"quarto","room":"zz","line":[1,1,2,3]})", {"error:bad_message"}},
    {R"({"type":"ping","pad":"\u00e9 é \ud83d\ude00"})", {"pong"}},
    {R"({"type":"leave","room":"nosuchroom"})", {"error:no_such_room"}},
};

// Garbage without a readable req: only counted (the error codes land in the stats).
std::string unreadable_garbage(std::mt19937_64& random, int which)
{
    switch (which) {
    case 0: return R"({"type":"ping","x":"\ud800"})"; // a lone surrogate, escaped (invalid UTF-8 closes: frame_violation)
    case 1: return "hello world";
    case 2: return "[1,2,3]";
    case 3: return "42";
    case 4: return R"({"type":"ping","req":true})";
    case 5: return std::string{"{\"type\":\"ping\",\"x\":\"a\0b\"}", 25}; // a raw NUL in a string
    case 6: return R"({"type":"ping")";
    case 7: return "";
    case 8: return R"({"type":"ping","x":1e999})"; // a number too large for a double
    case 9: return "\xc3\xa9t\xc3\xa9";            // UTF-8, but no JSON
    default: {
        std::string deep = R"({"type":"ping","x":)";
        const int depth = std::uniform_int_distribution<int>{100, 1000}(random);
        deep += std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']') + "}";
        return deep;
    }
    }
}

class garbage final : public attacker {
public:
    explicit garbage(attack_context& c) : attacker{c, attack_kind::garbage} {}

    void start() override
    {
        left_ = uniform(5, 40);
        greet_first_ = chance(0.6);
        conn_ = connect();
    }

private:
    void opened(ws_client& c) override
    {
        if (greet_first_) send(c, hello_named(attacker_name("gb")));
        else step();
    }

    void text(ws_client&, std::string_view, const load::server_message& m) override
    {
        if (m.type == "welcome") step();
    }

    void step()
    {
        if (left_-- <= 0) return end_connection(*conn_);
        const int which = uniform(0, 2 * static_cast<int>(std::size(readable)) + 11);
        if (which < static_cast<int>(std::size(readable))) {
            const auto& g = readable[which];
            if (greet_first_) ask(*conn_, "garbage after hello", g.json, g.accepted);
            else ask(*conn_, "garbage before hello", g.json, {"error:hello_required"});
        } else if (which == static_cast<int>(std::size(readable))) {
            std::string bytes(static_cast<std::size_t>(uniform(1, 200)), '\0');
            for (auto& b : bytes) b = static_cast<char>(uniform(0, 255));
            ++counts().messages_out;
            conn_->send_frame(opcode::binary, bytes);
        } else {
            send(*conn_, unreadable_garbage(random(), uniform(0, 10)));
        }
        after(between(100, 400), [this] { step(); });
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        // Garbage at this pace stays under the rate limit: the server must keep the connection.
        if (e.ours.empty()) surprise("closed by the server", e.describe());
        finish();
    }

    std::shared_ptr<ws_client> conn_;
    int left_ = 0;
    bool greet_first_ = true;
};

class frame_violation final : public attacker {
public:
    explicit frame_violation(attack_context& c) : attacker{c, attack_kind::frame_violation} {}

    void start() override
    {
        variant_ = uniform(0, 17);
        conn_ = connect();
    }

private:
    static constexpr std::string_view names[] = {
        "unmasked frame", "RSV1 set", "opcode 0x3", "opcode 0xB", "fragmented ping", "ping of 126 bytes",
        "continuation first", "close 1005", "close 999", "close 2000", "close 5000", "close of 1 byte",
        "new text inside a fragmented one", "valid close 4000", "valid close without code",
        "text not UTF-8", "text not UTF-8 across fragments", "close reason not UTF-8",
    };

    void opened(ws_client&) override
    {
        after(between(50, 500), [this] { violate(); });
    }

    void violate()
    {
        const std::string ping = R"({"type":"ping"})";
        auto frame = [&](frame_spec spec, std::string_view payload) {
            ++counts().messages_out;
            conn_->send_frame(spec, payload);
        };
        switch (variant_) {
        case 0: frame({.masked = false}, ping); break;
        case 1: frame({.rsv = 4}, ping); break;
        case 2: frame({.raw_opcode = 0x3}, ping); break;
        case 3: frame({.raw_opcode = 0xB}, ping); break;
        case 4: frame({.op = opcode::ping, .fin = false}, "x"); break;
        case 5: frame({.op = opcode::ping}, std::string(126, 'p')); break;
        case 6: frame({.op = opcode::continuation}, ping); break;
        case 7: frame({.op = opcode::close}, close_payload(1005, "")); break;
        case 8: frame({.op = opcode::close}, close_payload(999, "")); break;
        case 9: frame({.op = opcode::close}, close_payload(2000, "")); break;
        case 10: frame({.op = opcode::close}, close_payload(5000, "")); break;
        case 11: frame({.op = opcode::close}, "x"); break;
        case 12:
            frame({.op = opcode::text, .fin = false}, R"({"type":)");
            frame({.op = opcode::text}, ping);
            break;
        case 13: frame({.op = opcode::close}, close_payload(4000, "bye")); break;
        case 14: frame({.op = opcode::close}, ""); break;
        case 15: frame({.op = opcode::text}, "{\"type\":\"ping\",\"x\":\"\xff\xfe\"}"); break;
        case 16:
            frame({.op = opcode::text, .fin = false}, "{\"type\":\"ping\",\"x\":\"\xed");
            frame({.op = opcode::continuation}, "\xa0\x80\"}");
            break;
        default: frame({.op = opcode::close}, close_payload(1000, "\xc0\xaf")); break;
        }
        after(ms{10'000}, [this] {
            surprise(std::string{names[variant_]} + " -> still open after 10 s");
            end_connection(*conn_);
        });
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        const int expected = variant_ == 13 ? 4000 : variant_ == 14 ? 1000 : variant_ >= 15 ? 1007 : 1002;
        const std::string name{names[variant_]};
        if (e.close_code == expected) outcome(name + " -> close " + std::to_string(expected));
        else if (e.ours.empty()) surprise(name + " -> " + e.describe());
        finish();
    }

    std::shared_ptr<ws_client> conn_;
    int variant_ = 0;
};

class flood final : public attacker {
public:
    explicit flood(attack_context& c) : attacker{c, attack_kind::flood} {}

    void start() override { conn_ = connect(); }

private:
    void opened(ws_client& c) override { send(c, hello_named(attacker_name("fl"))); }

    void text(ws_client&, std::string_view, const load::server_message& m) override
    {
        if (m.type != "welcome") return;
        until_ = clock_type::now() + std::chrono::seconds{30};
        burst();
    }

    // 20 pings every 100 ms: 200 a second against 20 allowed, so 1000 refusals in about 6 s.
    void burst()
    {
        if (clock_type::now() >= until_) {
            surprise("still open after 30 s of flooding");
            return end_connection(*conn_);
        }
        for (int i = 0; i < 20; ++i) send(*conn_, R"({"type":"ping"})");
        after(ms{100}, [this] { burst(); });
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        if (e.close_code == 1008 && e.close_reason == "too many messages") outcome("closed 1008 too many messages");
        else if (e.ours.empty()) surprise("ended otherwise", e.describe());
        finish();
    }

    std::shared_ptr<ws_client> conn_;
    clock_type::time_point until_{};
};

// "xxx...x" of `n` letters, quotes included: a req that is long but legal.
std::string long_string_req(std::size_t n)
{
    std::string out;
    out.reserve(n + 2);
    out.push_back('"');
    out.append(n, 'x');
    out.push_back('"');
    return out;
}

class huge_req final : public attacker {
public:
    explicit huge_req(attack_context& c) : attacker{c, attack_kind::huge_req} {}

    void start() override { conn_ = connect(); }

private:
    struct req_case {
        std::string raw;        // as written in the message
        std::string_view reply; // "pong" (req echoed exactly), or the error code (no req)
    };
    static const std::vector<req_case>& cases()
    {
        static const std::vector<req_case> all = {
            {"123456789012345678901234567890", "pong"},
            {"1.50", "pong"},
            {"-0.0", "pong"},
            {"1e308", "pong"},
            {"1E-7", "pong"},
            {"18446744073709551616", "pong"},
            {"-9223372036854775809", "pong"},
            {"0.000000000000000000000000000001", "pong"},
            {"12345678901234567890123456789012345678901234567890e-30", "pong"},
            {long_string_req(2000), "pong"},
            {R"("caf\u00e9 \"quoted\" \n")", "pong"},
            {"null", "pong"}, // the same as no req: a pong without one
            {"1e999", "bad_json"},
            {"[1]", "bad_message"},
            {"true", "bad_message"},
        };
        return all;
    }

    void opened(ws_client& c) override { send(c, hello_named(attacker_name("hr"))); }

    void next()
    {
        if (index_ == cases().size()) return end_connection(*conn_);
        const auto& c = cases()[index_];
        waiting_.push_back(index_++);
        send(*conn_, R"({"type":"ping","req":)" + c.raw + "}");
        after(between(100, 300), [this] { next(); });
    }

    // The scanner cannot read a req too big for an int64; the type and code are enough here.
    void unscannable(ws_client& c, std::string_view payload) override
    {
        load::server_message m;
        const auto type = raw_field(payload, "type");
        const auto code = raw_field(payload, "code");
        if (!type) return attacker::unscannable(c, payload);
        m.type = type->text;
        if (code) m.code = code->text;
        text(c, payload, m);
    }

    void text(ws_client&, std::string_view payload, const load::server_message& m) override
    {
        if (m.type == "welcome") return next();
        if (waiting_.empty()) return surprise("an unasked reply", std::string{payload.substr(0, 200)});
        const auto& c = cases()[waiting_.front()];
        waiting_.pop_front();
        const auto req = raw_field(payload, "req");
        const std::string label =
            "req " +
            (c.raw.size() > 40 ? c.raw.substr(0, 20) + "... (" + std::to_string(c.raw.size()) + " bytes)" : c.raw);
        const std::string got = m.type == "error" ? std::string{m.code} : std::string{m.type};
        if (got != c.reply) return surprise(label + " answered " + got, std::string{payload.substr(0, 300)});
        if (c.reply != "pong" || c.raw == "null") {
            if (req) return surprise(label + " answered with a req", std::string{payload.substr(0, 300)});
            return outcome(label + " -> " + got + " without req");
        }
        if (!req) return surprise(label + " echoed no req", std::string{payload.substr(0, 300)});
        const std::string echoed = req->is_string ? "\"" + std::string{req->text} + "\"" : std::string{req->text};
        if (echoed == c.raw) return outcome(label + " echoed as written");
        // A string may come back escaped differently; its value must be the same.
        if (req->is_string && nlohmann::json::parse(echoed, nullptr, false) == nlohmann::json::parse(c.raw, nullptr, false))
            return outcome(label + " echoed (same string)");
        surprise(label + " echoed as " + echoed.substr(0, 60));
    }

    std::shared_ptr<ws_client> conn_;
    std::size_t index_ = 0;
    std::deque<std::size_t> waiting_;
};

class oversize final : public attacker {
public:
    explicit oversize(attack_context& c) : attacker{c, attack_kind::oversize} {}

    void start() override { conn_ = connect(); }

private:
    void opened(ws_client& c) override { send(c, hello_named(attacker_name("os"))); }

    // A ping padded to exactly `bytes`.
    std::string padded(std::size_t bytes, std::string_view req) const
    {
        std::string head = R"({"type":"ping","req":")" + std::string{req} + R"(","pad":")";
        const std::size_t fixed = head.size() + 2;
        return head + std::string(bytes > fixed ? bytes - fixed : 0, 'x') + "\"}";
    }

    // In one frame, or in three (a text frame and two continuations).
    void send_message(const std::string& m, bool fragmented)
    {
        ++counts().messages_out;
        if (!fragmented) return conn_->send_frame(opcode::text, m);
        const std::size_t third = m.size() / 3;
        conn_->send_frame({.op = opcode::text, .fin = false}, std::string_view{m}.substr(0, third));
        conn_->send_frame({.op = opcode::continuation, .fin = false}, std::string_view{m}.substr(third, third));
        conn_->send_frame({.op = opcode::continuation}, std::string_view{m}.substr(2 * third));
    }

    void text(ws_client&, std::string_view payload, const load::server_message& m) override
    {
        if (m.type == "welcome") {
            send_message(padded(context_.max_message_bytes, "exact"), chance(0.5));
            return after(ms{5000}, [this] {
                surprise("no answer to a message of exactly the limit");
                end_connection(*conn_);
            });
        }
        const auto req = raw_field(payload, "req");
        if (!req || req->text != "exact") return;
        if (m.type != "pong") return surprise("a message of exactly the limit answered " + std::string{m.type});
        outcome("exactly the limit answered");
        over_ = uniform(0, 2);
        if (over_ < 2) send_message(padded(context_.max_message_bytes + 1, "over"), over_ == 1);
        else {
            // A header announcing 1 GiB, and a few bytes of it: the limit applies before the body.
            std::string header{"\x81\xFF"}; // FIN + text; masked, 64-bit length
            for (int shift = 56; shift >= 0; shift -= 8) header += static_cast<char>(((1ull << 30) >> shift) & 0xFF);
            header += "mask" + std::string(16, 'x');
            ++counts().messages_out;
            conn_->send_raw(header);
        }
        after(ms{10'000}, [this] {
            surprise("over the limit, still open after 10 s");
            end_connection(*conn_);
        });
    }

    void ended(ws_client&, const ws_client::ending& e) override
    {
        static constexpr std::string_view how[] = {"one frame", "three fragments", "a 1 GiB header"};
        if (over_ >= 0 && e.close_code == 1009)
            outcome(std::string{"limit + 1 in "} + std::string{how[over_]} + " -> close 1009");
        else if (e.ours.empty())
            surprise(over_ >= 0 ? "over the limit -> " + e.describe() : "closed early: " + e.describe());
        finish();
    }

    std::shared_ptr<ws_client> conn_;
    int over_ = -1;
};

} // namespace

std::shared_ptr<attacker> make_input_attacker(attack_kind kind, attack_context& context)
{
    switch (kind) {
    case attack_kind::garbage: return std::make_shared<garbage>(context);
    case attack_kind::frame_violation: return std::make_shared<frame_violation>(context);
    case attack_kind::flood: return std::make_shared<flood>(context);
    case attack_kind::huge_req: return std::make_shared<huge_req>(context);
    case attack_kind::oversize: return std::make_shared<oversize>(context);
    default: return nullptr;
    }
}

} // namespace quarto::chaos
