// A one-shot timer a room or tournament owns, made by its host: a steady_timer on the shard's
// loop in the server, a manual clock in the tests. Setting it again replaces the time; the
// callback runs on the owner's thread when the time comes, and never after cancel() or the
// alarm's destruction.
#pragma once

#include "quarto/core/clock.hpp"

namespace quarto::server::play {

class alarm {
public:
    virtual ~alarm() = default;
    virtual void set(instant at) = 0;
    virtual void cancel() = 0;
};

} // namespace quarto::server::play
