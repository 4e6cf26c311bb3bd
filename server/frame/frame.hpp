// One message to clients: its JSON text, serialized once, with its WebSocket frame header
// computed once; every recipient's send queue holds the same frame. Frames come from a pool
// of the thread that makes them, so a move's events cost no allocation once the pool is warm.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "frame/ws_codec.hpp"

namespace quarto::server::net {

class frame_ptr;

class frame {
public:
    // The payload to write into (empty in a fresh frame); seal() once it is written.
    std::string& text() { return text_; }
    // Computes the frame header for the payload as it stands. A text frame unless `op` says.
    void seal(opcode op = opcode::text);

    std::string_view header() const { return {header_.data(), header_size_}; }
    std::string_view payload() const { return text_; }
    std::size_t wire_size() const { return header_size_ + text_.size(); }

private:
    friend class frame_ptr;
    friend frame_ptr make_frame();
    friend struct frame_pool;
    frame() = default;
    void release();

    std::atomic<std::uint32_t> refs_{0};
    std::uint8_t header_size_ = 0;
    std::array<char, max_header_size> header_{};
    std::string text_;
};

// Shared ownership of a frame (an intrusive count: one atomic increment per recipient). The
// last owner gives the frame back to its own thread's pool.
class frame_ptr {
public:
    frame_ptr() = default;
    frame_ptr(const frame_ptr& other) : f_{other.f_} { acquire(); }
    frame_ptr(frame_ptr&& other) noexcept : f_{other.f_} { other.f_ = nullptr; }
    frame_ptr& operator=(frame_ptr other) noexcept
    {
        std::swap(f_, other.f_);
        return *this;
    }
    ~frame_ptr()
    {
        if (f_ && f_->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) f_->release();
    }

    frame* get() const { return f_; }
    frame& operator*() const { return *f_; }
    frame* operator->() const { return f_; }
    explicit operator bool() const { return f_ != nullptr; }

private:
    friend frame_ptr make_frame();
    explicit frame_ptr(frame* f) : f_{f} { acquire(); }
    void acquire()
    {
        if (f_) f_->refs_.fetch_add(1, std::memory_order_relaxed);
    }
    frame* f_ = nullptr;
};

// An empty frame from this thread's pool.
frame_ptr make_frame();
// A sealed text frame holding `text`.
frame_ptr make_frame(std::string_view text);
// A sealed control frame (ping, pong, close) with this payload.
frame_ptr make_control_frame(opcode op, std::string_view payload);

} // namespace quarto::server::net
