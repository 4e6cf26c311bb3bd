// The password pool with libsodium's real Argon2id: hashes and checks, the parameters in the
// hash string, the rehash of an older hash, and the queue's bound, held full by a first job whose
// reply waits for the test's word. Every wait has a deadline; nothing sleeps.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>

#include "accounts/password_pool.hpp"

namespace password_pool_test {

using namespace quarto::server::accounts;
using namespace std::chrono_literals;

constexpr auto deadline = 30s; // Argon2id at 19 MiB under the sanitizers: far below this

std::optional<std::string> hash_of(password_pool& pool, std::string_view password)
{
    std::promise<std::optional<std::string>> made;
    auto answer = made.get_future();
    REQUIRE(pool.hash(secret{password}, [&](std::optional<std::string> hash) { made.set_value(std::move(hash)); }));
    REQUIRE(answer.wait_for(deadline) == std::future_status::ready);
    return answer.get();
}

password_pool::verify_result verify(password_pool& pool, std::string_view password, std::optional<std::string> stored)
{
    std::promise<password_pool::verify_result> checked;
    auto answer = checked.get_future();
    REQUIRE(pool.verify(secret{password}, std::move(stored), [&](password_pool::verify_result r) { checked.set_value(std::move(r)); }));
    REQUIRE(answer.wait_for(deadline) == std::future_status::ready);
    return answer.get();
}

// Releases a blocked reply when the test ends, before the pool (declared earlier) joins it.
struct release_on_exit {
    std::promise<void>& release;
    ~release_on_exit()
    {
        try {
            release.set_value();
        } catch (const std::future_error&) { // released already
        }
    }
};

} // namespace password_pool_test

using namespace password_pool_test;

TEST_CASE("password pool: a hash verifies its password and no other")
{
    password_pool pool{{}};
    const auto hash = hash_of(pool, "correct horse battery staple");
    REQUIRE(hash);
    CHECK(hash->find("correct horse") == std::string::npos);

    const auto right = verify(pool, "correct horse battery staple", *hash);
    CHECK(right.match);
    CHECK_FALSE(right.rehashed); // made with the pool's own parameters
    CHECK_FALSE(verify(pool, "correct horse battery stapler", *hash).match);
    CHECK_FALSE(verify(pool, "", *hash).match);
    // No such account, or a damaged hash: no match either.
    CHECK_FALSE(verify(pool, "correct horse battery staple", std::nullopt).match);
    CHECK_FALSE(verify(pool, "correct horse battery staple", "$argon2id$v=19$garbage").match);
    // Two hashes of one password differ (a salt each) and both verify.
    const auto again = hash_of(pool, "correct horse battery staple");
    REQUIRE(again);
    CHECK(*again != *hash);
    CHECK(verify(pool, "correct horse battery staple", *again).match);
}

TEST_CASE("password pool: Argon2id at OWASP's minimum, m = 19 MiB and t = 2")
{
    CHECK(default_memlimit == 19u * 1024 * 1024);
    CHECK(default_opslimit == 2);
    password_pool pool{{}};
    const auto hash = hash_of(pool, "0123456789");
    REQUIRE(hash);
    CHECK(hash->starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
}

TEST_CASE("password pool: a hash made with weaker parameters matches and comes back rehashed")
{
    password_pool old_pool{{.threads = 1, .queue_capacity = 4, .opslimit = 1, .memlimit = std::size_t{8} << 20}};
    const auto old_hash = hash_of(old_pool, "a passphrase of old");
    REQUIRE(old_hash);
    CHECK(old_hash->starts_with("$argon2id$v=19$m=8192,t=1,p=1$"));

    password_pool pool{{}};
    const auto checked = verify(pool, "a passphrase of old", *old_hash);
    CHECK(checked.match);
    REQUIRE(checked.rehashed);
    CHECK(checked.rehashed->starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
    CHECK(verify(pool, "a passphrase of old", *checked.rehashed).match);
    // A wrong password is not rehashed.
    const auto wrong = verify(pool, "a passphrase of new", *old_hash);
    CHECK_FALSE(wrong.match);
    CHECK_FALSE(wrong.rehashed);
}

TEST_CASE("password pool: answers come through the reply, on the pool's thread")
{
    password_pool pool{{.threads = 2}};
    std::promise<std::thread::id> where;
    auto answer = where.get_future();
    REQUIRE(pool.hash(secret{"01234567"}, [&](std::optional<std::string> hash) {
        CHECK(hash);
        where.set_value(std::this_thread::get_id());
    }));
    REQUIRE(answer.wait_for(deadline) == std::future_status::ready);
    CHECK(answer.get() != std::this_thread::get_id());
}

TEST_CASE("password pool: past its queue a job is refused at once, never queued")
{
    password_pool pool{{.threads = 1, .queue_capacity = 2}};
    std::promise<void> started;
    std::promise<void> release;
    const release_on_exit releaser{release};
    auto released = release.get_future().share();
    // The one thread is held in the first job's reply, so what follows stays queued.
    REQUIRE(pool.hash(secret{"first password"}, [&, released](std::optional<std::string>) {
        started.set_value();
        released.wait_for(deadline);
    }));
    REQUIRE(started.get_future().wait_for(deadline) == std::future_status::ready);

    std::atomic<int> answered{0};
    std::promise<void> both;
    const auto count = [&](auto) {
        if (++answered == 2) both.set_value();
    };
    CHECK(pool.hash(secret{"second password"}, count));
    CHECK(pool.verify(secret{"third password"}, std::nullopt, count));
    CHECK(pool.queued() == 2);
    bool ran_refused = false;
    CHECK_FALSE(pool.hash(secret{"one too many"}, [&](auto) { ran_refused = true; }));
    CHECK_FALSE(pool.verify(secret{"one too many"}, std::nullopt, [&](auto) { ran_refused = true; }));
    CHECK(pool.queued() == 2);

    release.set_value();
    REQUIRE(both.get_future().wait_for(deadline) == std::future_status::ready);
    CHECK(answered == 2);
    CHECK(pool.queued() == 0);
    pool.stop();
    CHECK_FALSE(ran_refused);
}

TEST_CASE("password pool: stop drops what is queued unanswered and refuses what comes after")
{
    password_pool pool{{.threads = 1, .queue_capacity = 4}};
    std::promise<void> started;
    std::promise<void> release;
    auto released = release.get_future().share();
    const release_on_exit releaser{release};
    REQUIRE(pool.hash(secret{"first password"}, [&, released](std::optional<std::string>) {
        started.set_value();
        released.wait_for(deadline);
    }));
    REQUIRE(started.get_future().wait_for(deadline) == std::future_status::ready);
    std::atomic<bool> dropped_answered{false};
    REQUIRE(pool.hash(secret{"queued password"}, [&](auto) { dropped_answered = true; }));

    std::thread stopper{[&] { pool.stop(); }};
    // stop() takes the queue at once, then waits for the running job to finish.
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (pool.queued() != 0 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    CHECK(pool.queued() == 0);
    release.set_value();
    stopper.join();
    CHECK_FALSE(dropped_answered);
    CHECK_FALSE(pool.hash(secret{"after the end"}, [](auto) {}));
}

TEST_CASE("secret: moving hands over the bytes, wiping frees them")
{
    secret a{"hunter22"};
    CHECK(std::string_view{a.data(), a.size()} == "hunter22");
    secret b{std::move(a)};
    CHECK(a.size() == 0);
    CHECK(a.data() == nullptr);
    CHECK(std::string_view{b.data(), b.size()} == "hunter22");
    b.wipe();
    CHECK(b.size() == 0);
    CHECK(b.data() == nullptr);
}
