// Guest players: created by hello with a name, found again by their secret token. Only the
// token's hash is kept (archive/token_hash.hpp): the token itself goes to its player once, in
// welcome, and is never stored or logged. Touched on hello, join and leave only, never per game
// message, so one mutex suffices.
//
// Guests are counted per client address: past the cap, a new guest makes the address's
// longest-idle guest (no connection, no room, no tournament) forgotten at once, so that one
// client saying hello and leaving in a loop holds a bounded number of records.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "quarto/archive/accounts.hpp"
#include "quarto/protocol/encode.hpp"

namespace quarto::server::play {

struct player_record {
    player_record() = default;
    player_record(model::player_info player, std::string hash, bool has_account = false,
                  std::array<std::optional<archive::stored_rating>, 2> pool_ratings = {})
        : info{std::move(player)}, token_hash{std::move(hash)}, account{has_account}, ratings{pool_ratings}
    {
    }

    model::player_info info;
    std::string token_hash; // a guest's; empty for an account, whose identity is its session
    bool account = false;
    // An account's rating in each pool (by rating::pool), as the archive last had it, or as its
    // last rated game here left it; none before the first rated game of the pool.
    std::array<std::optional<archive::stored_rating>, 2> ratings;

    // The rating a rated game in `pool` starts from: a player new to the pool is a new player.
    archive::stored_rating rating_in(rating::pool pool) const;
};

// The rating shown beside an account's name in a room of `rules`: the pool of those rules
// (advanced for 2x2 squares, else standard); none for a guest.
std::optional<model::shown_rating> shown_rating_of(const player_record& p, const rules& r);

class player_registry {
public:
    // 0: no cap.
    void set_guests_per_address(std::size_t cap) { guests_per_address_ = cap; }
    // A new player with a fresh token, written to `token` when given (the caller sends it),
    // from client address `address` (empty: not counted).
    std::shared_ptr<const player_record> create(std::string name, std::string* token = nullptr,
                                                const std::string& address = {});
    std::shared_ptr<const player_record> find_by_token(std::string_view token) const;
    std::shared_ptr<const player_record> find_by_id(const std::string& id) const;
    // A player known before a restart (from a stored tournament): same id, name and token hash.
    std::shared_ptr<const player_record> restore(const player_record& record);
    // The player's new name: a new record (same id and token hash) replaces the old one, which
    // those holding it keep as it was. Null for an unknown id.
    std::shared_ptr<const player_record> rename(const std::string& id, std::string name);
    // An account signed in (a session's hello) or made of a guest (claimed): its record, with
    // `name` and `ratings`, replaces any record of the id, and the guest's token no longer
    // resumes it. Creates the record when the id is not known here.
    std::shared_ptr<const player_record> sign_in(const std::string& id, std::string name,
                                                 const std::array<std::optional<archive::stored_rating>, 2>& ratings);
    // A rated game has ended: the account's rating in the pool. Nothing for an unknown id.
    void set_rating(const std::string& id, rating::pool pool, const archive::stored_rating& r);
    // How many renames (and new ratings) there have been: a connection holding a record sees
    // when it may be stale (another connection of the same player renamed, a game rated)
    // without taking the lock.
    std::uint64_t renames() const { return renames_.load(std::memory_order_acquire); }

    // The rooms a player is in (seated or watching), so that a resumed player gets them back.
    void add_room(const std::string& player_id, const std::string& room_id);
    void remove_room(const std::string& player_id, const std::string& room_id);
    std::vector<std::string> rooms_of(const std::string& player_id) const;
    std::size_t room_count(const std::string& player_id) const;
    // The tournaments a player plays in or directs: they are re-subscribed on resume, and the
    // player is never forgotten while in one. False (nothing added) for a player forgotten.
    bool add_tournament(const std::string& player_id, const std::string& tournament_id);
    void remove_tournament(const std::string& player_id, const std::string& tournament_id);
    std::vector<std::string> tournaments_of(const std::string& player_id) const;

    // Live connections per player: a player with none, in no room, is forgotten after a while.
    void connected(const std::string& player_id);
    void disconnected(const std::string& player_id);
    std::size_t forget_idle(std::chrono::steady_clock::time_point now, std::chrono::seconds idle);
    std::size_t size() const;

private:
    struct entry {
        std::shared_ptr<const player_record> record;
        std::vector<std::string> rooms;
        std::vector<std::string> tournaments;
        int connections = 0;
        std::chrono::steady_clock::time_point last_seen;
        std::string address;
        bool idle() const { return connections == 0 && rooms.empty() && tournaments.empty(); }
    };
    // Forgets the address's longest-idle guest when it has as many as the cap allows.
    void make_room_for_guest(const std::string& address);
    void forget(std::unordered_map<std::string, entry>::iterator it);

    std::size_t guests_per_address_ = 0;
    std::atomic<std::uint64_t> renames_{0};
    mutable std::mutex mutex_;
    std::unordered_map<std::string, entry> by_id_;
    std::unordered_map<std::string, std::string> id_by_token_hash_;
    std::unordered_map<std::string, std::vector<std::string>> ids_by_address_;
};

} // namespace quarto::server::play
