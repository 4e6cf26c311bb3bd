// A password while it is needed: a heap buffer of its own that is zeroed before it is freed.
// Moving it moves the pointer, so no copy of the bytes is left behind (a std::string moved
// from may keep its bytes in its small-string buffer). Never printed, never compared here.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace quarto::server::accounts {

class secret {
public:
    secret() = default;
    explicit secret(std::string_view text); // copies text: the caller wipes its own copy
    ~secret() { wipe(); }
    secret(secret&& other) noexcept;
    secret& operator=(secret&& other) noexcept;
    secret(const secret&) = delete;
    secret& operator=(const secret&) = delete;

    const char* data() const { return bytes_.get(); }
    std::size_t size() const { return size_; }
    // Zeroes and frees the bytes now (the destructor does too).
    void wipe() noexcept;

private:
    std::unique_ptr<char[]> bytes_;
    std::size_t size_ = 0;
};

} // namespace quarto::server::accounts
