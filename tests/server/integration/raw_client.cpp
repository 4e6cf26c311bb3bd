// See raw_client.hpp.
#include "raw_client.hpp"

#include <cerrno>
#include <stdexcept>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace quarto_test {

std::uint16_t raw_frame::close_code() const
{
    if (op != 0x8 || payload.size() < 2) return 0;
    return static_cast<std::uint16_t>((static_cast<std::uint8_t>(payload[0]) << 8) | static_cast<std::uint8_t>(payload[1]));
}

std::string masked_frame(std::uint8_t first_byte, std::string_view payload)
{
    static constexpr std::uint8_t key[4] = {0x5A, 0xC3, 0x0F, 0x96};
    std::string f;
    f += static_cast<char>(first_byte);
    if (payload.size() < 126) {
        f += static_cast<char>(0x80 | payload.size());
    } else {
        f += static_cast<char>(0x80 | 126);
        f += static_cast<char>((payload.size() >> 8) & 0xFF);
        f += static_cast<char>(payload.size() & 0xFF);
    }
    for (const auto k : key) f += static_cast<char>(k);
    for (std::size_t i = 0; i < payload.size(); ++i) f += static_cast<char>(static_cast<std::uint8_t>(payload[i]) ^ key[i % 4]);
    return f;
}

std::string close_payload(std::uint16_t code, std::string_view reason)
{
    std::string p;
    p += static_cast<char>(code >> 8);
    p += static_cast<char>(code & 0xFF);
    p += reason;
    return p;
}

std::string upgrade_request(unsigned short port, const std::string& target, bool host)
{
    std::string r = "GET " + target + " HTTP/1.1\r\n";
    if (host) r += "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
    r += "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    return r;
}

raw_connection::raw_connection(unsigned short port)
{
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd_);
        throw std::runtime_error("connect failed");
    }
    const int on = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

raw_connection::~raw_connection() { ::close(fd_); }

void raw_connection::write(std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error("write failed");
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

bool raw_connection::receive(steady::time_point deadline)
{
    while (!ended_) {
        const auto left = std::chrono::ceil<milliseconds>(deadline - steady::now()).count();
        if (left <= 0) return false;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
        char buffer[16 * 1024];
        const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { // the end, or a reset
            ended_ = true;
            return false;
        }
        inbox_.append(buffer, static_cast<std::size_t>(n));
        return true;
    }
    return false;
}

unsigned raw_connection::read_status(std::string* head, steady::time_point deadline)
{
    std::size_t end;
    while ((end = inbox_.find("\r\n\r\n")) == std::string::npos)
        if (!receive(deadline)) return 0;
    const std::string text = inbox_.substr(0, end + 4);
    inbox_.erase(0, end + 4);
    if (head) *head = text;
    // "HTTP/1.1 101 Switching Protocols"
    const auto space = text.find(' ');
    return space == std::string::npos ? 0 : static_cast<unsigned>(std::stoul(text.substr(space + 1, 3)));
}

std::optional<raw_frame> raw_connection::read_frame(steady::time_point deadline)
{
    for (;;) {
        const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(inbox_[i]); };
        if (inbox_.size() >= 2) {
            std::size_t at = 2;
            std::uint64_t length = byte(1) & 0x7F;
            bool whole = true;
            if (length == 126) {
                whole = inbox_.size() >= 4;
                if (whole) length = (std::uint64_t{byte(2)} << 8) | byte(3), at = 4;
            } else if (length == 127) {
                whole = inbox_.size() >= 10;
                if (whole) {
                    length = 0;
                    for (std::size_t i = 0; i < 8; ++i) length = (length << 8) | byte(2 + i);
                    at = 10;
                }
            }
            if (whole && inbox_.size() >= at + length) {
                raw_frame f;
                f.fin = (byte(0) & 0x80) != 0;
                f.op = byte(0) & 0x0F;
                f.payload = inbox_.substr(at, static_cast<std::size_t>(length));
                inbox_.erase(0, at + static_cast<std::size_t>(length));
                return f;
            }
        }
        if (!receive(deadline)) return std::nullopt;
    }
}

std::optional<raw_frame> raw_connection::read_until(std::uint8_t op, steady::time_point deadline)
{
    while (auto f = read_frame(deadline))
        if (f->op == op) return f;
    return std::nullopt;
}

std::optional<std::string> raw_connection::read_rest(steady::time_point deadline)
{
    while (!ended_)
        if (!receive(deadline) && !ended_) return std::nullopt;
    return std::exchange(inbox_, {});
}

} // namespace quarto_test
