#include "play/player_registry.hpp"

#include <algorithm>
#include <cmath>

#include <spdlog/fmt/fmt.h>

#include "play/random_ids.hpp"
#include "quarto/archive/token_hash.hpp"
#include "quarto/core/rating/glicko2.hpp"

namespace quarto::server::play {

std::shared_ptr<const player_record> player_registry::create(std::string name, std::string* token,
                                                             const std::string& address)
{
    std::string fresh = new_token();
    std::string hash = archive::token_hash(fresh);
    if (token) *token = std::move(fresh);
    std::lock_guard lock{mutex_};
    if (!address.empty()) make_room_for_guest(address);
    std::string id;
    do { // "p" + 8 random characters, written in place: g++ 12 -O2 reports a false
         // -Wstringop-overflow on "p" + new_short_id() (and on appending it)
        id = new_short_id(9);
        id[0] = 'p';
    } while (by_id_.contains(id));
    auto record = std::make_shared<const player_record>(player_record{{id, std::move(name), {}}, std::move(hash), false, {}});
    id_by_token_hash_.emplace(record->token_hash, id);
    by_id_.emplace(id, entry{record, {}, {}, 0, std::chrono::steady_clock::now(), address});
    if (!address.empty()) ids_by_address_[address].push_back(id);
    return record;
}

void player_registry::make_room_for_guest(const std::string& address)
{
    if (guests_per_address_ == 0) return;
    const auto ids = ids_by_address_.find(address);
    if (ids == ids_by_address_.end() || ids->second.size() < guests_per_address_) return;
    auto oldest = by_id_.end();
    for (const auto& id : ids->second) {
        const auto it = by_id_.find(id);
        if (it->second.idle() && (oldest == by_id_.end() || it->second.last_seen < oldest->second.last_seen)) oldest = it;
    }
    // None idle: all are connected or playing, each held by the caps on connections and rooms.
    if (oldest != by_id_.end()) forget(oldest);
}

void player_registry::forget(std::unordered_map<std::string, entry>::iterator it)
{
    const entry& e = it->second;
    id_by_token_hash_.erase(e.record->token_hash);
    if (!e.address.empty()) {
        const auto ids = ids_by_address_.find(e.address);
        std::erase(ids->second, it->first);
        if (ids->second.empty()) ids_by_address_.erase(ids);
    }
    by_id_.erase(it);
}

archive::stored_rating player_record::rating_in(rating::pool pool) const
{
    if (const auto& r = ratings[static_cast<std::size_t>(pool)]) return *r;
    const rating::rating fresh = rating::new_player;
    return {pool, fresh.value, fresh.deviation, fresh.volatility, 0, 0};
}

std::optional<model::shown_rating> shown_rating_of(const player_record& p, const rules& r)
{
    if (!p.account) return std::nullopt;
    const auto pool = r.squares ? rating::pool::advanced : rating::pool::standard;
    const archive::stored_rating s = p.rating_in(pool);
    return model::shown_rating{static_cast<int>(std::lround(s.rating)),
                               rating::provisional({s.rating, s.deviation, s.volatility, s.games})};
}

std::shared_ptr<const player_record> player_registry::sign_in(
    const std::string& id, std::string name, const std::array<std::optional<archive::stored_rating>, 2>& ratings)
{
    std::lock_guard lock{mutex_};
    auto record = std::make_shared<const player_record>(player_record{{id, std::move(name), {}}, {}, true, ratings});
    const auto it = by_id_.find(id);
    if (it == by_id_.end()) {
        by_id_.emplace(id, entry{record, {}, {}, 0, std::chrono::steady_clock::now(), {}});
        return record;
    }
    if (!it->second.record->token_hash.empty()) id_by_token_hash_.erase(it->second.record->token_hash);
    it->second.record = record;
    renames_.fetch_add(1, std::memory_order_release);
    return record;
}

void player_registry::set_rating(const std::string& id, rating::pool pool, const archive::stored_rating& r)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(id);
    if (it == by_id_.end()) return;
    auto changed = std::make_shared<player_record>(*it->second.record);
    changed->ratings[static_cast<std::size_t>(pool)] = r;
    it->second.record = std::move(changed);
    renames_.fetch_add(1, std::memory_order_release);
}

std::shared_ptr<const player_record> player_registry::restore(const player_record& known)
{
    std::lock_guard lock{mutex_};
    if (const auto it = by_id_.find(known.info.id); it != by_id_.end()) return it->second.record;
    auto record = std::make_shared<const player_record>(known);
    if (!record->token_hash.empty()) id_by_token_hash_.emplace(record->token_hash, record->info.id);
    by_id_.emplace(record->info.id, entry{record, {}, {}, 0, std::chrono::steady_clock::now(), {}});
    return record;
}

std::shared_ptr<const player_record> player_registry::rename(const std::string& id, std::string name)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(id);
    if (it == by_id_.end()) return nullptr;
    auto& record = it->second.record;
    if (record->info.name != name) {
        auto renamed = std::make_shared<player_record>(*record);
        renamed->info.name = std::move(name);
        record = std::move(renamed);
        renames_.fetch_add(1, std::memory_order_release);
    }
    return record;
}

std::shared_ptr<const player_record> player_registry::find_by_id(const std::string& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second.record;
}

std::shared_ptr<const player_record> player_registry::find_by_token(std::string_view token) const
{
    const std::string hash = archive::token_hash(token);
    std::lock_guard lock{mutex_};
    const auto id = id_by_token_hash_.find(hash);
    if (id == id_by_token_hash_.end()) return nullptr;
    return by_id_.at(id->second).record;
}

void player_registry::add_room(const std::string& player_id, const std::string& room_id)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    if (it == by_id_.end()) return;
    auto& rooms = it->second.rooms;
    if (std::find(rooms.begin(), rooms.end(), room_id) == rooms.end()) rooms.push_back(room_id);
}

void player_registry::remove_room(const std::string& player_id, const std::string& room_id)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    if (it == by_id_.end()) return;
    std::erase(it->second.rooms, room_id);
    it->second.last_seen = std::chrono::steady_clock::now();
}

std::vector<std::string> player_registry::rooms_of(const std::string& player_id) const
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    return it == by_id_.end() ? std::vector<std::string>{} : it->second.rooms;
}

std::size_t player_registry::room_count(const std::string& player_id) const
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    return it == by_id_.end() ? 0 : it->second.rooms.size();
}

bool player_registry::add_tournament(const std::string& player_id, const std::string& tournament_id)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    if (it == by_id_.end()) return false;
    auto& tournaments = it->second.tournaments;
    if (std::find(tournaments.begin(), tournaments.end(), tournament_id) == tournaments.end())
        tournaments.push_back(tournament_id);
    return true;
}

void player_registry::remove_tournament(const std::string& player_id, const std::string& tournament_id)
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    if (it == by_id_.end()) return;
    std::erase(it->second.tournaments, tournament_id);
    it->second.last_seen = std::chrono::steady_clock::now();
}

std::vector<std::string> player_registry::tournaments_of(const std::string& player_id) const
{
    std::lock_guard lock{mutex_};
    const auto it = by_id_.find(player_id);
    return it == by_id_.end() ? std::vector<std::string>{} : it->second.tournaments;
}

void player_registry::connected(const std::string& player_id)
{
    std::lock_guard lock{mutex_};
    if (const auto it = by_id_.find(player_id); it != by_id_.end()) ++it->second.connections;
}

void player_registry::disconnected(const std::string& player_id)
{
    std::lock_guard lock{mutex_};
    if (const auto it = by_id_.find(player_id); it != by_id_.end()) {
        --it->second.connections;
        it->second.last_seen = std::chrono::steady_clock::now();
    }
}

std::size_t player_registry::forget_idle(std::chrono::steady_clock::time_point now, std::chrono::seconds idle)
{
    std::lock_guard lock{mutex_};
    std::size_t forgotten = 0;
    for (auto it = by_id_.begin(); it != by_id_.end();) {
        const auto next = std::next(it);
        if (it->second.idle() && now - it->second.last_seen >= idle) {
            forget(it);
            ++forgotten;
        }
        it = next;
    }
    return forgotten;
}

std::size_t player_registry::size() const
{
    std::lock_guard lock{mutex_};
    return by_id_.size();
}

} // namespace quarto::server::play
