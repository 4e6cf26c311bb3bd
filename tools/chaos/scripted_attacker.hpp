// The common shape of most attackers: one connection that says hello, then takes a step of its
// script every so often until its time is up, and leaves the way clients leave.
#pragma once

#include "attacks.hpp"
#include "chaos_messages.hpp"

namespace quarto::chaos {

// A random lifetime, drawn before the attacker exists (its own uniform() needs it built).
inline std::chrono::milliseconds random_life(attack_context& c, int low_ms, int high_ms)
{
    return std::chrono::milliseconds{std::uniform_int_distribution<int>{low_ms, high_ms}(c.random)};
}

// One of a fixed list.
template <class T, std::size_t N>
const T& one_of(std::mt19937_64& random, const T (&items)[N])
{
    return items[std::uniform_int_distribution<std::size_t>{0, N - 1}(random)];
}

class scripted_attacker : public attacker {
public:
    scripted_attacker(attack_context& context, attack_kind kind, ms life, std::string_view name_prefix)
        : attacker{context, kind}, life_{life}, prefix_{name_prefix}
    {
    }

    void start() override { conn_ = connect(); }

protected:
    // One step; returns the pause before the next.
    virtual ms act() = 0;
    // A message other than the welcome.
    virtual void reply(std::string_view, const load::server_message&) {}

    void opened(ws_client& c) override { send(c, hello_named(attacker_name(prefix_))); }

    void text(ws_client&, std::string_view payload, const load::server_message& m) override
    {
        if (m.type == "welcome" && !greeted_) {
            greeted_ = true;
            until_ = clock_type::now() + life_;
            return step();
        }
        reply(payload, m);
    }

    void step()
    {
        if (clock_type::now() >= until_) return end_connection(*conn_);
        after(act(), [this] { step(); });
    }

    std::shared_ptr<ws_client> conn_;

private:
    ms life_;
    std::string_view prefix_;
    bool greeted_ = false;
    clock_type::time_point until_{};
};

// Ids found in a page of rooms or tournaments: every "id":"..." (summaries have no other id).
template <class Add>
void each_listed_id(std::string_view page, Add add)
{
    constexpr std::string_view key = R"("id":")";
    for (auto at = page.find(key); at != std::string_view::npos; at = page.find(key, at)) {
        at += key.size();
        const auto end = page.find('"', at);
        if (end == std::string_view::npos) return;
        add(page.substr(at, end - at));
    }
}

} // namespace quarto::chaos
