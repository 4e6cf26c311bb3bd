// systemd socket activation (libsystemd's sd_listen_fds(3)): a listening socket handed to the
// process as fd 3, named by LISTEN_PID and LISTEN_FDS. systemd keeps its own copy across
// restarts, so connections made while no server runs wait in its backlog for the next one
// instead of being refused.
#pragma once

#include <optional>
#include <string>

namespace quarto::server::net {

struct activation {
    std::optional<int> fd; // the listening socket, when one was handed over
    std::string problem;   // non-empty: sockets were handed over but cannot be used
};

// Reads and then unsets LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES (children must not see
// them). Nothing handed over (or meant for another process): no fd, no problem. Exactly one
// listening TCP socket is expected; it is made close-on-exec.
activation inherited_listener();

} // namespace quarto::server::net
