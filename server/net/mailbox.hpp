// A lock-free queue from any number of threads to one event loop (Dmitry Vyukov's intrusive
// multi-producer single-consumer queue). Producers push whole batches, so there is one node
// allocation, one exchange and at most one wake-up per batch, whatever it holds; the loop
// drains everything queued in one go.
//
// Wake-ups: push() tells the first producer after the consumer began a drain to wake it (post
// a drain to its loop); later pushes ride on that wake-up.
#pragma once

#include <atomic>
#include <optional>
#include <utility>

namespace quarto::server::net {

template <class Batch>
class mailbox {
public:
    mailbox() : head_{&stub_}, tail_{&stub_} {}
    ~mailbox()
    {
        while (pop()) {
        }
    }
    mailbox(const mailbox&) = delete;
    mailbox& operator=(const mailbox&) = delete;

    // Any thread. True when the caller must wake the consumer.
    bool push(Batch&& batch)
    {
        node* n = new node{std::move(batch), {nullptr}};
        node* previous = head_.exchange(n, std::memory_order_acq_rel);
        previous->next.store(n, std::memory_order_release);
        return !wake_pending_.exchange(true, std::memory_order_seq_cst);
    }

    // The consumer, before it pops: pushes from here on wake it again.
    void begin_drain() { wake_pending_.store(false, std::memory_order_seq_cst); }

    // The consumer only: the oldest batch, or nullopt when none is (wholly) pushed. A producer
    // caught between its two steps finishes its push and then wakes the consumer again.
    std::optional<Batch> pop()
    {
        node* tail = tail_;
        node* next = tail->next.load(std::memory_order_acquire);
        if (tail == &stub_) {
            if (!next) return std::nullopt;
            tail_ = next;
            tail = next;
            next = next->next.load(std::memory_order_acquire);
        }
        if (next) {
            tail_ = next;
            return take(tail);
        }
        if (tail != head_.load(std::memory_order_acquire)) return std::nullopt; // a push in progress
        stub_.next.store(nullptr, std::memory_order_relaxed);
        node* previous = head_.exchange(&stub_, std::memory_order_acq_rel);
        previous->next.store(&stub_, std::memory_order_release);
        next = tail->next.load(std::memory_order_acquire);
        if (next) {
            tail_ = next;
            return take(tail);
        }
        return std::nullopt;
    }

private:
    struct node {
        Batch batch;
        std::atomic<node*> next;
    };

    static std::optional<Batch> take(node* n)
    {
        std::optional<Batch> batch{std::move(n->batch)};
        delete n;
        return batch;
    }

    node stub_{Batch{}, {nullptr}}; // never holds a batch: the queue is never empty of nodes
    std::atomic<node*> head_;       // the newest node; producers exchange it
    node* tail_;                    // the oldest node; the consumer's alone
    std::atomic<bool> wake_pending_{false};
};

} // namespace quarto::server::net
