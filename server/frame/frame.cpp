#include "frame/frame.hpp"

#include <vector>

namespace quarto::server::net {

// Per thread: frames are made on the shard that writes an event and, nearly always, released
// there once the last recipient has written it. A frame released on another thread joins that
// thread's pool instead; nothing is shared, so nothing is locked.
struct frame_pool {
    // Frames kept for reuse, and the largest text capacity kept with them: a snapshot or a
    // long lobby list is freed rather than kept.
    static constexpr std::size_t max_frames = 4096;
    static constexpr std::size_t max_kept_capacity = 2048;

    std::vector<frame*> free;

    ~frame_pool()
    {
        for (frame* f : free) delete f;
    }

    static frame_pool& local()
    {
        thread_local frame_pool pool;
        return pool;
    }
};

void frame::seal(opcode op)
{
    header_size_ = static_cast<std::uint8_t>(
        write_header(reinterpret_cast<std::uint8_t*>(header_.data()), op, text_.size()));
}

void frame::release()
{
    auto& pool = frame_pool::local();
    if (pool.free.size() < frame_pool::max_frames && text_.capacity() <= frame_pool::max_kept_capacity) {
        text_.clear();
        header_size_ = 0;
        pool.free.push_back(this);
    } else {
        delete this;
    }
}

frame_ptr make_frame()
{
    auto& pool = frame_pool::local();
    if (pool.free.empty()) return frame_ptr{new frame};
    frame* f = pool.free.back();
    pool.free.pop_back();
    return frame_ptr{f};
}

frame_ptr make_frame(std::string_view text)
{
    frame_ptr f = make_frame();
    f->text().assign(text);
    f->seal();
    return f;
}

frame_ptr make_control_frame(opcode op, std::string_view payload)
{
    frame_ptr f = make_frame();
    f->text().assign(payload);
    f->seal(op);
    return f;
}

} // namespace quarto::server::net
