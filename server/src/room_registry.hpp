// All rooms by id. Locked on create, join-by-id, list and reclaim; game messages go straight
// to a room the connection already holds.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "room.hpp"

namespace quarto::server {

class room_registry {
public:
    room_registry(net::io_context& ioc, server_context& context) : ioc_{ioc}, context_{context} {}

    // A new room with its creator already in seat 0.
    std::shared_ptr<room> create(room_settings settings, const connection_ptr& creator_connection,
                                 const room::player_ptr& creator);
    // A tournament game's room with both players seated and the game started.
    std::shared_ptr<room> create_seated(room_settings settings, const room::player_ptr& first_seat,
                                        const room::player_ptr& second_seat);
    std::shared_ptr<room> find(const protocol::room_id& id) const;
    void remove(const protocol::room_id& id);
    // Public rooms as the lobby lists them.
    std::vector<nlohmann::json> list_public() const;
    // Asks every room to close itself if it has been idle for `idle`.
    void sweep(std::chrono::seconds idle) const;
    std::size_t size() const;
    // After the io_context has stopped: room::release_connections for every room.
    void release_connections();

private:
    net::io_context& ioc_;
    server_context& context_;
    mutable std::mutex mutex_;
    std::unordered_map<protocol::room_id, std::shared_ptr<room>> rooms_;
};

} // namespace quarto::server
