// A token bucket per connection, and the abuse counter that closes a connection that keeps
// flooding after being told to slow down.
#pragma once

#include <algorithm>
#include <chrono>

namespace quarto::server::net {

class rate_limiter {
public:
    using clock = std::chrono::steady_clock;
    // A connection refused this many messages within one abuse window is closed.
    static constexpr int abuse_limit = 1000;
    static constexpr std::chrono::seconds abuse_window{60};

    rate_limiter(double per_second, double burst, clock::time_point now)
        : rate_{per_second}, burst_{burst}, tokens_{burst}, last_{now}, window_start_{now}
    {
    }

    enum class verdict { accept, refuse, close };

    verdict admit(clock::time_point now)
    {
        // A time before the last one (a turn's time read before the bucket was made, or clocks
        // read on different threads) refills nothing, and takes nothing away either: the burst
        // is exactly `burst` messages however the readings interleave.
        if (now > last_) {
            const std::chrono::duration<double> elapsed = now - last_;
            tokens_ = std::min(burst_, tokens_ + elapsed.count() * rate_);
            last_ = now;
        }
        if (tokens_ >= 1) {
            tokens_ -= 1;
            return verdict::accept;
        }
        if (now - window_start_ >= abuse_window) {
            window_start_ = now;
            refused_ = 0;
        }
        return ++refused_ >= abuse_limit ? verdict::close : verdict::refuse;
    }

private:
    double rate_;
    double burst_;
    double tokens_;
    clock::time_point last_;
    clock::time_point window_start_;
    int refused_ = 0;
};

} // namespace quarto::server::net
