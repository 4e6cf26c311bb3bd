// Argon2id (libsodium's crypto_pwhash_str) off the event loops: a few threads of its own
// taking jobs from one bounded queue. A hash costs tens of milliseconds and 19 MiB on purpose,
// so a full queue refuses a job at once (the caller answers `rate_limited`) instead of letting
// logins pile up without end. An answer is handed to the job's reply on the worker thread: the
// caller posts it to the loop it came from, as with bots::bot_pool. The pool sees passwords and
// hashes and never logs either; a password is wiped as soon as its job is done or dropped.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "accounts/secret.hpp"

namespace quarto::server::accounts {

// OWASP's Password Storage Cheat Sheet, Argon2id: "a minimum configuration of 19 MiB of memory,
// an iteration count of 2, and 1 degree of parallelism" (libsodium's Argon2id always runs with
// one lane). In the hash string: $argon2id$v=19$m=19456,t=2,p=1$...
inline constexpr unsigned long long default_opslimit = 2;
inline constexpr std::size_t default_memlimit = std::size_t{19} << 20;

class password_pool {
public:
    struct options {
        unsigned threads = 1;
        std::size_t queue_capacity = 64;
        unsigned long long opslimit = default_opslimit;
        std::size_t memlimit = default_memlimit;
    };

    // A new hash, or none when it could not be made (the memory was refused).
    using hash_reply = std::function<void(std::optional<std::string> hash)>;

    struct verify_result {
        bool match = false;
        // When the password matched a hash made with other parameters than the pool's: the
        // same password hashed with the pool's, to store in place of the old one.
        std::optional<std::string> rehashed;
    };
    using verify_reply = std::function<void(verify_result)>;

    // Calls sodium_init() (idempotent, thread-safe; throws std::runtime_error when libsodium
    // cannot start) and starts the threads.
    explicit password_pool(options o);
    ~password_pool(); // stop()
    password_pool(const password_pool&) = delete;
    password_pool& operator=(const password_pool&) = delete;

    // From any thread, never blocking on a hash: false when the queue is full or the pool has
    // stopped (the job is not kept and its password is wiped at once).
    bool hash(secret password, hash_reply reply);
    // Checks `password` against `stored`. With no stored hash (no such account) the password is
    // hashed all the same and the answer is no match: the same work, so the same time, whether
    // the account exists or not.
    bool verify(secret password, std::optional<std::string> stored, verify_reply reply);

    // Stops taking jobs, drops the queued ones unanswered (their passwords wiped), lets each
    // thread finish the hash it is making (its answer is still given) and joins them. Idempotent.
    void stop();

    std::size_t queued() const;
    std::size_t capacity() const { return options_.queue_capacity; }
    const options& settings() const { return options_; }

private:
    struct hash_job {
        secret password;
        hash_reply reply;
    };
    struct verify_job {
        secret password;
        std::optional<std::string> stored;
        verify_reply reply;
    };
    using job = std::variant<hash_job, verify_job>;

    bool submit(job j);
    void work();
    void run(hash_job& j) const;
    void run(verify_job& j) const;
    std::optional<std::string> make_hash(const secret& password) const;

    const options options_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<job> queue_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

} // namespace quarto::server::accounts
