// What the server keeps of the memory it frees, and when it gives it back. glibc returns only the
// free top of a heap on its own: after an attack or a busy evening, the pages of the connections
// and rooms that have gone would stay resident for good (bench/RESULTS.md, the chaos soak).
// Every `period` the front asks how much malloc's arenas hold free, and past `keep` it trims them
// all.
#pragma once

#include <chrono>
#include <cstddef>

#include "net/asio.hpp"

namespace quarto::server {

// glibc gives freed memory back as soon as the top of a thread's heap is free, and takes it
// again (mprotect) a moment later: a tenth of a system call a move. Keep up to 64 MiB at the top
// and grow by 16 MiB instead. Call once, before any thread starts.
void keep_freed_memory();

// What the arenas may hold free before the periodic trim gives it back. A trim costs the next
// allocations a few page faults and one heap growth, once a period at most: cheap next to the
// resident memory an attack or a busy evening would otherwise keep.
constexpr std::size_t trim_above_bytes = std::size_t{16} << 20;

class heap_trimmer {
public:
    heap_trimmer(asio::io_context& front, std::chrono::seconds period, std::size_t keep = trim_above_bytes)
        : timer_{front}, period_{period}, keep_{keep}
    {
    }
    void start() { schedule(); }
    void stop() { timer_.cancel(); }

private:
    void schedule();
    // Trims when more than `keep` bytes lie free.
    void trim_if_worth_it();

    asio::steady_timer timer_;
    const std::chrono::seconds period_;
    const std::size_t keep_;
};

} // namespace quarto::server
