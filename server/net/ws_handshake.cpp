#include "net/ws_handshake.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <openssl/evp.h>
#include <openssl/sha.h>

namespace quarto::server::net {
namespace http = boost::beast::http;

namespace {

bool iequals(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

// Whether a comma-separated header value lists `token` (case-insensitive).
bool lists_token(std::string_view value, std::string_view token)
{
    while (!value.empty()) {
        const auto comma = value.find(',');
        std::string_view item = value.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        if (iequals(item, token)) return true;
        if (comma == std::string_view::npos) break;
        value.remove_prefix(comma + 1);
    }
    return false;
}

std::string_view field(const http::request<http::string_body>& r, http::field f)
{
    const auto it = r.find(f);
    return it == r.end() ? std::string_view{} : std::string_view{it->value().data(), it->value().size()};
}

// A key is the base64 of 16 bytes: 24 characters, the last two "==".
bool valid_key(std::string_view key)
{
    if (key.size() != 24 || key.substr(22) != "==") return false;
    return std::all_of(key.begin(), key.begin() + 22, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/';
    });
}

} // namespace

std::string accept_key(std::string_view client_key)
{
    static constexpr std::string_view guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    std::string joined{client_key};
    joined += guid;
    std::array<unsigned char, SHA_DIGEST_LENGTH> digest{};
    SHA1(reinterpret_cast<const unsigned char*>(joined.data()), joined.size(), digest.data());
    std::array<unsigned char, 4 * ((SHA_DIGEST_LENGTH + 2) / 3) + 1> encoded{};
    const int n = EVP_EncodeBlock(encoded.data(), digest.data(), SHA_DIGEST_LENGTH);
    return std::string{reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(n)};
}

bool is_websocket_upgrade(const http::request<http::string_body>& r)
{
    return lists_token(field(r, http::field::connection), "upgrade") && lists_token(field(r, http::field::upgrade), "websocket");
}

std::variant<std::string, handshake_refusal> accept_handshake(const http::request<http::string_body>& r)
{
    if (r.method() != http::verb::get) return handshake_refusal{http::status::bad_request, "the upgrade must be a GET"};
    if (r.version() < 11) return handshake_refusal{http::status::bad_request, "the upgrade needs HTTP/1.1"};
    if (!lists_token(field(r, http::field::connection), "upgrade") ||
        !lists_token(field(r, http::field::upgrade), "websocket"))
        return handshake_refusal{http::status::bad_request, "not a WebSocket upgrade"};
    const std::string_view key = field(r, http::field::sec_websocket_key);
    if (!valid_key(key)) return handshake_refusal{http::status::bad_request, "a missing or malformed Sec-WebSocket-Key"};
    if (field(r, http::field::sec_websocket_version) != "13")
        return handshake_refusal{http::status::upgrade_required, "WebSocket version 13 is required", true};

    std::string response = "HTTP/1.1 101 Switching Protocols\r\n"
                           "Upgrade: websocket\r\n"
                           "Connection: upgrade\r\n"
                           "Sec-WebSocket-Accept: ";
    response += accept_key(key);
    response += "\r\nServer: quarto-server\r\n\r\n";
    return response;
}

} // namespace quarto::server::net
