#include "accounts/secret.hpp"

#include <cstring>
#include <utility>

#include <sodium.h>

namespace quarto::server::accounts {

secret::secret(std::string_view text) : bytes_{std::make_unique<char[]>(text.size() + 1)}, size_{text.size()}
{
    std::memcpy(bytes_.get(), text.data(), text.size());
}

secret::secret(secret&& other) noexcept : bytes_{std::move(other.bytes_)}, size_{std::exchange(other.size_, 0)} {}

secret& secret::operator=(secret&& other) noexcept
{
    if (this != &other) {
        wipe();
        bytes_ = std::move(other.bytes_);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void secret::wipe() noexcept
{
    // sodium_memzero: a write the compiler may not remove as dead before the free.
    if (bytes_) sodium_memzero(bytes_.get(), size_);
    bytes_.reset();
    size_ = 0;
}

} // namespace quarto::server::accounts
