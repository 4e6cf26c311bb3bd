// The transposition table: a fixed array of two-entry buckets, allocated once. The first
// entry of a bucket keeps the deeper result (or any result of an older search), the second
// always takes the newest.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

#include <sys/mman.h>

#include "symmetry.hpp"

namespace quarto::solver::detail {

enum class bound_kind : std::uint8_t { exact, lower, upper };

struct table_hit {
    std::int8_t score;
    bound_kind bound;
    std::uint8_t depth; // placements looked ahead (all the empty squares: exact)
    std::uint8_t best;  // square << 4 | piece given, as the storing search saw them; no_best: none
};

// A hint for move ordering only: a position equal to this one under a symmetry may have stored
// it in its own frame, which costs a worse order here, never a wrong value.
inline constexpr std::uint8_t no_best = 0xFF;

class table {
public:
    explicit table(std::size_t bytes)
    {
        std::size_t buckets = 1024;
        while (buckets * 2 * sizeof(bucket) <= bytes) buckets *= 2;
        mask_ = buckets - 1;
        // Straight from mmap, not new[]: zeroed by the kernel page by page as a search first
        // touches it. Value-initializing it wrote every byte first: 64 MiB before the first
        // node, seconds for a thread at nice 10 on a loaded machine under the sanitizers, and a
        // stopping server waited for that. In 2 MiB pages where the kernel has them for the
        // asking (Debian's default): every probe is a random address, and with 4 KiB pages
        // nearly each one also missed the TLB.
        const std::size_t size = buckets * sizeof(bucket);
        void* memory = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) throw std::bad_alloc{};
#ifdef MADV_HUGEPAGE
        ::madvise(memory, size, MADV_HUGEPAGE); // a hint: without it, small pages
#endif
        buckets_ = std::unique_ptr<bucket[], unmap_buckets>{static_cast<bucket*>(memory), unmap_buckets{size}};
    }

    std::size_t bytes() const { return (mask_ + 1) * sizeof(bucket); }
    // Whether the searches that follow count as one for replacement: their results keep the
    // first entries of the buckets by depth, instead of older searches' giving way at once.
    void keep_generation(bool keep) { keep_generation_ = keep; }
    void clear() { std::memset(static_cast<void*>(buckets_.get()), 0, bytes()); }
    // Entries of other rules (2x2 squares or not, the counted attributes) never match: one
    // table serves rooms of every variant.
    void new_search(bool squares, std::uint8_t counted)
    {
        if (!keep_generation_) generation_ = static_cast<std::uint8_t>(generation_ + 1);
        tag_ = static_cast<std::uint8_t>(1 | (squares ? 2 : 0) | counted << 2);
    }

    std::optional<table_hit> probe(const table_key& k) const
    {
        const bucket& b = buckets_[index(k)];
        for (const entry& e : b.entries)
            if (e.used == tag_ && e.occupied == k.occupied && e.attributes == k.attributes)
                return table_hit{e.score, static_cast<bound_kind>(e.bound), e.depth, e.best};
        return std::nullopt;
    }

    void store(const table_key& k, std::int8_t score, bound_kind kind, std::uint8_t depth, std::uint8_t best)
    {
        bucket& b = buckets_[index(k)];
        entry fresh{k.attributes, k.occupied, score, static_cast<std::uint8_t>(kind), depth, generation_, tag_, best};
        entry& keeper = b.entries[0];
        const bool same = keeper.used == tag_ && keeper.occupied == k.occupied && keeper.attributes == k.attributes;
        if (!keeper.used || same || keeper.generation != generation_ || depth >= keeper.depth) keeper = fresh;
        else b.entries[1] = fresh;
    }

private:
    struct entry {
        std::uint64_t attributes = 0;
        std::uint16_t occupied = 0;
        std::int8_t score = 0;
        std::uint8_t bound = 0;
        std::uint8_t depth = 0;
        std::uint8_t generation = 0;
        std::uint8_t used = 0; // 0: empty, whatever the other bytes hold; else the rules' tag
        std::uint8_t best = no_best;
    };
    struct bucket {
        entry entries[2];
    };

    std::size_t index(const table_key& k) const
    {
        std::uint64_t h = k.attributes * 0x9E3779B97F4A7C15ull ^ (std::uint64_t{k.occupied} * 0xC2B2AE3D27D4EB4Full);
        h ^= h >> 29;
        return static_cast<std::size_t>(h) & mask_;
    }

    struct unmap_buckets {
        std::size_t size; // no initializer: a nested class's default one does not count until the table's is complete
        void operator()(bucket* b) const { ::munmap(b, size); }
    };
    std::unique_ptr<bucket[], unmap_buckets> buckets_;
    std::size_t mask_ = 0;
    std::uint8_t generation_ = 0;
    std::uint8_t tag_ = 1;
    bool keep_generation_ = false;
};

} // namespace quarto::solver::detail
