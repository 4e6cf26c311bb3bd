// A bounded set of recently seen values (room ids, tournament ids, tokens) to pick from at
// random: attackers aim at things that exist, or existed a moment ago.
#pragma once

#include <cstddef>
#include <optional>
#include <random>
#include <vector>

namespace quarto::chaos {

template <class T>
class recent {
public:
    explicit recent(std::size_t capacity) : capacity_{capacity} { items_.reserve(capacity); }

    void add(T value)
    {
        if (items_.size() < capacity_) items_.push_back(std::move(value));
        else items_[next_++ % capacity_] = std::move(value); // overwrite the oldest
    }

    std::optional<T> pick(std::mt19937_64& random) const
    {
        if (items_.empty()) return std::nullopt;
        return items_[std::uniform_int_distribution<std::size_t>{0, items_.size() - 1}(random)];
    }

    std::size_t size() const { return items_.size(); }

private:
    std::size_t capacity_;
    std::size_t next_ = 0;
    std::vector<T> items_;
};

} // namespace quarto::chaos
