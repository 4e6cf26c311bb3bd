// The latency histogram against an exact reference: sorted samples.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "histogram.hpp"

using quarto::load::histogram;

namespace {

// The sample at rank ceil(p% of n), the definition histogram::percentile approximates.
std::uint64_t reference(const std::vector<std::uint64_t>& sorted, double p)
{
    auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

void check_against_reference(const std::vector<std::uint64_t>& samples)
{
    histogram h;
    for (auto v : samples) h.record(v);
    auto sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    REQUIRE(h.count() == samples.size());
    CHECK(h.max() == sorted.back());
    CHECK(h.min() == sorted.front());
    for (double p : {0.0, 0.1, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
        const auto want = reference(sorted, p);
        const auto got = h.percentile(p);
        CAPTURE(p);
        CAPTURE(want);
        CAPTURE(got);
        // Never below the true value, and above it by less than one bucket: 1/32 of the value.
        CHECK(got >= want);
        CHECK(static_cast<double>(got - want) <= static_cast<double>(want) / 32.0);
    }
}

} // namespace

TEST_CASE("buckets are contiguous and each value falls in its own bucket")
{
    for (std::size_t i = 0; i + 1 < histogram::bucket_count; ++i) {
        CAPTURE(i);
        REQUIRE(histogram::upper_bound_of(i) + 1 == histogram::lower_bound_of(i + 1));
        REQUIRE(histogram::index_of(histogram::lower_bound_of(i)) == i);
        REQUIRE(histogram::index_of(histogram::upper_bound_of(i)) == i);
        // Relative width at most 1/32 above the exact range.
        if (i >= 64)
            REQUIRE(histogram::upper_bound_of(i) - histogram::lower_bound_of(i) + 1 <=
                    histogram::lower_bound_of(i) / 32);
    }
    CHECK(histogram::index_of(0) == 0);
    CHECK(histogram::index_of(63) == 63);
    CHECK(histogram::index_of(UINT64_MAX) == histogram::bucket_count - 1);
}

TEST_CASE("an empty histogram reports zeros")
{
    histogram h;
    CHECK(h.count() == 0);
    CHECK(h.percentile(50) == 0);
    CHECK(h.max() == 0);
    CHECK(h.min() == 0);
}

TEST_CASE("small values are exact")
{
    histogram h;
    for (std::uint64_t v = 1; v <= 50; ++v) h.record(v);
    CHECK(h.percentile(50) == 25);
    CHECK(h.percentile(100) == 50);
    CHECK(h.percentile(1) == 1);
    CHECK(h.mean() == doctest::Approx(25.5));
}

TEST_CASE("percentiles match a sorted-vector reference on random data")
{
    std::mt19937_64 random{12345};
    SUBCASE("uniform, microseconds to milliseconds in ns")
    {
        std::uniform_int_distribution<std::uint64_t> d{1'000, 5'000'000};
        std::vector<std::uint64_t> samples(100'000);
        for (auto& s : samples) s = d(random);
        check_against_reference(samples);
    }
    SUBCASE("log-uniform over 9 decades")
    {
        std::uniform_real_distribution<double> exponent{0.0, 9.0};
        std::vector<std::uint64_t> samples(50'000);
        for (auto& s : samples) s = static_cast<std::uint64_t>(std::pow(10.0, exponent(random)));
        check_against_reference(samples);
    }
    SUBCASE("a long tail: mostly fast, a few very slow")
    {
        std::exponential_distribution<double> fast{1.0 / 40'000.0};
        std::uniform_int_distribution<std::uint64_t> slow{10'000'000, 900'000'000};
        std::bernoulli_distribution rare{0.003};
        std::vector<std::uint64_t> samples(200'000);
        for (auto& s : samples) s = rare(random) ? slow(random) : static_cast<std::uint64_t>(fast(random));
        check_against_reference(samples);
    }
    SUBCASE("a handful of samples")
    {
        std::uniform_int_distribution<std::uint64_t> d{0, 1'000'000'000};
        for (int n = 1; n <= 7; ++n) {
            std::vector<std::uint64_t> samples(static_cast<std::size_t>(n));
            for (auto& s : samples) s = d(random);
            check_against_reference(samples);
        }
    }
}

TEST_CASE("merging two histograms equals recording everything in one")
{
    std::mt19937_64 random{7};
    std::uniform_int_distribution<std::uint64_t> d{0, 100'000'000};
    histogram a, b, all;
    for (int i = 0; i < 20'000; ++i) {
        const auto v = d(random);
        (i % 3 ? a : b).record(v);
        all.record(v);
    }
    a.merge(b);
    CHECK(a.count() == all.count());
    CHECK(a.max() == all.max());
    CHECK(a.min() == all.min());
    for (double p : {1.0, 50.0, 99.0, 99.9}) CHECK(a.percentile(p) == all.percentile(p));
    a.reset();
    CHECK(a.count() == 0);
    CHECK(a.percentile(99) == 0);
}
