// The whole server: the front (on the main thread, an Asio io_context: the listener, every HTTP
// request and WebSocket handshake, signals and the shutdown), the shards (one thread each) that
// every handshaken WebSocket is dealt to in turn, the archive, and the analysis worker.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "accounts/login_limiter.hpp"
#include "accounts/password_pool.hpp"
#include "app/db_file_lock.hpp"
#include "app/heap_trimmer.hpp"
#include "cluster/cluster_view.hpp"
#include "cluster/node.hpp"
#include "cluster/relay_record.hpp"
#include "config/config.hpp"
#include "http/site.hpp"
#include "net/asio.hpp"
#include "net/listener.hpp"
#include "shards/server_state.hpp"

namespace quarto::server {

class app final : public http::site {
public:
    explicit app(config settings);
    ~app();
    // Binds, logs "listening on http://HOST:PORT", and serves until SIGINT/SIGTERM. Returns the
    // process exit code.
    int run();

    // http::site
    const http::settings& http_settings() const override { return http_settings_; }
    http::static_cache& files() override { return files_; }
    bool shutting_down() const override { return state_.shutting_down.load(); }
    void count_request() override;
    std::string rooms_json(const protocol::page_request& page) override;
    std::string tournaments_json(const protocol::page_request& page) override;
    std::string room_json(const std::string& id) override;
    std::shared_ptr<const std::string> tournament_json(const std::string& id) override;
    bool other_node_tournament_json(const std::string& id, std::function<void(std::optional<std::string>)> found) override;
    std::string metrics_text() override;
    std::string nodes_json() override;
    archive::game_archive* archive() override { return state_.archive.get(); }
    analysis::analysis_worker* analysis_worker() override { return analysis_worker_.get(); }
    analysis::game_analyses* game_analyses() override { return game_analyses_.get(); }
    net::address_limiter& connections_per_address() override { return *state_.connections_per_address; }
    accounts::password_pool* passwords() override { return passwords_.get(); }
    std::chrono::seconds login_retry_after(std::string_view address, std::string_view name) override;
    void login_failed(std::string_view address, std::string_view name) override;
    void login_succeeded(std::string_view name) override;
    std::optional<known_guest> guest_of_token(std::string_view token) override;
    std::string new_player_id() override;
    std::string new_session_id() override;
    void account_made(const std::string& id, const std::string& name) override;
    void sessions_ended(const std::string& id) override;
    void open_websocket(loop_socket socket, std::shared_ptr<void> ticket, std::string address,
                        std::string remote, std::string already_read, std::string session) override;

private:
    // This node's figures, for the cluster (any thread: atomics only).
    cluster::node_figures figures() const;
    void relay_in(std::string_view payload);
    void player_news(const cluster::relay_record& r);
    void refence(std::int64_t token, std::int64_t previous);
    void take_over(const std::string& dead, std::int64_t token);
    void other_nodes_rooms(std::vector<std::pair<std::string, std::string>> published, const std::vector<std::string>& live);
    void other_nodes_tournaments(std::vector<std::pair<std::string, std::string>> published, const std::vector<std::string>& live);
    // Opens the archive and brings the stored tournaments back; false (logged) when it cannot.
    bool restore();
    // The live rooms, from the journal (--journal on).
    bool restore_rooms();
    void shut_down();
    void wait_for_clients();

    // Held from before the archive opens until after everything is destroyed: one server a file.
    std::optional<db_file_lock> db_lock_;
    shards::server_state state_;
    const std::int64_t started_ms_;
    // With --redis: this node's lease and presence in the cluster (a thread of its own).
    std::unique_ptr<cluster::node> node_;
    // Made once the archive is open. The worker is declared last of the two so that it is
    // destroyed first: its threads run game_analyses' jobs until they are joined.
    std::unique_ptr<analysis::game_analyses> game_analyses_;
    std::unique_ptr<analysis::analysis_worker> analysis_worker_;
    // Passwords hashed and checked off the loops (--password-threads, --password-queue), for the
    // accounts' routes; and their failed logins, counted from the front and the pool's threads.
    std::unique_ptr<accounts::password_pool> passwords_;
    std::mutex logins_mutex_;
    accounts::login_limiter logins_;
    const http::settings http_settings_;
    http::static_cache files_;
    asio::io_context front_{1};
    heap_trimmer heap_trimmer_{front_, std::chrono::seconds{30}};
    std::shared_ptr<net::listener> listener_;
    // SIGHUP too: a closed terminal stops the server as cleanly as Ctrl-C.
    asio::signal_set signals_{front_, SIGINT, SIGTERM, SIGHUP};
    asio::steady_timer shutdown_timer_{front_}; // polls, until the deadline, for every client to have closed
    std::chrono::steady_clock::time_point shutdown_deadline_; // end of --shutdown-grace
    std::size_t next_shard_ = 0; // the shard the next WebSocket goes to
    std::vector<std::thread> threads_;
};

} // namespace quarto::server
