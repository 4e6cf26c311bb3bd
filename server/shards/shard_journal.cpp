// The journal gate: what a turn journals goes out as one batch at its end, and what rooms
// sent meanwhile is held until that batch has committed, so that no event reaches anyone
// before its change is on disk; and the archive's writes, ordered behind the journal.
#include "shards/shard.hpp"


namespace quarto::server::shards {

void shard::journal_append(const model::room_id& room, std::int64_t n, const play::room_change& change,
                           std::string_view event)
{
    journal_batch_.append(room, n, [&](std::string& out) { play::encode_into(out, change); }, event);
}

void shard::journal_cut(const model::room_id& room, std::int64_t below_n)
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

void shard::archive_game(const model::room_id& room, archive::game_record record)
{
    if (!state_.archive) return; // only a server without an archive: never in quarto-server
    state_.archive->save_game(std::move(record), archiving(room));
}

void shard::archive_game_if_missing(const model::room_id& room, archive::game_record record)
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
std::function<void(bool)> shard::archiving(const model::room_id& room)
{
    ++archiving_[room].games;
    return [this, room, &counters = state_.shared_counters](bool stored) {
        (stored ? counters.games_archived : counters.archive_failures).fetch_add(1, std::memory_order_relaxed);
        post([room](shard& s) { s.archived(room); });
    };
}

void shard::archived(const model::room_id& room)
{
    const auto it = archiving_.find(room);
    if (it == archiving_.end() || --it->second.games > 0) return;
    const std::int64_t cut = it->second.cut;
    archiving_.erase(it);
    if (cut > 0) journal_batch_.cut(room, cut);
}

// After the journal has what led to the change: a tournament stored as having started a game,
// or scored one, finds that game's room in the journal after a crash.
void shard::store(const model::tournament_id& id, std::string name, std::string status, std::string state,
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

void shard::forget_tournament(const model::tournament_id& id)
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

} // namespace quarto::server::shards
