#include "accounts/password_pool.hpp"

#include <pthread.h>

#include <stdexcept>

#include <sodium.h>
#include <spdlog/spdlog.h>

namespace quarto::server::accounts {

password_pool::password_pool(options o) : options_{o}
{
    if (sodium_init() < 0) throw std::runtime_error{"libsodium could not be initialized"};
    workers_.reserve(options_.threads);
    for (unsigned i = 0; i < options_.threads; ++i)
        workers_.emplace_back([this, i] {
            const std::string name = "quarto-pwd-" + std::to_string(i);
            pthread_setname_np(pthread_self(), name.c_str());
            work();
        });
}

password_pool::~password_pool() { stop(); }

bool password_pool::hash(secret password, hash_reply reply)
{
    return submit(hash_job{std::move(password), std::move(reply)});
}

bool password_pool::verify(secret password, std::optional<std::string> stored, verify_reply reply)
{
    return submit(verify_job{std::move(password), std::move(stored), std::move(reply)});
}

bool password_pool::submit(job j)
{
    {
        std::lock_guard lock{mutex_};
        if (stopping_ || queue_.size() >= options_.queue_capacity) return false; // j, and its password, wiped here
        queue_.push_back(std::move(j));
    }
    wake_.notify_one();
    return true;
}

void password_pool::stop()
{
    std::deque<job> dropped;
    {
        std::lock_guard lock{mutex_};
        if (stopping_ && workers_.empty()) return;
        stopping_ = true;
        dropped.swap(queue_);
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
    workers_.clear();
    if (!dropped.empty()) spdlog::info("accounts: {} password checks not made at shutdown", dropped.size());
}

std::size_t password_pool::queued() const
{
    std::lock_guard lock{mutex_};
    return queue_.size();
}

void password_pool::work()
{
    for (;;) {
        std::optional<job> next;
        {
            std::unique_lock lock{mutex_};
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            next.emplace(std::move(queue_.front()));
            queue_.pop_front();
        }
        try {
            std::visit([this](auto& j) { run(j); }, *next);
        } catch (const std::exception& e) { // a bug in a reply: this answer is lost, the worker goes on
            spdlog::error("accounts: a password job's reply failed: {}", e.what());
        }
        // The job's password is wiped here, before the worker waits for the next one.
    }
}

std::optional<std::string> password_pool::make_hash(const secret& password) const
{
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(out, password.data(), password.size(), options_.opslimit, options_.memlimit) != 0) {
        spdlog::error("accounts: a password could not be hashed (out of memory)");
        return std::nullopt;
    }
    return std::string{out};
}

void password_pool::run(hash_job& j) const
{
    auto made = make_hash(j.password);
    j.password.wipe();
    j.reply(std::move(made));
}

void password_pool::run(verify_job& j) const
{
    verify_result result;
    if (!j.stored) {
        (void)make_hash(j.password); // the time a verification takes, for an account that does not exist
    } else if (j.stored->size() < crypto_pwhash_STRBYTES) {
        // crypto_pwhash_str_verify reads a NUL-terminated string; std::string has the NUL. A
        // malformed hash is no match (-1 as for a wrong password).
        result.match = crypto_pwhash_str_verify(j.stored->c_str(), j.password.data(), j.password.size()) == 0;
        if (result.match && crypto_pwhash_str_needs_rehash(j.stored->c_str(), options_.opslimit, options_.memlimit) != 0)
            result.rehashed = make_hash(j.password);
    }
    j.password.wipe();
    j.reply(std::move(result));
}

} // namespace quarto::server::accounts
