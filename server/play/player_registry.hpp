// Guest players: created by hello with a name, found again by their secret token. Only the
// token's hash is kept (archive/token_hash.hpp): the token itself goes to its player once, in
// welcome, and is never stored or logged. Touched on hello, join and leave only, never per game
// message, so one mutex suffices.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "quarto/protocol/encode.hpp"

namespace quarto::server::play {

struct player_record {
    protocol::player_info info;
    std::string token_hash;
};

class player_registry {
public:
    // A new player with a fresh token, written to `token` when given (the caller sends it).
    std::shared_ptr<const player_record> create(std::string name, std::string* token = nullptr);
    std::shared_ptr<const player_record> find_by_token(std::string_view token) const;
    std::shared_ptr<const player_record> find_by_id(const std::string& id) const;
    // A player known before a restart (from a stored tournament): same id, name and token hash.
    std::shared_ptr<const player_record> restore(const player_record& record);

    // The rooms a player is in (seated or watching), so that a resumed player gets them back.
    void add_room(const std::string& player_id, const std::string& room_id);
    void remove_room(const std::string& player_id, const std::string& room_id);
    std::vector<std::string> rooms_of(const std::string& player_id) const;
    // The tournaments a player plays in or directs: they are re-subscribed on resume, and the
    // player is never forgotten while in one.
    void add_tournament(const std::string& player_id, const std::string& tournament_id);
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
    };
    mutable std::mutex mutex_;
    std::unordered_map<std::string, entry> by_id_;
    std::unordered_map<std::string, std::string> id_by_token_hash_;
};

} // namespace quarto::server::play
