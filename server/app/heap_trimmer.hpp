// What the server keeps of the memory it frees, and when it gives it back. glibc returns only the
// free top of a heap on its own: after an attack or a busy evening, the pages of the connections
// and rooms that have gone would stay resident for good (bench/RESULTS-chaos.md). Every `period`
// the front asks how much malloc's arenas hold free, and past `keep` it trims them all.
#pragma once

#include <chrono>
#include <cstddef>

#include "net/asio.hpp"

namespace quarto::server {

// The most malloc keeps free before it is trimmed: at the top of a heap (glibc's own trim) and,
// every period, in all the arenas (heap_trimmer).
constexpr std::size_t kept_free_bytes = std::size_t{64} << 20;

// glibc gives freed memory back as soon as the top of a thread's heap is free, and takes it
// again (mprotect) a moment later: a tenth of a system call a move. Keep up to kept_free_bytes
// and grow by 16 MiB instead. Call once, before any thread starts.
void keep_freed_memory();

struct heap_use {
    std::size_t in_use = 0;         // bytes handed out by malloc (every arena)
    std::size_t free_in_arenas = 0; // bytes malloc holds free, resident or not
};

heap_use measure_heap();

class heap_trimmer {
public:
    heap_trimmer(asio::io_context& front, std::chrono::seconds period, std::size_t keep = kept_free_bytes)
        : timer_{front}, period_{period}, keep_{keep}
    {
    }
    void start() { schedule(); }
    void stop() { timer_.cancel(); }
    // Trims when more than `keep` bytes lie free; returns the use measured before.
    heap_use trim_if_worth_it();

private:
    void schedule();

    asio::steady_timer timer_;
    const std::chrono::seconds period_;
    const std::size_t keep_;
};

} // namespace quarto::server
