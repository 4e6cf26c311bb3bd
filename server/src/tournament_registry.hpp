// All tournaments by id: created by a director, or loaded from the archive at startup.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "tournament.hpp"

namespace quarto::server {

class tournament_registry {
public:
    tournament_registry(net::io_context& ioc, server_context& context) : ioc_{ioc}, context_{context} {}

    std::shared_ptr<tournament> create(protocol::tournament_settings settings, const connection_ptr& director_connection,
                                       const tournament::player_ptr& director);
    std::shared_ptr<tournament> find(const protocol::tournament_id& id) const;
    // As list_tournaments shows them, newest first.
    std::vector<nlohmann::json> list() const;
    // The archive's stored documents (startup, before accepting): restores their players and
    // reopens each tournament. Returns how many could not be read (each is logged).
    std::size_t load(const std::vector<std::string>& stored_documents);
    // Shutdown, after the io_context has stopped: see tournament::release_connections.
    void release_connections();

private:
    net::io_context& ioc_;
    server_context& context_;
    mutable std::mutex mutex_;
    std::unordered_map<protocol::tournament_id, std::shared_ptr<tournament>> tournaments_;
    std::vector<protocol::tournament_id> order_; // creation order
};

} // namespace quarto::server
