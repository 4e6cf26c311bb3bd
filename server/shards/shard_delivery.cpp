// A shard's delivery: frames for its clients (a watcher's may wait watcher_delay to share a
// write), for clients of other shards (one batch per shard at the end of the turn) and for
// clients of other nodes, and a resume's mark behind them.
#include "shards/shard.hpp"

#include "shards/client.hpp"

namespace quarto::server::shards {

void shard::send_outboxes()
{
    for (std::size_t target = 0; target < outboxes_.size(); ++target) {
        if (outboxes_[target].empty()) continue;
        metrics::bump(counters_.batches_out);
        shard& other = *state_.shards[target];
        if (other.inbox_.push(std::move(outboxes_[target]))) other.loop_.wake();
        outboxes_[target] = batch{};
    }
}

void shard::send_to_watcher(const play::client_ref& to, const net::frame_ptr& f)
{
    metrics::bump(counters_.messages_out);
    if (holding()) held_.push_back({to, f, true});
    else deliver(to, f, true);
}

void shard::send(const play::client_ref& to, const net::frame_ptr& f)
{
    metrics::bump(counters_.messages_out);
    if (holding()) held_.push_back({to, f, false});
    else deliver(to, f, false);
}

void shard::resume_mark(const play::client_ref& c)
{
    if (holding()) held_.push_back({c, net::frame_ptr{}, false});
    else deliver(c, net::frame_ptr{}, false);
}

void shard::deliver(const play::client_ref& to, const net::frame_ptr& f, bool to_watcher)
{
    if (!f) { // a resume's mark: in order with the frames sent to `to` before it
        if (to.shard == index_) {
            if (client* c = find_client(to)) c->resume_mark();
            return;
        }
        if (outboxes_.size() < state_.shards.size()) outboxes_.resize(state_.shards.size());
        outboxes_[to.shard].emplace_back(delivery{to, net::frame_ptr{}});
        return;
    }
    if (is_remote(to)) {
        const std::uint16_t home = to.shard & ~remote_shard_bit;
        if (home != index_) { // a member of another shard's rooms (a tournament's rooms elsewhere)
            if (outboxes_.size() < state_.shards.size()) outboxes_.resize(state_.shards.size());
            outboxes_[home].emplace_back(delivery{to, f});
            return;
        }
        const auto* m = remote_.find(to);
        if (!m) return;
        cluster::relay_record r;
        r.client = m->client;
        r.text.assign(f->payload());
        return relay(m->node, r);
    }
    if (!to_watcher) {
        if (to.shard == index_) {
            if (client* c = find_client(to)) c->connection().send(f);
            return;
        }
        if (outboxes_.size() < state_.shards.size()) outboxes_.resize(state_.shards.size());
        outboxes_[to.shard].emplace_back(delivery{to, f});
        return;
    }
    if (to.shard == index_) {
        if (client* c = find_client(to)) queue_for_watcher(*c, f);
        return;
    }
    if (outboxes_.size() < state_.shards.size()) outboxes_.resize(state_.shards.size());
    outboxes_[to.shard].emplace_back(delivery{to, f, true});
}

void shard::queue_for_watcher(client& c, const net::frame_ptr& f)
{
    c.connection().send(f, /*flush_at_turn_end=*/false);
    if (c.waiting_watcher_flush) return;
    c.waiting_watcher_flush = true;
    if (watchers_.empty()) watchers_due_->set(now() + watcher_delay);
    watchers_.push_back(c.ref());
}

void shard::flush_watchers()
{
    for (const auto& ref : watchers_) {
        if (client* c = find_client(ref)) {
            c->waiting_watcher_flush = false;
            c->connection().flush();
        }
    }
    watchers_.clear();
}

} // namespace quarto::server::shards
