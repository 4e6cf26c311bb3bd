// A shard's runtime: its loop's turns and mailbox, its connections and their clients, the places
// they are in, and its timers. What it hosts is in shard_rooms.cpp, its delivery in
// shard_delivery.cpp, the journal gate in shard_journal.cpp, the cluster's relay in shard_relay.cpp.
#include "shards/shard.hpp"

#include "shards/client.hpp"
#include "shards/shard_of.hpp"

namespace quarto::server::shards {

namespace {
constexpr std::chrono::seconds tick_interval{1};
constexpr std::chrono::seconds sweep_interval{10};
constexpr std::chrono::seconds forget_players_after{3600};
} // namespace

// A room's or a tournament's timer: an entry of this loop's timer queue.
class shard::alarm_on_loop final : public play::alarm {
public:
    alarm_on_loop(shard& owner, std::function<void()> on_time)
        : owner_{owner}, id_{owner.loop_.timers().add([&owner, f = std::move(on_time)] { owner.guarded(f); })}
    {
    }
    ~alarm_on_loop() override { owner_.loop_.timers().remove(id_); }
    void set(instant at) override { owner_.loop_.timers().set(id_, owner_.state_.clock.to_steady(at)); }
    void cancel() override { owner_.loop_.timers().cancel(id_); }

private:
    shard& owner_;
    const net::timer_queue::id id_;
};

shard::shard(std::uint16_t index, server_state& state) : index_{index}, state_{state} {}

shard::~shard()
{
    // Rooms and tournaments first: their alarms leave the timer queue, and nothing they hold
    // refers to a client.
    tournaments_.clear();
    rooms_.clear();
    tick_.reset();
    watchers_due_.reset();
}

void shard::run()
{
    next_sweep_ = std::chrono::steady_clock::now() + sweep_interval;
    tick_ = make_alarm([this] { tick(); });
    tick_->set(now() + tick_interval);
    watchers_due_ = make_alarm([this] { flush_watchers(); });
    loop_.run(*this);
}

// ---- turns ---------------------------------------------------------------------------------

void shard::end_of_turn()
{
    while (!deferred_.empty() || !dirty_.empty() || !journal_batch_.empty() || !held_.empty() || !held_stores_.empty()) {
        while (!deferred_.empty()) {
            auto tasks = std::move(deferred_);
            deferred_.clear();
            for (auto& t : tasks) guarded(t);
        }
        seal_journal_batch();
        // A flush can end a connection (a write fails), whose client then leaves its rooms,
        // which queue frames for others: take the list until it stays empty.
        for (std::size_t i = 0; i < dirty_.size(); ++i) dirty_[i]->flush();
        dirty_.clear();
    }
    send_outboxes();
    send_relayed();
    reap(); // nothing of this turn refers to an ended client any more
}

void shard::post(task t)
{
    batch b;
    b.emplace_back(std::move(t));
    if (inbox_.push(std::move(b))) loop_.wake();
}

void shard::forward(std::uint16_t target, task t)
{
    if (outboxes_.size() < state_.shards.size()) outboxes_.resize(state_.shards.size());
    outboxes_[target].emplace_back(std::move(t));
}

void shard::on_wake()
{
    if (commit_signalled_.exchange(false)) release_committed();
    inbox_.begin_drain();
    while (auto b = inbox_.pop()) {
        for (auto& item : *b) {
            if (auto* d = std::get_if<delivery>(&item)) {
                if (!d->frame) {
                    if (client* c = find_client(d->to)) c->resume_mark();
                } else if (is_remote(d->to)) {
                    deliver(d->to, d->frame, false);
                } else if (client* c = find_client(d->to)) {
                    if (d->to_watcher) queue_for_watcher(*c, d->frame);
                    else c->connection().send(d->frame);
                }
            } else {
                guarded([&] { std::get<task>(item)(*this); });
            }
        }
    }
}

// ---- connections ---------------------------------------------------------------------------

play::client_ref shard::new_slot()
{
    std::uint32_t index;
    if (!free_slots_.empty()) {
        index = free_slots_.back();
        free_slots_.pop_back();
    } else {
        index = static_cast<std::uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    return {index_, index, slots_[index].generation};
}

void shard::open_websocket(int fd, std::shared_ptr<void> ticket, std::string address, std::string remote,
                           std::string already_read, std::string session)
{
    const auto ref = new_slot();
    spdlog::info("ws {}: connected", remote);
    auto& occupant = slots_[ref.slot].occupant;
    occupant = std::make_unique<client>(*this, ref, fd, std::move(ticket), std::move(address), std::move(remote),
                                        std::move(already_read), std::move(session));
    occupant->start();
    // A shutdown that began before this connection was counted has not told it.
    if (state_.shutting_down.load())
        occupant->connection().close(shutdown_code, shutdown_reason, false);
}

void shard::emigrate(client& c, std::uint16_t target, migrant m)
{
    retire(c);
    metrics::move(counters_.connections_open, -1);
    forward(target, [m = std::move(m)](shard& there) mutable { there.immigrate(std::move(m)); });
}

void shard::immigrate(migrant m)
{
    const auto ref = new_slot();
    auto& occupant = slots_[ref.slot].occupant;
    occupant = std::make_unique<client>(*this, ref, std::move(m));
    occupant->start();
}

client* shard::find_client(const play::client_ref& ref)
{
    if (ref.shard != index_ || ref.slot >= slots_.size()) return nullptr;
    slot& s = slots_[ref.slot];
    return s.generation == ref.generation ? s.occupant.get() : nullptr;
}

void shard::retire(client& c)
{
    auto& s = slots_[c.ref().slot];
    if (s.occupant.get() != &c) return;
    ended_.push_back(std::move(s.occupant));
    ++s.generation;
    free_slots_.push_back(c.ref().slot);
}

// Frees the clients that ended during the turn, at its end: no event of the turn and no frame
// list refers to them any more.
void shard::reap() { ended_.clear(); }

// ---- places --------------------------------------------------------------------------------

void shard::subscribed(const play::client_ref& c, const play::place& where)
{
    run_on(c.shard & ~remote_shard_bit, [c, where](shard& s) { s.client_subscribed(c, where); });
}

void shard::unsubscribed(const play::client_ref& c, const play::place& where)
{
    run_on(c.shard & ~remote_shard_bit, [c, where](shard& s) { s.client_unsubscribed(c, where); });
}

void shard::client_subscribed(const play::client_ref& c, const play::place& where)
{
    if (auto* m = remote_.find(c)) { // its node keeps its places
        remote_.entered(c);
        cluster::relay_record r{cluster::relay_record::kind::subscribed, {}, m->client,
                                where.what == play::place::kind::tournament, where.id, {}, {}};
        return relay(m->node, r);
    }
    if (client* x = find_client(c)) return x->add_place(where);
    // Gone before it learnt of it: the place forgets it too.
    run_on(state_.shard_of_place(where), [c, where](shard& s) { s.detach(c, where); });
}

void shard::client_unsubscribed(const play::client_ref& c, const play::place& where)
{
    if (auto* m = remote_.find(c)) {
        remote_.left(c, loop_.turn_time());
        cluster::relay_record r{cluster::relay_record::kind::unsubscribed, {}, m->client,
                                where.what == play::place::kind::tournament, where.id, {}, {}};
        return relay(m->node, r);
    }
    if (client* x = find_client(c)) x->remove_place(where);
}

void shard::detach(const play::client_ref& c, const play::place& where)
{
    if (where.what == play::place::kind::room) {
        if (auto* r = find_room(where.id)) return r->detach(c);
        // A room of another node: its owner is told.
        if (state_.cluster && !is_remote(c)) {
            cluster::relay_record r{cluster::relay_record::kind::detach, state_.cluster->id(),
                                    {c.shard, c.slot, c.generation}, false, where.id, {}, {}};
            to_owner(c, where, std::move(r), nullptr);
        }
    } else if (auto* t = find_tournament(where.id)) {
        t->detach(c);
    } else if (state_.cluster && !is_remote(c)) {
        cluster::relay_record r{cluster::relay_record::kind::detach, state_.cluster->id(),
                                {c.shard, c.slot, c.generation}, true, where.id, {}, {}};
        to_owner(c, where, std::move(r), nullptr);
    }
}

// ---- time ----------------------------------------------------------------------------------

std::unique_ptr<play::alarm> shard::make_alarm(std::function<void()> on_time)
{
    return std::make_unique<alarm_on_loop>(*this, std::move(on_time));
}

void shard::tick()
{
    tick_->set(now() + tick_interval);
    const auto at = loop_.turn_time();
    for (auto& s : slots_)
        if (s.occupant) s.occupant->connection().tick(at);
    if (at < next_sweep_) return;
    next_sweep_ = at + sweep_interval;
    std::erase_if(rooms_, [&](auto& item) {
        if (!item.second->reclaim_if_idle(state_.settings.room_idle)) return false;
        lobby_.remove(item.first);
        if (state_.cluster) state_.cluster->release(place_kind::room, item.first);
        state_.relocated_rooms.forget(item.first);
        ++rooms_epoch_;
        return true;
    });
    remote_.sweep(at);
    std::erase_if(tournaments_, [&](auto& item) {
        if (!item.second->close_if_deserted()) return false;
        forget_tournament(item.first);
        return true;
    });
    if (index_ == 0) state_.players.forget_idle(at, forget_players_after);
}

void shard::close_player(const std::string& player_id)
{
    for (auto& s : slots_)
        if (s.occupant && s.occupant->player() && s.occupant->player()->info.id == player_id)
            s.occupant->connection().close(net::close_code::session_ended, "session ended", false);
}

void shard::close_all()
{
    // Events still waiting for their journal commit go before the close frames.
    seal_journal_batch();
    if (!pending_.empty()) {
        close_when_released_ = true;
        return;
    }
    flush_watchers(); // what they were to get comes before the close frame
    for (auto& s : slots_)
        if (s.occupant) s.occupant->connection().close(shutdown_code, shutdown_reason, false);
}

} // namespace quarto::server::shards
