// mailbox: order, the wake-up flag, and many producers against one consumer.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "net/mailbox.hpp"
#include "net_support.hpp"

using quarto::server::net::mailbox;

namespace {

// Counts the batches alive, to see that the mailbox frees what it still holds.
struct counted {
    static inline int alive = 0;
    int value = 0;
    counted() { ++alive; }
    explicit counted(int v) : value{v} { ++alive; }
    counted(counted&& other) noexcept : value{other.value} { ++alive; }
    counted& operator=(counted&& other) noexcept
    {
        value = other.value;
        return *this;
    }
    ~counted() { --alive; }
};

} // namespace

TEST_CASE("mailbox: one thread gets its batches back in order")
{
    mailbox<std::vector<int>> box;
    CHECK_FALSE(box.pop());
    box.push({1, 2});
    box.push({3});
    box.push({});
    box.push({4, 5, 6});
    auto a = box.pop();
    REQUIRE(a);
    CHECK(*a == std::vector<int>{1, 2});
    auto b = box.pop();
    REQUIRE(b);
    CHECK(*b == std::vector<int>{3});
    auto c = box.pop();
    REQUIRE(c);
    CHECK(c->empty());
    auto d = box.pop();
    REQUIRE(d);
    CHECK(*d == std::vector<int>{4, 5, 6});
    CHECK_FALSE(box.pop());
    CHECK_FALSE(box.pop());
}

TEST_CASE("mailbox: pushes and pops interleaved, emptying it again and again")
{
    // Each time the queue runs dry the consumer puts the stub node back; this walks that path.
    mailbox<int> box;
    int next_in = 0, next_out = 0;
    for (int round = 0; round < 50; ++round) {
        const int pushes = round % 4 + 1;
        for (int i = 0; i < pushes; ++i) box.push(int{next_in++});
        const int pops = round % 3 == 0 ? pushes : pushes - (round % 2);
        for (int i = 0; i < pops; ++i) {
            auto v = box.pop();
            REQUIRE(v);
            CHECK(*v == next_out++);
        }
    }
    while (auto v = box.pop()) CHECK(*v == next_out++);
    CHECK(next_out == next_in);
    CHECK_FALSE(box.pop());
}

TEST_CASE("mailbox: push asks for a wake-up once until the consumer begins a drain")
{
    mailbox<int> box;
    CHECK(box.push(1));       // the first push wakes the consumer
    CHECK_FALSE(box.push(2)); // later ones ride on that wake-up
    CHECK_FALSE(box.push(3));
    box.begin_drain();
    CHECK(box.pop() == 1);
    CHECK(box.push(4)); // pushed after the drain began: wake again
    CHECK_FALSE(box.push(5));
    CHECK(box.pop() == 2);
    CHECK(box.pop() == 3);
    CHECK(box.pop() == 4);
    CHECK(box.pop() == 5);
    CHECK_FALSE(box.pop());
    // Popping alone does not re-arm the flag: only begin_drain does.
    CHECK_FALSE(box.push(6));
    box.begin_drain();
    CHECK(box.push(7));
}

TEST_CASE("mailbox: batches still queued are freed with the mailbox")
{
    counted::alive = 0;
    {
        mailbox<counted> box;
        const int stub = counted::alive; // the stub node's empty batch
        for (int i = 0; i < 10; ++i) box.push(counted{i});
        CHECK(counted::alive == stub + 10);
        auto first = box.pop();
        REQUIRE(first);
        CHECK(first->value == 0);
    }
    CHECK(counted::alive == 0);
}

TEST_CASE("mailbox: four producers, one consumer: every item arrives once, in each producer's order")
{
    constexpr int producers = 4;
    constexpr std::uint32_t items_per_producer = 100'000;
    struct item {
        std::uint32_t producer;
        std::uint32_t seq;
    };
    using batch = std::vector<item>;
    mailbox<batch> box;

    // The consumer sleeps until a push says to wake it, as a loop does with a posted drain.
    std::mutex m;
    std::condition_variable cv;
    std::uint64_t wakes = 0;
    auto wake = [&] {
        const std::lock_guard lock{m};
        ++wakes;
        cv.notify_one();
    };

    std::vector<std::thread> threads;
    for (std::uint32_t p = 0; p < producers; ++p) {
        threads.emplace_back([&, p] {
            std::uint32_t seq = 0;
            std::uint32_t size = 1;
            while (seq < items_per_producer) {
                batch b;
                for (std::uint32_t i = 0; i < size && seq < items_per_producer; ++i) b.push_back({p, seq++});
                if (box.push(std::move(b))) wake();
                size = size % 7 + 1; // batches of 1..7 items
            }
        });
    }

    std::vector<std::uint32_t> next(producers, 0);
    std::uint64_t received = 0, drains = 0, out_of_order = 0;
    std::string first_problem;
    bool stalled = false;
    std::uint64_t seen = 0;
    while (received < std::uint64_t{producers} * items_per_producer) {
        {
            std::unique_lock lock{m};
            if (!cv.wait_for(lock, std::chrono::seconds(20), [&] { return wakes != seen; })) {
                stalled = true; // a lost wake-up: items are queued and nobody said so
                break;
            }
            seen = wakes;
        }
        ++drains;
        box.begin_drain();
        while (auto b = box.pop()) {
            for (const item& i : *b) {
                if (i.producer >= producers || i.seq != next[i.producer]) {
                    if (out_of_order++ == 0)
                        first_problem = "producer " + std::to_string(i.producer) + " sent " + std::to_string(i.seq) +
                                        ", expected " + std::to_string(i.producer < producers ? next[i.producer] : 0);
                    if (i.producer < producers) next[i.producer] = i.seq + 1;
                } else {
                    ++next[i.producer];
                }
                ++received;
            }
        }
    }
    for (auto& t : threads) t.join();

    INFO("received " << received << " items in " << drains << " drains");
    CHECK_FALSE(stalled);
    INFO(first_problem);
    CHECK(out_of_order == 0);
    for (std::uint32_t p = 0; p < producers; ++p) CHECK(next[p] == items_per_producer);
    CHECK(received == std::uint64_t{producers} * items_per_producer);
    CHECK_FALSE(box.pop()); // nothing extra
}
