// The event of an accepted action, written into a pooled frame once and shared by every
// recipient.
#pragma once

#include "frame/frame.hpp"

namespace quarto::server::play {

template <class Write>
net::frame_ptr event_frame(Write write)
{
    net::frame_ptr f = net::make_frame();
    write(f->text());
    f->seal();
    return f;
}

} // namespace quarto::server::play
