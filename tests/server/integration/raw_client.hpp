// A TCP connection to the server written byte for byte, for what no library would send: an
// upgrade request with frames behind it in the same write, a request line in absolute-form, a
// request without Host, a text frame that is not UTF-8. What comes back is read with a deadline:
// the response's head, then WebSocket frames.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ws_client.hpp"

namespace quarto_test {

// A frame as the server sent it.
struct raw_frame {
    bool fin = false;
    std::uint8_t op = 0; // 0x1 text, 0x8 close, 0xA pong, ...
    std::string payload;
    // A close frame's code (0 when it has none).
    std::uint16_t close_code() const;
};

// A client frame, masked as RFC 6455 requires: `first_byte` is FIN | opcode (0x81 a final
// text frame, 0x01 its first fragment, 0x80 the last continuation, 0x89 a ping, 0x88 a close).
std::string masked_frame(std::uint8_t first_byte, std::string_view payload);
// A close frame's payload: the code, then the reason's bytes.
std::string close_payload(std::uint16_t code, std::string_view reason = {});

// An upgrade request for `target` (the whole request-target, as in the request line), with a
// Host header naming 127.0.0.1:PORT unless `host` is false.
std::string upgrade_request(unsigned short port, const std::string& target = "/ws", bool host = true);

class raw_connection {
public:
    explicit raw_connection(unsigned short port); // throws if it cannot connect
    ~raw_connection();
    raw_connection(const raw_connection&) = delete;
    raw_connection& operator=(const raw_connection&) = delete;

    // Writes `bytes` in one write() (as one TCP segment, when it fits).
    void write(std::string_view bytes);
    // The response's status code and head (up to the blank line), or 0 at the deadline or when
    // the stream ends first. What follows the head stays for read_frame() and read_rest().
    unsigned read_status(std::string* head = nullptr, steady::time_point deadline = in(default_wait));
    // The next frame; nullopt at the deadline or the end of the stream.
    std::optional<raw_frame> read_frame(steady::time_point deadline = in(default_wait));
    // Frames until one of type `op` (returned) or nullopt; those before it go to `skipped`.
    std::optional<raw_frame> read_until(std::uint8_t op, steady::time_point deadline = in(default_wait));
    // Everything until the server ends the stream; nullopt at the deadline.
    std::optional<std::string> read_rest(steady::time_point deadline = in(default_wait));

private:
    // Reads more; false at the deadline or the end of the stream.
    bool receive(steady::time_point deadline);

    int fd_ = -1;
    std::string inbox_;
    bool ended_ = false;
};

} // namespace quarto_test
