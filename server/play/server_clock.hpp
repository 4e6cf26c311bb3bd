// Maps steady_clock onto core's instants (milliseconds since the process started), and reads
// the wall clock for what people see (pong, the archive's start and end times).
#pragma once

#include <chrono>
#include <cstdint>

#include "quarto/core/clock.hpp"

namespace quarto::server::play {

class server_clock {
public:
    server_clock() : epoch_{std::chrono::steady_clock::now()} {}

    instant now() const { return to_instant(std::chrono::steady_clock::now()); }
    instant to_instant(std::chrono::steady_clock::time_point t) const
    {
        return instant{std::chrono::duration_cast<milliseconds>(t - epoch_)};
    }
    std::chrono::steady_clock::time_point to_steady(instant i) const { return epoch_ + i.time_since_epoch(); }

    // Milliseconds since the Unix epoch.
    static std::int64_t unix_ms()
    {
        using namespace std::chrono;
        return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    }

private:
    std::chrono::steady_clock::time_point epoch_;
};

} // namespace quarto::server::play
