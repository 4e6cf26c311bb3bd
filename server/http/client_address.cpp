#include "http/client_address.hpp"

namespace quarto::server::http {

std::optional<std::string> last_forwarded_for(std::string_view header)
{
    const auto comma = header.rfind(',');
    std::string_view last = comma == std::string_view::npos ? header : header.substr(comma + 1);
    while (!last.empty() && (last.front() == ' ' || last.front() == '\t')) last.remove_prefix(1);
    while (!last.empty() && (last.back() == ' ' || last.back() == '\t')) last.remove_suffix(1);
    beast::error_code ec;
    const auto address = asio::ip::make_address(last, ec);
    if (ec) return std::nullopt;
    return address.to_string();
}

client_address address_of(const beast::http::request<beast::http::string_body>& request, const tcp::endpoint& peer, bool trust_proxy)
{
    const std::string peer_address = peer.address().to_string();
    const std::string peer_text = peer_address + ":" + std::to_string(peer.port());
    if (trust_proxy) {
        // Repeated header lines form one list; the proxy's entry is the last of the last line.
        std::optional<std::string> forwarded;
        const auto [first, last] = request.equal_range("X-Forwarded-For");
        for (auto field = first; field != last; ++field) {
            const std::string_view value{field->value().data(), field->value().size()};
            forwarded = last_forwarded_for(value);
        }
        if (forwarded) return {*forwarded, *forwarded + " via " + peer_text};
    }
    return {peer_address, peer_text};
}

} // namespace quarto::server::http
