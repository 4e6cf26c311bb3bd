// Failed logins, limited per client address and per account name: 10 in 10 minutes each by
// default, then refused with a retry-after. The account's limiter counts every name tried,
// whether an account has it or not, so that its answer tells nothing about which names exist.
// Pure and single-threaded, as failure_limiter is.
#pragma once

#include <algorithm>
#include <chrono>
#include <string_view>

#include "accounts/failure_limiter.hpp"

namespace quarto::server::accounts {

class login_limiter {
public:
    using clock = failure_limiter::clock;

    struct options {
        failure_limiter::options per_address{};
        failure_limiter::options per_account{};
    };

    login_limiter() : login_limiter(options{}) {}
    explicit login_limiter(options o) : addresses_{o.per_address}, accounts_{o.per_account} {}

    // Zero when a login of `account` from `address` may be checked at `now`; otherwise how long
    // until it may (the later of the two limits), whether the account exists or not.
    std::chrono::seconds retry_after(std::string_view address, std::string_view account, clock::time_point now) const
    {
        return std::max(addresses_.retry_after(address, now), accounts_.retry_after(account, now));
    }
    void failed(std::string_view address, std::string_view account, clock::time_point now)
    {
        addresses_.fail(address, now);
        accounts_.fail(account, now);
    }
    // A right password clears the account's failures; the address keeps its own (one address
    // trying many accounts stays limited).
    void succeeded(std::string_view account) { accounts_.forget(account); }

private:
    failure_limiter addresses_;
    failure_limiter accounts_;
};

} // namespace quarto::server::accounts
