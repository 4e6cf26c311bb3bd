// What a room needs of a client connection: somewhere to send serialized messages. The room
// holds connections by shared_ptr, so rooms can be tested without sockets.
#pragma once

#include <memory>
#include <string>

namespace quarto::server {

class connection {
public:
    virtual ~connection() = default;
    // Thread-safe; never blocks. The same buffer may go to many connections.
    virtual void send(std::shared_ptr<const std::string> message) = 0;
};

using connection_ptr = std::shared_ptr<connection>;

} // namespace quarto::server
