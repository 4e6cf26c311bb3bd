// Log-linear bucketing: for a value below 2*32 the bucket is the value itself; above, the value
// is shifted right until 6 significant bits remain (a mantissa in [32, 64)), and the bucket is
// shift * 32 + mantissa. Buckets are contiguous and each is at most 1/32 of its lower bound wide.
#include "histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace quarto::load {

std::size_t histogram::index_of(std::uint64_t value)
{
    const int width = static_cast<int>(std::bit_width(value));
    const int shift = std::max(0, width - (sub_bucket_bits + 1));
    const std::size_t index = static_cast<std::size_t>(shift) * sub_buckets + (value >> shift);
    return std::min(index, bucket_count - 1);
}

std::uint64_t histogram::lower_bound_of(std::size_t index)
{
    if (index < 2 * sub_buckets) return index;
    const std::size_t shift = index / sub_buckets - 1;
    const std::uint64_t mantissa = index - shift * sub_buckets;
    return mantissa << shift;
}

std::uint64_t histogram::upper_bound_of(std::size_t index)
{
    if (index < 2 * sub_buckets) return index;
    const std::size_t shift = index / sub_buckets - 1;
    return lower_bound_of(index) + ((std::uint64_t{1} << shift) - 1);
}

void histogram::record(std::uint64_t value)
{
    ++counts_[index_of(value)];
    ++count_;
    sum_ += value;
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
}

void histogram::merge(const histogram& other)
{
    for (std::size_t i = 0; i < bucket_count; ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    sum_ += other.sum_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
}

void histogram::reset() { *this = histogram{}; }

std::uint64_t histogram::percentile(double p) const
{
    if (count_ == 0) return 0;
    p = std::clamp(p, 0.0, 100.0);
    auto rank = static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_)));
    rank = std::clamp<std::uint64_t>(rank, 1, count_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < bucket_count; ++i) {
        seen += counts_[i];
        if (seen >= rank) return std::clamp(upper_bound_of(i), min_, max_);
    }
    return max_;
}

} // namespace quarto::load
