// Time as pure logic. Core never reads a clock: every query takes the caller's `now`, an
// instant in milliseconds since an epoch of the caller's choosing. The server maps
// steady_clock onto it; tests pass exact instants.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace quarto {

struct game_clock {
    using rep = std::int64_t;
    using period = std::milli;
    using duration = std::chrono::milliseconds;
    using time_point = std::chrono::time_point<game_clock>;
    static constexpr bool is_steady = true;
};
using instant = game_clock::time_point;
using std::chrono::milliseconds;

constexpr instant at_ms(std::int64_t ms) { return instant{milliseconds{ms}}; }

using seat = std::uint8_t; // 0 or 1
constexpr seat opponent(seat s) { return static_cast<seat>(s ^ 1u); }

inline constexpr milliseconds default_move_allowance{60'000};
inline constexpr milliseconds default_claim_window{10'000};

struct clock_settings {
    std::optional<milliseconds> move = default_move_allowance; // per move; nullopt = untimed
    milliseconds claim = default_claim_window;                 // the missed-Quarto claim window

    friend constexpr bool operator==(const clock_settings&, const clock_settings&) = default;
};

// The per-move clock: the mover has the whole allowance for each move, which starts afresh
// when the move starts. The other seat's clock is idle at the full allowance.
class move_clock {
public:
    constexpr explicit move_clock(std::optional<milliseconds> allowance) : allowance_{allowance} {}

    constexpr void start(seat mover, instant now)
    {
        mover_ = mover;
        running_ = true;
        started_ = now;
    }
    // Freezes the mover's remaining time, e.g. when the game ends.
    constexpr void stop(instant now)
    {
        if (!running_) return;
        frozen_ = elapsed(now);
        running_ = false;
    }

    constexpr std::optional<seat> running() const
    {
        return running_ ? std::optional<seat>{mover_} : std::nullopt;
    }
    constexpr std::optional<milliseconds> allowance() const { return allowance_; }

    // nullopt when untimed. Never negative.
    constexpr std::optional<milliseconds> remaining(seat s, instant now) const
    {
        if (!allowance_) return std::nullopt;
        if (s != mover_) return *allowance_;
        const milliseconds used = running_ ? elapsed(now) : frozen_;
        return used >= *allowance_ ? milliseconds{0} : *allowance_ - used;
    }
    // When the running mover loses on time; nullopt when untimed or stopped.
    constexpr std::optional<instant> deadline() const
    {
        if (!allowance_ || !running_) return std::nullopt;
        return started_ + *allowance_;
    }
    // The mover has lost on time at `now` (the deadline instant itself is too late).
    constexpr bool flagged(instant now) const
    {
        const auto d = deadline();
        return d && now >= *d;
    }

private:
    constexpr milliseconds elapsed(instant now) const
    {
        return now > started_ ? now - started_ : milliseconds{0};
    }

    std::optional<milliseconds> allowance_;
    seat mover_ = 0;
    bool running_ = false;
    instant started_{};
    milliseconds frozen_{0};
};

// Who may call the missed Quarto, until when.
struct claim_window {
    seat claimant;
    instant deadline;
    constexpr bool open_at(instant now) const { return now < deadline; }
    friend constexpr bool operator==(const claim_window&, const claim_window&) = default;
};

} // namespace quarto
