// The server's start and end: its shards, archive, journal and rooms brought back, the
// listener, the signals, and the shutdown that lets clients read their last messages. The HTTP
// side's questions are answered in app_http.cpp, the node's cluster duties in app_cluster.cpp.
#include "app/app.hpp"

#include <algorithm>
#include <future>

#include <pthread.h>

#include <spdlog/fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "http/http_session.hpp"
#include "net/socket_activation.hpp"
#include "quarto/archive/postgres_store.hpp"
#include "shards/shard.hpp"
#include "tournaments/stored_document.hpp"

namespace quarto::server {

namespace {
constexpr auto shutdown_poll = std::chrono::milliseconds{50};
} // namespace

app::app(config settings)
    : state_{std::move(settings)},
      started_ms_{play::server_clock::unix_ms()},
      http_settings_{state_.settings.web_root, state_.settings.allowed_origins, state_.settings.trust_proxy},
      files_{state_.settings.web_root, state_.settings.javascript_root}
{
    for (unsigned i = 0; i < state_.settings.threads; ++i)
        state_.shards.push_back(std::make_unique<shards::shard>(static_cast<std::uint16_t>(i), state_));
    state_.bots = std::make_unique<bots::bot_pool>(bots::bot_pool::options{
        state_.settings.bot_threads, /*queue_capacity=*/64, /*table_bytes=*/std::size_t{16} << 20});
    passwords_ = std::make_unique<accounts::password_pool>(
        accounts::password_pool::options{state_.settings.password_threads, state_.settings.password_queue});
}

app::~app()
{
    if (node_) node_->stop(); // its figures read the shards
    if (state_.bots) state_.bots->stop();
    if (passwords_) passwords_->stop();
    for (auto& shard : state_.shards) shard->stop();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    // The shards before the rest of the state: their rooms and clients refer to it.
    state_.shards.clear();
}

bool app::restore()
{
    const auto& s = state_.settings;
    const std::string db = archive::without_password(s.db_path); // what the log may show
    if (!archive::is_postgres_address(s.db_path)) {
        std::string problem;
        db_lock_ = db_file_lock::take(s.db_path, problem);
        if (!db_lock_) {
            spdlog::critical("cannot open the game archive (--db {}): {}", db, problem);
            return false;
        }
    }
    // The archive first: a server that cannot keep its games should not start taking them.
    // A node's tournaments and live rooms are its own in a database that nodes share.
    const std::string node = s.redis.empty() ? std::string{} : s.node_id;
    // With the journal on, its syncer flushes the file that both write (archive::file_sync).
    auto opened = archive::game_archive::open(s.db_path, node,
                                              s.journal ? archive::file_sync::by_journal : archive::file_sync::each_commit);
    if (const auto* error = std::get_if<archive::open_error>(&opened)) {
        spdlog::critical("cannot open the game archive (--db {}): {}", db, error->message);
        return false;
    }
    state_.archive = std::move(std::get<std::unique_ptr<archive::game_archive>>(opened));
    spdlog::info("archive {}", db);
    // Tournaments come back before anyone can connect: their players' tokens work at once.
    auto stored = state_.archive->load_tournaments();
    if (stored.failed) {
        spdlog::critical("cannot read the tournaments from the archive (--db {})", db);
        return false;
    }
    std::vector<model::tournament_record> records;
    std::size_t unreadable = 0;
    for (const auto& t : stored.value) {
        auto document = tournaments::read_stored_document(t.state);
        if (!document) {
            spdlog::error("archive: stored tournament {} could not be read (damaged); skipped", t.id);
            ++unreadable;
            continue;
        }
        for (auto& person : document->people) state_.players.restore(std::move(person));
        records.push_back(std::move(document->record));
    }
    std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.created_ms < b.created_ms; });
    for (auto& record : records) {
        const auto owner = state_.shard_of_tournament(record.id);
        state_.shards[owner]->load_tournament(std::move(record));
    }
    if (!stored.value.empty())
        spdlog::info("{} tournaments restored{}", stored.value.size() - unreadable,
                     unreadable ? fmt::format(", {} unreadable (skipped)", unreadable) : std::string{});
    return !s.journal || restore_rooms();
}

bool app::restore_rooms()
{
    const auto& s = state_.settings;
    const auto started = std::chrono::steady_clock::now();
    const std::string db = archive::without_password(s.db_path); // what the log may show
    auto opened = archive::journal::open(s.db_path, s.redis.empty() ? std::string{} : s.node_id);
    if (const auto* error = std::get_if<archive::open_error>(&opened)) {
        spdlog::critical("cannot open the journal (--db {}): {}", db, error->message);
        return false;
    }
    state_.journal = std::move(std::get<std::unique_ptr<archive::journal>>(opened));
    state_.journal->set_backlog_limit(s.journal_backlog_bytes);
    if (node_) { // the journal's writes check this node's token from now on
        std::promise<bool> fenced;
        state_.journal->fence(node_->fencing_token(), 0, [&](bool ok) { fenced.set_value(ok); });
        if (!fenced.get_future().get()) {
            spdlog::critical("cannot record node {}'s fencing token in the journal (--db {})", s.node_id, db);
            return false;
        }
    }
    auto loaded = state_.journal->load();
    if (loaded.failed) {
        spdlog::critical("cannot read the journal (--db {})", db);
        return false;
    }
    // Entries come by room, then in order: each run of one room's entries is that room.
    const auto& entries = loaded.value;
    std::size_t rooms = 0, lost = 0;
    for (std::size_t begin = 0; begin < entries.size();) {
        std::size_t end = begin + 1;
        while (end < entries.size() && entries[end].room == entries[begin].room) ++end;
        const auto& id = entries[begin].room;
        const auto room_entries = std::span{entries}.subspan(begin, end - begin);
        auto& owner = *state_.shards[state_.place_restored_room(id, room_entries)];
        if (owner.restore_room(id, room_entries)) ++rooms;
        else ++lost;
        begin = end;
    }
    for (auto& shard : state_.shards) shard->write_journal(); // the rooms' `resumed` events
    state_.journal->flush();
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    spdlog::info("journal: {} rooms restored from {} entries in {} ms{}", rooms, entries.size(), took.count(),
                 lost ? fmt::format(", {} could not be restored (logged)", lost) : std::string{});
    return true;
}

int app::run()
{
    const auto& s = state_.settings;
    beast::error_code ec;
    const auto address = asio::ip::make_address(s.host); // checked with the command line
    const net::activation activated = net::inherited_listener();
    if (!activated.problem.empty()) {
        spdlog::critical("socket activation: {}", activated.problem);
        return 2;
    }
    if (!s.redis.empty()) {
        // The address was checked with the command line. Made before the rooms are restored
        // (they claim themselves), started after.
        const auto redis = std::get<redis_address>(parse_redis_address(s.redis));
        spdlog::info("node {} of a cluster on Redis at {}", s.node_id, redis.shown());
        if (!archive::is_postgres_address(s.db_path))
            spdlog::warn("node {}: its archive is a file of its own (--db {}): the games finished on other nodes are "
                         "not found here, nor this node's rooms taken over by another if it dies. Give every node the "
                         "same PostgreSQL --db.",
                         s.node_id, s.db_path);
        cluster::node::hooks hooks;
        hooks.figures = [this] { return cluster::to_json(figures()); };
        hooks.records = [this](std::string_view payload) { relay_in(payload); };
        hooks.new_token = [this](std::int64_t token, std::int64_t previous) { refence(token, previous); };
        hooks.dead_node = [this](const std::string& dead, std::int64_t token) { take_over(dead, token); };
        hooks.rooms = [this](std::vector<std::pair<std::string, std::string>> rooms, std::vector<std::string> live) {
            other_nodes_rooms(std::move(rooms), live);
        };
        hooks.redis_back = [this] {
            for (auto& shard : state_.shards) shard->post([](shards::shard& shard_here) { shard_here.resync_across_nodes(); });
        };
        hooks.tournaments = [this](std::vector<std::pair<std::string, std::string>> published, std::vector<std::string> live) {
            other_nodes_tournaments(std::move(published), live);
        };
        node_ = std::make_unique<cluster::node>(redis, s.node_id, std::move(hooks));
        state_.cluster = node_.get();
        // The lease first: no other process may hold this node's rooms while they are restored.
        node_->start();
        spdlog::info("node {}: waiting for its lease in Redis", s.node_id);
        // Redis may be out of reach for long: a stop asked for meanwhile ends the wait.
        int stop_signal = 0;
        signals_.async_wait([&](const beast::error_code& error, int signal) {
            if (!error) stop_signal = signal;
        });
        while (!node_->lease_held() && !stop_signal) front_.run_for(std::chrono::milliseconds{20});
        signals_.cancel();
        front_.poll(); // the cancelled wait's handler, which refers to stop_signal
        front_.restart();
        if (stop_signal) {
            spdlog::info("signal {}: stopped while waiting for the lease", stop_signal);
            node_->stop();
            return 0;
        }
    }
    if (!restore()) return 1;
    analysis_worker_ = std::make_unique<analysis::analysis_worker>();
    game_analyses_ = std::make_unique<analysis::game_analyses>(*state_.archive, *analysis_worker_);

    listener_ = std::make_shared<net::listener>(front_, state_.connections_per_address, !s.trust_proxy,
                                                [this](loop_socket socket, std::shared_ptr<void> ticket) {
                                                    std::make_shared<http::http_session>(std::move(socket), *this,
                                                                                         std::move(ticket))
                                                        ->run();
                                                });
    if (activated.fd) {
        if (ec = listener_->adopt(*activated.fd); ec) {
            spdlog::critical("socket activation: cannot use fd {}: {}", *activated.fd, ec.message());
            return 1;
        }
    } else if (ec = listener_->open({address, s.port}); ec) {
        spdlog::critical("cannot listen on {}:{}: {}", s.host, s.port, ec.message());
        return 1;
    }
    const auto bound = listener_->local_endpoint();
    const std::string bound_host = bound.address().to_string();
    spdlog::info("listening on http://{}:{}{}", bound.address().is_v6() ? "[" + bound_host + "]" : bound_host,
                 bound.port(), activated.fd ? " (socket from systemd; --host and --port not used)" : "");
    spdlog::info("{} shards (one thread each), {} bot threads, {} password threads, web root {}, rate {}/s burst {}, joins {}/s burst {}",
                 s.threads, s.bot_threads, s.password_threads, s.web_root, s.rate_limit, s.rate_burst, s.join_rate, s.join_burst);
    spdlog::info("WebSocket origins: {}; X-Forwarded-For: {}",
                 s.allowed_origins.empty() ? std::string{"the request's own Host"}
                                           : fmt::format("{}", fmt::join(s.allowed_origins, " ")),
                 s.trust_proxy ? "trusted (--trust-proxy)" : "ignored");

    for (auto& shard : state_.shards)
        threads_.emplace_back([shard = shard.get()] {
            const std::string name = "quarto-shard-" + std::to_string(shard->index());
            pthread_setname_np(pthread_self(), name.c_str()); // for ps -T and top -H
            shard->run();
        });
    listener_->run();
    heap_trimmer_.start();
    signals_.async_wait([this](const beast::error_code& error, int signal) {
        if (error) return;
        spdlog::info("signal {}: shutting down", signal);
        shut_down();
    });
    front_.run();
    state_.bots->stop();
    passwords_->stop();
    for (auto& shard : state_.shards) shard->stop();
    for (auto& t : threads_) t.join();
    threads_.clear();
    // Searches under way end at once; the analyses they were for are not stored.
    analysis_worker_->stop();
    // Every game that finished is on disk before the process reports success, and every
    // room change journaled.
    if (state_.journal) state_.journal->close();
    state_.archive->close();
    if (node_) node_->stop(); // last: until here this node still held what it owned
    spdlog::info("stopped");
    return 0;
}

void app::shut_down()
{
    state_.shutting_down.store(true);
    listener_->stop();
    heap_trimmer_.stop();
    spdlog::info("closing {} connections (1012 service restart), waiting up to {} ms", state_.live_connections.load(),
                 state_.settings.shutdown_grace.count());
    for (auto& shard : state_.shards)
        shard->post([](shards::shard& s) { s.close_all(); });
    shutdown_deadline_ = std::chrono::steady_clock::now() + state_.settings.shutdown_grace;
    wait_for_clients();
}

// Stops once every client has gone, or when the grace period is over: a client that does not
// read its messages (or answer the close) must not hold the process up.
void app::wait_for_clients()
{
    const auto now = std::chrono::steady_clock::now();
    const auto live = state_.live_connections.load();
    if (live == 0 || now >= shutdown_deadline_) {
        if (live != 0) spdlog::warn("{} connections did not close within the grace period; dropping them", live);
        front_.stop(); // run() stops the shards
        return;
    }
    shutdown_timer_.expires_after(std::min<std::chrono::steady_clock::duration>(shutdown_poll, shutdown_deadline_ - now));
    shutdown_timer_.async_wait([this](const beast::error_code& ec) {
        if (!ec) wait_for_clients();
    });
}

// The handshake is done: the socket leaves the front for a shard, in turn.
void app::open_websocket(loop_socket socket, std::shared_ptr<void> ticket, std::string address, std::string remote,
                         std::string already_read, std::string session)
{
    beast::error_code ec;
    const int fd = socket.release(ec);
    if (ec) return;
    auto& target = *state_.shards[next_shard_];
    next_shard_ = (next_shard_ + 1) % state_.shards.size();
    target.post([fd, ticket = std::move(ticket), address = std::move(address), remote = std::move(remote),
                 already_read = std::move(already_read), session = std::move(session)](shards::shard& s) mutable {
        s.open_websocket(fd, std::move(ticket), std::move(address), std::move(remote), std::move(already_read),
                         std::move(session));
    });
}

} // namespace quarto::server
