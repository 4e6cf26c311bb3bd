// What rooms and tournaments need of a client connection: somewhere to send serialized
// messages, and a way to put the client in a room it did not ask for (a tournament pairing).
// They hold connections by shared_ptr, so they can be tested without sockets.
#pragma once

#include <memory>
#include <string>

namespace quarto::server {

class room;

class connection {
public:
    virtual ~connection() = default;
    // Thread-safe; never blocks. The same buffer may go to many connections.
    virtual void send(std::shared_ptr<const std::string> message) = 0;
    // Thread-safe: the connection's player has been seated in `r`; attach and send its snapshot.
    virtual void enter_room(std::shared_ptr<room> r) = 0;
};

using connection_ptr = std::shared_ptr<connection>;

} // namespace quarto::server
