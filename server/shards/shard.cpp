#include "shards/shard.hpp"

#include "play/random_ids.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/stored_tournament.hpp"
#include "shards/client.hpp"
#include "shards/player_json.hpp"
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
                           std::string already_read)
{
    const auto ref = new_slot();
    spdlog::info("ws {}: connected", remote);
    auto& occupant = slots_[ref.slot].occupant;
    occupant = std::make_unique<client>(*this, ref, fd, std::move(ticket), std::move(address), std::move(remote),
                                        std::move(already_read));
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

// ---- the journal ---------------------------------------------------------------------------

void shard::journal_append(const protocol::room_id& room, std::int64_t n, const play::room_change& change,
                           std::string_view event)
{
    journal_batch_.append(room, n, [&](std::string& out) { play::encode_into(out, change); }, event);
}

void shard::journal_cut(const protocol::room_id& room, std::int64_t below_n)
{
    if (const auto it = archiving_.find(room); it != archiving_.end()) {
        it->second.cut = std::max(it->second.cut, below_n);
        return;
    }
    journal_batch_.cut(room, below_n);
}

void shard::seal_journal_batch()
{
    if (journal_batch_.empty() && held_.empty() && held_stores_.empty()) return;
    const std::uint64_t number = next_batch_++;
    const bool writes = !journal_batch_.empty();
    pending_.push_back({number, std::move(held_), std::exchange(held_stores_, {}), writes});
    held_ = std::move(spare_sends_); // empty, with the capacity a batch has needed
    spare_sends_.clear();
    if (writes) {
        metrics::bump(counters_.journal_batches);
        archive::journal_batch next;
        next.reserve(journal_batch_.bytes().size());
        state_.journal->write(std::exchange(journal_batch_, std::move(next)),
                              [this, number](bool ok) { journal_committed(number, ok); }, index_);
        if (state_.journal->closes_windows_early()) loop_.call_when_idle();
    }
    release_committed();
}

// Nothing more is coming from this shard for now: the journal need not keep its window open.
void shard::on_idle() { state_.journal->writer_idle(index_); }

// On the journal's thread: batches commit in the order they were written.
void shard::journal_committed(std::uint64_t number, bool ok)
{
    if (!ok) journal_failures_.fetch_add(1);
    committed_through_.store(number);
    if (!commit_signalled_.exchange(true)) loop_.wake();
}

void shard::release_committed()
{
    if (const auto failures = journal_failures_.load(); failures != journal_failures_seen_) {
        // The rooms have changed already: their events go out, but a restart would not have them.
        metrics::bump(counters_.journal_failures, failures - journal_failures_seen_);
        spdlog::error("shard {}: {} journal batches were not written; their events go out anyway", index_,
                      failures - journal_failures_seen_);
        journal_failures_seen_ = failures;
        if (state_.journal->fenced()) stop_fenced_node(state_.settings.node_id);
    }
    const std::uint64_t through = committed_through_.load();
    while (!pending_.empty() && (!pending_.front().writes || pending_.front().number <= through)) {
        pending_batch& b = pending_.front();
        for (const auto& s : b.sends) deliver(s.to, s.frame, s.to_watcher);
        for (const auto& store : b.stores) store();
        b.sends.clear();
        if (b.sends.capacity() > spare_sends_.capacity()) spare_sends_ = std::move(b.sends);
        pending_.pop_front();
    }
    if (close_when_released_ && pending_.empty()) {
        close_when_released_ = false;
        close_all();
    }
}

bool shard::restore_room(const protocol::room_id& id, std::span<const archive::journal_entry> entries)
{
    loop_.refresh_turn_time(); // the room's clocks resume from now
    std::string problem;
    auto restored = play::room::restore(*this, id, entries, problem);
    if (!restored) {
        // Kept in the log (the entries are dropped, so that the id is free again).
        spdlog::error("journal: room {} NOT restored: {}", id, problem);
        for (const auto& e : entries) spdlog::error("journal: room {} entry {}: {} | {}", id, e.n, e.change, e.event);
        journal_cut(id, archive::journal_batch::all_entries);
        state_.relocated_rooms.forget(id);
        return false;
    }
    auto& r = *rooms_.emplace(id, std::move(restored)).first->second;
    lobby_.add(r.listing(), r.lobby());
    publish_lobby(id);
    if (state_.cluster) {
        state_.cluster->claim(place_kind::room, id);
        std::vector<std::string> seated;
        for (const auto& seat : r.lobby().seats)
            if (seat) seated.push_back(seat->id);
        announce_moved({play::place::kind::room, id}, seated);
    }
    return true;
}

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

// ---- rooms and tournaments -----------------------------------------------------------------

play::room* shard::find_room(const protocol::room_id& id)
{
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second.get();
}

std::vector<play::room*> shard::rooms_of_tournament(const protocol::tournament_id& tournament)
{
    std::vector<play::room*> out;
    for (auto& [id, r] : rooms_)
        if (r->tournament() && r->tournament()->tournament == tournament) out.push_back(r.get());
    return out;
}

tournaments::tournament* shard::find_tournament(const protocol::tournament_id& id)
{
    const auto it = tournaments_.find(id);
    return it == tournaments_.end() ? nullptr : it->second.get();
}

void shard::room_request(play::room* r, const play::client_ref& from, const play::player_record& p,
                         const protocol::room_message& m, const nlohmann::json& req, std::string_view text, bool ask_cluster)
{
    if (!r && state_.cluster && !is_remote(from) && ask_cluster) {
        spdlog::debug("room {}: not on shard {} for a client's message: asking Redis where it is", m.room, index_);
        cluster::relay_record record{cluster::relay_record::kind::message, state_.cluster->id(),
                                     {from.shard, from.slot, from.generation}, false, m.room, player_json(p),
                                     std::string{text}};
        return to_owner(from, {play::place::kind::room, m.room}, std::move(record), req);
    }
    if (!r) {
        counters_.error(protocol::error_code::no_such_room);
        return send(from, net::make_frame(protocol::error_reply(
                              protocol::error_code::no_such_room,
                              protocol::default_message(protocol::error_code::no_such_room), req)));
    }
    const auto* joining = std::get_if<protocol::join>(&m.action);
    const bool may_start_a_game = (joining && !joining->as_spectator) || std::holds_alternative<protocol::rematch>(m.action);
    if (may_start_a_game && new_games_refused(from, req)) return;
    const auto started = std::chrono::steady_clock::now();
    r->handle(from, p, m.action, req);
    counters_.room_handling.record(std::chrono::steady_clock::now() - started);
}

bool shard::new_games_refused(const play::client_ref& from, const nlohmann::json& req)
{
    if (!state_.journal || !state_.journal->backlogged()) return false;
    counters_.error(protocol::error_code::unavailable);
    send(from, net::make_frame(protocol::error_reply(
                   protocol::error_code::unavailable,
                   "No new game can start right now: the server cannot store games (its database is out of reach). "
                   "Please try again in a moment.",
                   req)));
    return true;
}

protocol::room_id shard::new_room_id() const
{
    // Drawn until it hashes to this shard (a few tries: one in `shards` ids does).
    protocol::room_id id;
    do id = play::new_short_id();
    while (shard_of(id, state_.shards.size()) != index_ || rooms_.contains(id) || state_.relocated_rooms.find(id));
    return id;
}

play::room& shard::create_room(play::room_settings settings, const play::client_ref& creator, const play::player_record& p)
{
    auto id = new_room_id();
    auto& r = *rooms_.emplace(id, std::make_unique<play::room>(*this, id, std::move(settings))).first->second;
    lobby_.add(r.listing(), r.lobby());
    if (state_.cluster) state_.cluster->claim(place_kind::room, id);
    publish_lobby(id);
    r.seat_creator(creator, p);
    return r;
}

play::room& shard::open_game_room(play::room_settings settings, const play::player_record& first_seat,
                                  const play::player_record& second_seat)
{
    auto id = new_room_id();
    auto& r = *rooms_.emplace(id, std::make_unique<play::room>(*this, id, std::move(settings))).first->second;
    lobby_.add(r.listing(), r.lobby());
    if (state_.cluster) state_.cluster->claim(place_kind::room, id);
    publish_lobby(id);
    r.seat_pair(first_seat, second_seat);
    return r;
}

tournaments::tournament& shard::create_tournament(protocol::tournament_settings settings, const play::player_record& p,
                                                  std::shared_ptr<void> quota)
{
    protocol::tournament_record record;
    record.settings = std::move(settings);
    record.director = p.info.id;
    record.director_name = p.info.name;
    record.created_ms = unix_ms();
    do { // "t" + 8 random characters, written in place (see player_registry::create)
        record.id = play::new_short_id(9);
        record.id[0] = 't';
    } while (state_.shard_of_tournament(record.id) != index_ || tournaments_.contains(record.id));
    auto views = std::make_shared<tournaments::tournament_views>();
    const auto id = record.id;
    const auto created_ms = record.created_ms;
    auto& t = *tournaments_
                   .emplace(id, std::make_unique<tournaments::tournament>(*this, std::move(record), views, std::move(quota)))
                   .first->second;
    state_.tournaments.add(id, created_ms, std::move(views));
    if (state_.cluster) state_.cluster->claim(place_kind::tournament, id);
    return t;
}

void shard::load_tournament(protocol::tournament_record record)
{
    auto views = std::make_shared<tournaments::tournament_views>();
    const auto id = record.id;
    const auto created_ms = record.created_ms;
    // An unfinished one counts against its director's cap again (its address is not kept).
    std::shared_ptr<void> quota;
    if (record.status != protocol::tournament_status::finished)
        quota = state_.tournaments_per_director->admit(record.director, /*even_over_cap=*/true);
    auto& t = *tournaments_
                   .emplace(id, std::make_unique<tournaments::tournament>(*this, std::move(record), views, std::move(quota)))
                   .first->second;
    state_.tournaments.add(id, created_ms, std::move(views));
    if (state_.cluster) state_.cluster->claim(place_kind::tournament, id);
    // Now, not in the posted reopen: a director or player whose hello came before this shard
    // ran it would resume without the tournament (no snapshot, ever).
    t.link_people();
    post([&t](shard&) { t.reopen(); });
}

void shard::adopt_tournament(protocol::tournament_record record)
{
    const auto id = record.id;
    if (tournaments_.contains(id)) return;
    load_tournament(std::move(record));
    // After the reopen just posted: a client's resume finds the tournament as it goes on.
    post([id](shard& s) {
        if (auto* t = s.find_tournament(id)) s.announce_moved({play::place::kind::tournament, id}, t->people());
    });
}

std::string shard::rooms_page(const protocol::page_request& page, const nlohmann::json& req) const
{
    std::vector<const play::lobby_board*> boards;
    boards.reserve(state_.shards.size());
    for (const auto& s : state_.shards) boards.push_back(&s->lobby_);
    return play::rooms_page(boards, page, req, state_.cluster ? &state_.other_nodes_rooms : nullptr);
}

std::string shard::room_summary(const protocol::room_id& id) const
{
    // A room is on the board of the shard it lives on; asking each board costs a lookup apiece.
    for (const auto& s : state_.shards)
        if (auto summary = s->lobby_.summary(id); !summary.empty()) return summary;
    return state_.other_nodes_rooms.summary(id);
}

void shard::lobby_changed(const protocol::room_id& room, const play::lobby_state& state)
{
    lobby_.update(room, state);
    publish_lobby(room);
}

bool shard::think(const bots::think_request& request, std::function<void(const solver::move&)> answer)
{
    if (!state_.bots) return false;
    // The answer comes back through this shard's mailbox: the room is touched on its own thread.
    return state_.bots->submit({request, [this, answer = std::move(answer)](const solver::move& m) {
                                    post([answer, m](shard&) { answer(m); });
                                }});
}

void shard::archive_game(const protocol::room_id& room, archive::game_record record)
{
    if (!state_.archive) return; // only a server without an archive: never in quarto-server
    state_.archive->save_game(std::move(record), archiving(room));
}

void shard::archive_game_if_missing(const protocol::room_id& room, archive::game_record record)
{
    if (!state_.archive) return;
    auto* archive = state_.archive.get();
    const std::string id = record.id;
    // The answer comes on the archive's thread, which may enqueue the save itself.
    archive->find_game(id, [this, room, archive, record = std::move(record), done = archiving(room)](auto found) mutable {
        if (found.failed || found.value) return post([room](shard& s) { s.archived(room); });
        spdlog::info("archive: game {} was not stored before the restart; storing it now", record.id);
        archive->save_game(std::move(record), std::move(done));
    });
}

// The answer runs on the archive's thread. A game that could not be stored is counted and logged
// there, and the cut goes ahead then too (the room cannot wait for an archive that may never
// come back).
std::function<void(bool)> shard::archiving(const protocol::room_id& room)
{
    ++archiving_[room].games;
    return [this, room, &counters = state_.shared_counters](bool stored) {
        (stored ? counters.games_archived : counters.archive_failures).fetch_add(1, std::memory_order_relaxed);
        post([room](shard& s) { s.archived(room); });
    };
}

void shard::archived(const protocol::room_id& room)
{
    const auto it = archiving_.find(room);
    if (it == archiving_.end() || --it->second.games > 0) return;
    const std::int64_t cut = it->second.cut;
    archiving_.erase(it);
    if (cut > 0) journal_batch_.cut(room, cut);
}

// After the journal has what led to the change: a tournament stored as having started a game,
// or scored one, finds that game's room in the journal after a crash.
void shard::store(const protocol::tournament_id& id, std::string name, std::string status, std::string state,
                  std::function<void()> stored)
{
    publish_tournament(id);
    if (!state_.archive) return stored ? stored() : void();
    auto save = [this, id, name = std::move(name), status = std::move(status), state = std::move(state),
                 stored = std::move(stored)]() mutable {
        state_.archive->save_tournament(id, std::move(name), std::move(status), std::move(state),
                                        [this, stored = std::move(stored)](bool) mutable {
                                            if (stored) post([stored = std::move(stored)](shard&) { stored(); });
                                        });
    };
    after_journal(std::move(save));
}

void shard::forget_tournament(const protocol::tournament_id& id)
{
    state_.tournaments.remove(id);
    if (state_.cluster) state_.cluster->release(place_kind::tournament, id);
    if (!state_.archive) return;
    // After any store of it still held for the journal: the last word is the deletion.
    after_journal([this, id] { state_.archive->delete_tournament(id); });
}

void shard::after_journal(std::function<void()> write)
{
    if (holding()) held_stores_.push_back(std::move(write));
    else write();
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
