#include "app/heap_trimmer.hpp"

#include <malloc.h>

#include <spdlog/spdlog.h>

#include "metrics/metrics.hpp"

namespace quarto::server {

void keep_freed_memory()
{
    mallopt(M_TRIM_THRESHOLD, static_cast<int>(kept_free_bytes));
    mallopt(M_TOP_PAD, 16 << 20);
}

heap_use measure_heap()
{
    const struct mallinfo2 info = mallinfo2();
    return {info.uordblks, info.fordblks};
}

heap_use heap_trimmer::trim_if_worth_it()
{
    // mallinfo2 and malloc_trim hold each arena's lock while they walk it: a shard that allocates
    // then waits, a few ms on a heap of hundreds of MiB, which is why this runs only every period.
    const heap_use before = measure_heap();
    if (before.free_in_arenas <= keep_) return before;
    const double resident_before = metrics::resident_bytes();
    malloc_trim(0);
    spdlog::info("heap: {} MiB in use, {} MiB free in malloc's arenas: trimmed, resident {:.0f} -> {:.0f} MiB",
                 before.in_use >> 20, before.free_in_arenas >> 20, resident_before / (1 << 20),
                 metrics::resident_bytes() / (1 << 20));
    return before;
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
