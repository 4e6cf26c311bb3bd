// The solver allocates nothing in its search beyond its table: what a solve
// allocates is its root's (the list of moves, their scores), so positions with as many legal
// moves cost as many allocations whether their search visits a few hundred nodes or tens of
// thousands.
// This file replaces the global operator new of core_tests to count them.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "random_position.hpp"
#include "quarto/core/solver/solver.hpp"

namespace {
std::atomic<std::size_t> allocations{0};
}

// Every replaceable form but the aligned ones (which stay the runtime's, new and delete alike:
// the sanitizers check that each block is freed by the family that made it).
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(bytes ? bytes : 1);
}
void* operator new(std::size_t bytes)
{
    if (void* p = operator new(bytes, std::nothrow)) return p;
    throw std::bad_alloc{};
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept { return operator new(bytes, std::nothrow); }
void* operator new[](std::size_t bytes) { return operator new(bytes); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace quarto;
using namespace quarto::solver;

TEST_CASE("solver: a search allocates as much for a few hundred nodes as for tens of thousands (none a node)")
{
    const rules squares_rules{true, attribute_set::all(), false_claim_policy::reject};
    quarto::solver::solver s{std::size_t{16} << 20};
    std::mt19937 random{20261201};
    s.solve(squares_rules, quarto::test::random_position(random, 10)); // what is made once, at the first
    std::uint64_t fewest = UINT64_MAX, most = 0;
    std::size_t expected = 0;
    int compared = 0;
    while (compared < 12) {
        // 10 empty squares and nothing to call: 90 legal moves at every root.
        const position p = quarto::test::random_position(random, 10);
        if (p.callable) continue;
        const std::size_t before = allocations.load();
        const result got = s.solve(squares_rules, p);
        const std::size_t made = allocations.load() - before;
        if (compared++ == 0) expected = made;
        CHECK_MESSAGE(made == expected, "nodes: ", got.nodes);
        fewest = std::min(fewest, got.nodes);
        most = std::max(most, got.nodes);
    }
    // The positions must differ in size for the comparison to mean anything.
    CHECK(most > 100 * fewest);
}
