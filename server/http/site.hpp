// What the HTTP side needs of the rest of the server: the settings it serves by, the documents
// of the API, the archive and the analysis, and where a WebSocket goes once its handshake is
// done. The app implements it, on the front thread that serves HTTP, and deals each WebSocket
// to a shard.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accounts/password_pool.hpp"
#include "analysis/analysis_worker.hpp"
#include "analysis/game_analyses.hpp"
#include "http/static_cache.hpp"
#include "net/address_limiter.hpp"
#include "net/asio.hpp"
#include "quarto/archive/game_archive.hpp"
#include "quarto/protocol/messages.hpp"

namespace quarto::server::http {

struct settings {
    std::string web_root;
    std::vector<std::string> allowed_origins; // normalized; empty: the request's own Host only
    bool trust_proxy = false;
};

class site {
public:
    virtual const settings& http_settings() const = 0;
    // Upgrades are refused (503) once the server is shutting down.
    virtual bool shutting_down() const = 0;
    virtual void count_request() = 0;

    // GET /api/rooms and /api/tournaments: the `rooms` and `tournaments` messages, one page.
    virtual std::string rooms_json(const protocol::page_request& page) = 0;
    virtual std::string tournaments_json(const protocol::page_request& page) = 0;
    // GET /api/rooms/{id}: one room's summary, private rooms included; empty for an unknown id.
    virtual std::string room_json(const std::string& id) = 0;
    // GET /api/tournaments/{id}; null for an unknown id.
    virtual std::shared_ptr<const std::string> tournament_json(const std::string& id) = 0;
    // The same for a tournament of another node of a cluster (as that node last published it):
    // `found` on another thread, nullopt when no node has it. False (`found` never called) when
    // this server is no node of a cluster.
    virtual bool other_node_tournament_json(const std::string& id, std::function<void(std::optional<std::string>)> found) = 0;
    virtual std::string metrics_text() = 0; // GET /metrics
    // GET /api/nodes: every node of the cluster (this server alone when it is not one), totals.
    virtual std::string nodes_json() = 0;
    virtual archive::game_archive* archive() = 0;
    // The solver's threads for GET /api/analysis, and the games' analyses
    // (GET /api/games/{id}/analysis); null when this server runs none.
    virtual analysis::analysis_worker* analysis_worker() = 0;
    virtual analysis::game_analyses* game_analyses() = 0;
    virtual static_cache& files() = 0; // the web root's files
    virtual net::address_limiter& connections_per_address() = 0;

    // ---- accounts (accounts_api.hpp) ----
    // Argon2id's threads; null when this server keeps no accounts.
    virtual accounts::password_pool* passwords() = 0;
    // The limits on failed logins, per client address and per name (any thread): zero when a
    // login may be tried now, else how long until it may.
    virtual std::chrono::seconds login_retry_after(std::string_view address, std::string_view name) = 0;
    virtual void login_failed(std::string_view address, std::string_view name) = 0;
    virtual void login_succeeded(std::string_view name) = 0;
    // The guest a token resumes (any thread): their id, and whether they have an account already.
    struct known_guest {
        std::string id;
        bool account = false;
    };
    virtual std::optional<known_guest> guest_of_token(std::string_view token) = 0;
    // An id for a new player, and a new session's id (128 random bits).
    virtual std::string new_player_id() = 0;
    virtual std::string new_session_id() = 0;
    // The account has been made of a guest (or a new player): connections of that player are
    // the account's from now on, and the guest's token resumes it no more (any thread).
    virtual void account_made(const std::string& id, const std::string& name) = 0;
    // Sessions of the account were ended (log out everywhere, a new password, deletion): its
    // open WebSockets on this server close (any thread).
    virtual void sessions_ended(const std::string& id) = 0;

    // The opening handshake is done: the socket becomes a WebSocket client of this loop.
    // `address`: the client's address, as the per-address caps count it; `remote`: for logs;
    // `already_read`: bytes read past the upgrade request (the client's first frames, when it
    // did not wait for the 101), taken apart before anything else the socket brings; `session`:
    // the id in the handshake's session cookie, empty when it had none.
    virtual void open_websocket(loop_socket socket, std::shared_ptr<void> ticket, std::string address,
                                std::string remote, std::string already_read, std::string session) = 0;

protected:
    ~site() = default;
};

} // namespace quarto::server::http
