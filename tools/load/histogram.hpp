// A log-linear histogram of non-negative integer samples (latencies in nanoseconds): exact
// below 64, then 32 buckets per power of two, so a percentile is within 1/32 (3.1 %) of the
// true sample. Fixed size, no allocation after construction, cheap to record and to merge.
#pragma once

#include <array>
#include <cstdint>

namespace quarto::load {

class histogram {
public:
    static constexpr int sub_bucket_bits = 5;
    static constexpr std::uint64_t sub_buckets = 1u << sub_bucket_bits; // 32 per octave
    // Values at or above 2^max_bits (about 18 minutes in ns) are counted in the last bucket.
    static constexpr int max_bits = 40;
    static constexpr std::size_t bucket_count =
        (max_bits - sub_bucket_bits) * sub_buckets + sub_buckets;

    void record(std::uint64_t value);
    void merge(const histogram& other);
    void reset();

    std::uint64_t count() const { return count_; }
    std::uint64_t max() const { return max_; }
    std::uint64_t min() const { return count_ ? min_ : 0; }
    double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }
    // The smallest recorded value v such that at least p % of the samples are <= v, to within
    // the bucket width (the bucket's upper bound is returned, never above max()). 0 when empty.
    std::uint64_t percentile(double p) const;

    // Bucket arithmetic, public for the tests.
    static std::size_t index_of(std::uint64_t value);
    static std::uint64_t lower_bound_of(std::size_t index);
    static std::uint64_t upper_bound_of(std::size_t index); // inclusive

private:
    std::array<std::uint64_t, bucket_count> counts_{};
    std::uint64_t count_ = 0;
    std::uint64_t sum_ = 0;
    std::uint64_t min_ = UINT64_MAX;
    std::uint64_t max_ = 0;
};

} // namespace quarto::load
