#include "app/heap_trimmer.hpp"

#include <malloc.h>

#include <spdlog/spdlog.h>

#include "metrics/metrics.hpp"

namespace quarto::server {

void keep_freed_memory()
{
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
}

void heap_trimmer::trim_if_worth_it()
{
    // mallinfo2 and malloc_trim hold each arena's lock while they walk it: a shard that allocates
    // then waits, a few ms on a heap of hundreds of MiB, which is why this runs only every period.
    const struct mallinfo2 heap = mallinfo2(); // uordblks: in use; fordblks: free, resident or not
    if (heap.fordblks <= keep_) return;
    const double resident_before = metrics::resident_bytes();
    malloc_trim(0);
    spdlog::info("heap: {} MiB in use, {} MiB free in malloc's arenas: trimmed, resident {:.0f} -> {:.0f} MiB",
                 heap.uordblks >> 20, heap.fordblks >> 20, resident_before / (1 << 20),
                 metrics::resident_bytes() / (1 << 20));
}

void heap_trimmer::schedule()
{
    timer_.expires_after(period_);
    timer_.async_wait([this](const beast::error_code& ec) {
        if (ec) return;
        trim_if_worth_it();
        schedule();
    });
}

} // namespace quarto::server
