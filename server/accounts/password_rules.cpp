#include "accounts/password_rules.hpp"

namespace quarto::server::accounts {

password_check check_password(std::string_view password)
{
    if (password.size() > max_password_bytes) return password_check::too_long;
    std::size_t characters = 0;
    for (const char byte : password)
        if ((static_cast<unsigned char>(byte) & 0xC0) != 0x80) ++characters;
    return characters < min_password_characters ? password_check::too_short : password_check::ok;
}

} // namespace quarto::server::accounts
