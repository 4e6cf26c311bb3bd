// The life of one attacker: it opens one or more connections, follows its kind's script on a
// timer, counts what comes back, and ends each connection the way real clients vanish (a close
// frame, a bare FIN, or a reset, at random). Kinds derive from it (attacks_*.cpp).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "attack_context.hpp"
#include "message_scan.hpp"

namespace quarto::chaos {

class attacker : public std::enable_shared_from_this<attacker>, protected ws_client::listener {
public:
    attacker(attack_context& context, attack_kind kind);
    attacker(const attacker&) = delete;
    attacker& operator=(const attacker&) = delete;
    virtual ~attacker();

    virtual void start() = 0;
    // The run is over, or a disconnect storm hit: end every connection now. A kind that must
    // not be cut short (none so far) would override this.
    virtual void stop();
    // Reset every connection at once (the storm's abrupt drop).
    void drop();
    attack_kind kind() const { return kind_; }
    bool finished() const { return finished_; }
    clock_type::time_point born() const { return born_; }

protected:
    using ms = std::chrono::milliseconds;

    std::shared_ptr<ws_client> connect(bool upgrade = true, int receive_buffer = 0, const endpoint_settings* from = nullptr);
    // One pending step at a time: a new after() replaces the previous one.
    void after(ms delay, std::function<void()> step);
    void end_connection(ws_client& c); // a close frame, a FIN or a reset, at random
    void finish();                     // done: the pool lets go of this attacker
    void send(ws_client& c, std::string_view text);
    // Sends the JSON object `json` with a req of ours and checks the reply that echoes it: its
    // type, or "error:CODE", must be one of `accepted` (rate_limited always is: the limits are
    // part of the game). Only for messages that always get a direct reply (PROTOCOL.md 3).
    void ask(ws_client& c, std::string_view label, std::string_view json, std::initializer_list<std::string_view> accepted);

    kind_stats& counts() { return context_.stats.of(kind_); }
    void outcome(const std::string& key) { ++counts().outcomes[key]; }
    void surprise(const std::string& key, const std::string& detail = {}) { context_.stats.surprise(kind_, key, detail); }
    std::mt19937_64& random() { return context_.random; }
    int uniform(int low, int high) { return std::uniform_int_distribution<int>{low, high}(context_.random); }
    ms between(int low_ms, int high_ms) { return ms{uniform(low_ms, high_ms)}; }
    bool chance(double p) { return std::bernoulli_distribution{p}(context_.random); }
    bool all_ended() const;

    // What a kind reacts to; the base has already counted the message (and its error code).
    virtual void opened(ws_client&) {}
    virtual void text(ws_client&, std::string_view, const load::server_message&) {}
    virtual void raw(ws_client&, std::string_view) {}
    // A message quarto-load's scanner cannot read (it parses numbers, and a req may be too big
    // for one): a surprise unless the kind expects it.
    virtual void unscannable(ws_client&, std::string_view payload)
    {
        surprise("an unreadable server message", std::string{payload.substr(0, 200)});
    }
    // By default an attacker is done when its last connection has ended.
    virtual void ended(ws_client&, const ws_client::ending&)
    {
        if (all_ended()) finish();
    }

    attack_context& context_;
    // Whether the tokens this attacker is given go to the pool the resumes draw from. The
    // drop/resume pairs keep theirs: another connection of the same player would change what
    // their checks expect (no disconnected while a connection remains).
    bool share_tokens_ = true;

private:
    void on_open(ws_client& c) final;
    void on_message(ws_client& c, ws_client::message_kind kind, std::string_view payload) final;
    void on_end(ws_client& c, const ws_client::ending& e) final;

    attack_kind kind_;
    clock_type::time_point born_;
    net::steady_timer timer_;
    std::uint64_t step_ = 0;
    std::vector<std::shared_ptr<ws_client>> clients_;
    bool finished_ = false;
    struct expectation {
        std::string label;
        std::vector<std::string_view> accepted; // literals
    };
    std::unordered_map<std::uint64_t, expectation> expected_;
    std::uint64_t next_req_ = 0;
};

} // namespace quarto::chaos
