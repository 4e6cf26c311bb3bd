#include "app/app.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <future>
#include <thread>

#include <pthread.h>

#include <spdlog/fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "http/http_session.hpp"
#include "net/socket_activation.hpp"
#include "quarto/archive/postgres_store.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "shards/player_json.hpp"
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
      files_{state_.settings.web_root}
{
    for (unsigned i = 0; i < state_.settings.threads; ++i)
        state_.shards.push_back(std::make_unique<shards::shard>(static_cast<std::uint16_t>(i), state_));
    state_.bots = std::make_unique<bots::bot_pool>(bots::bot_pool::options{
        state_.settings.bot_threads, /*queue_capacity=*/64, /*table_bytes=*/std::size_t{16} << 20});
}

app::~app()
{
    if (node_) node_->stop(); // its figures read the shards
    if (state_.bots) state_.bots->stop();
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
    std::vector<protocol::tournament_record> records;
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
        const auto redis = std::get<cluster::redis_address>(cluster::parse_redis_address(s.redis));
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
    spdlog::info("{} shards (one thread each), {} bot threads, web root {}, rate {}/s burst {}, joins {}/s burst {}", s.threads,
                 s.bot_threads, s.web_root, s.rate_limit, s.rate_burst, s.join_rate, s.join_burst);
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

// ---- the HTTP side -------------------------------------------------------------------------

void app::count_request() { state_.shared_counters.http_requests.fetch_add(1, std::memory_order_relaxed); }

std::string app::rooms_json(const protocol::page_request& page) { return state_.shards.front()->rooms_page(page, nullptr); }

std::string app::room_json(const std::string& id) { return state_.shards.front()->room_summary(id); }

std::string app::tournaments_json(const protocol::page_request& page)
{
    std::size_t total = 0;
    const auto shown = state_.tournaments.summaries(page, total);
    return protocol::tournaments_list(shown, total, static_cast<std::size_t>(page.offset), nullptr);
}

std::shared_ptr<const std::string> app::tournament_json(const std::string& id)
{
    const auto views = state_.tournaments.find(id);
    return views ? views->snapshot() : nullptr;
}

bool app::other_node_tournament_json(const std::string& id, std::function<void(std::optional<std::string>)> found)
{
    if (!node_) return false;
    node_->find_view(id, std::move(found));
    return true;
}

std::string app::metrics_text()
{
    std::vector<const metrics::shard_counters*> all;
    for (const auto& s : state_.shards) all.push_back(&s->counters_view());
    auto text = metrics::prometheus_text(all, state_.shared_counters);
    if (state_.journal) metrics::append_journal(text, state_.journal->commits(), state_.journal->syncs());
    if (node_) cluster::append_metrics(text, *node_);
    return text;
}

std::string app::nodes_json() { return cluster::nodes_json(node_.get(), state_.settings.node_id, figures()); }

// On the node's thread: the lease was taken again after it had been lost. If no other node took
// this node's rooms over meanwhile, the journal goes on with the new token; if one did, the
// rooms are that node's now and this process must not serve them a moment longer.
void app::refence(std::int64_t token, std::int64_t previous)
{
    if (previous == 0 || !state_.journal) return;
    state_.journal->fence(token, previous, [id = state_.settings.node_id](bool ok) {
        if (!ok) shards::stop_fenced_node(id);
    });
}

// On the node's thread: `dead` has no lease and this node is to take its rooms over: from the
// journal, where they are moved to this node (fencing `dead`), onto the shards, which claim them.
void app::take_over(const std::string& dead, std::int64_t token)
{
    if (!state_.journal) return node_->took_over(dead, token, true);
    state_.journal->take_over(dead, token, [this, dead, token](archive::archive_result<archive::journal::taken_over> taken) {
        if (taken.failed) return node_->took_over(dead, token, false); // another try at the next heartbeat
        auto& entries = taken.value.entries;
        std::size_t rooms = 0;
        for (std::size_t begin = 0; begin < entries.size();) {
            std::size_t end = begin;
            while (end < entries.size() && entries[end].room == entries[begin].room) ++end;
            std::vector<archive::journal_entry> room(std::make_move_iterator(entries.begin() + static_cast<std::ptrdiff_t>(begin)),
                                                     std::make_move_iterator(entries.begin() + static_cast<std::ptrdiff_t>(end)));
            const auto id = room.front().room;
            state_.shards[state_.place_restored_room(id, room)]->post([id, room = std::move(room)](shards::shard& s) {
                s.restore_room(id, room);
            });
            ++rooms;
            begin = end;
        }
        // After the rooms (posted first to the same shard): a tournament finds its games going on.
        std::size_t adopted = 0;
        for (const auto& t : taken.value.tournaments) {
            auto document = tournaments::read_stored_document(t.state);
            if (!document) {
                spdlog::error("node {}: tournament {} of node {} could not be read (damaged); not taken over",
                              state_.settings.node_id, t.id, dead);
                continue;
            }
            for (auto& person : document->people) state_.players.restore(std::move(person));
            state_.shards[state_.shard_of_tournament(t.id)]->post([record = std::move(document->record)](shards::shard& s) mutable {
                s.adopt_tournament(std::move(record));
            });
            ++adopted;
        }
        spdlog::warn("node {}: {} rooms and {} tournaments of node {} taken over", state_.settings.node_id, rooms,
                     adopted, dead);
        node_->took_over(dead, token, true);
    });
}

// On the node's thread: every room the nodes published; the live other nodes' are the lobby's
// (a dead node's stay out of it until they are taken over and published again).
void app::other_nodes_rooms(std::vector<std::pair<std::string, std::string>> published, const std::vector<std::string>& live)
{
    const auto steady_now = std::chrono::steady_clock::now();
    const auto unix_now = play::server_clock::unix_ms();
    std::vector<play::remote_lobby::room> rooms;
    rooms.reserve(published.size());
    for (auto& [id, text] : published) {
        // rank, added (unix ms), listed, node, summary (shard::publish_lobby)
        std::array<std::string_view, 4> fields;
        std::string_view rest = text;
        bool ok = true;
        for (auto& f : fields) {
            const auto tab = rest.find('\t');
            if (tab == std::string_view::npos) {
                ok = false;
                break;
            }
            f = rest.substr(0, tab);
            rest.remove_prefix(tab + 1);
        }
        if (!ok || fields[3] == state_.settings.node_id || std::find(live.begin(), live.end(), fields[3]) == live.end())
            continue;
        int rank = 0;
        std::int64_t added_ms = 0;
        std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), rank);
        std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), added_ms);
        rooms.push_back({std::move(id), rank, steady_now - std::chrono::milliseconds{unix_now - added_ms}, fields[2] == "1",
                         std::string{rest}});
    }
    state_.other_nodes_rooms.replace(std::move(rooms));
}

// On the node's thread: every tournament the nodes published; the live other nodes' are listed
// (a dead node's come back once they are taken over).
void app::other_nodes_tournaments(std::vector<std::pair<std::string, std::string>> published, const std::vector<std::string>& live)
{
    std::vector<shards::tournament_directory::remote_entry> listed;
    listed.reserve(published.size());
    for (auto& [id, text] : published) {
        // created (unix ms), node, summary (shard::publish_tournament)
        const auto first = text.find('\t');
        const auto second = first == std::string::npos ? first : text.find('\t', first + 1);
        if (second == std::string::npos) continue;
        const std::string_view node = std::string_view{text}.substr(first + 1, second - first - 1);
        if (node == state_.settings.node_id || std::find(live.begin(), live.end(), node) == live.end()) continue;
        std::int64_t created_ms = 0;
        std::from_chars(text.data(), text.data() + first, created_ms);
        auto summary = nlohmann::json::parse(std::string_view{text}.substr(second + 1), nullptr, false);
        if (!summary.is_object()) continue;
        listed.push_back({std::move(id), created_ms, std::move(summary)});
    }
    state_.tournaments.replace_remote(std::move(listed));
}

// On the node's thread: a player of another node said hello with their token (`back`: their
// places here resume the connection), or took a new name (`renamed`: their places here show it).
// This node's registry knows which rooms and tournaments of its hold them.
void app::player_news(const cluster::relay_record& r)
{
    const auto player = shards::player_from_json(r.player);
    if (!player) return;
    const bool renamed = r.type == cluster::relay_record::kind::renamed;
    if (renamed && !state_.players.rename(player->info.id, player->info.name)) return; // not known here
    const auto to_place = [&](const std::string& id, bool tournament) {
        auto news = r;
        news.tournament = tournament;
        news.place = id;
        const auto owner = tournament ? state_.shard_of_tournament(id) : state_.shard_of_room(id);
        state_.shards[owner]->post([news = std::move(news), renamed, info = player->info](shards::shard& s) {
            if (!renamed) return s.remote_record(news);
            if (!news.tournament) {
                if (auto* room = s.find_room(news.place)) room->rename(info);
            } else if (auto* t = s.find_tournament(news.place)) {
                t->rename(info);
            }
        });
    };
    for (const auto& id : state_.players.rooms_of(player->info.id)) to_place(id, false);
    for (const auto& id : state_.players.tournaments_of(player->info.id)) to_place(id, true);
}

// On the node's thread: records from other nodes, each to the shard of its room or client.
void app::relay_in(std::string_view payload)
{
    std::vector<cluster::relay_record> records;
    if (!cluster::parse_records(payload, records))
        spdlog::warn("node {}: a malformed message from another node ({} bytes) was dropped after {} records",
                     state_.settings.node_id, payload.size(), records.size());
    const std::size_t count = state_.shards.size();
    for (auto& r : records) {
        using kind = cluster::relay_record::kind;
        if (r.type == kind::gone) {
            if (r.from_node != state_.settings.node_id) node_->beat_now();
            continue;
        }
        if (r.type == kind::renamed || r.type == kind::back) {
            if (r.from_node != state_.settings.node_id) player_news(r); // its own node did its part
            continue;
        }
        if (r.type == kind::moved) { // every shard's clients may be in that room
            for (auto& shard : state_.shards) shard->post([r](shards::shard& s) { s.remote_record(r); });
            continue;
        }
        const bool to_room = r.type == kind::message || r.type == kind::detach || r.type == kind::resume;
        const std::size_t target = !to_room ? r.client.shard
                                   : r.tournament ? state_.shard_of_tournament(r.place)
                                                  : state_.shard_of_room(r.place);
        if (target >= count) continue;
        state_.shards[target]->post([r = std::move(r)](shards::shard& s) { s.remote_record(r); });
    }
}

cluster::node_figures app::figures() const
{
    cluster::node_figures f;
    f.started_ms = started_ms_;
    f.shards = static_cast<unsigned>(state_.shards.size());
    const auto sum = [](const auto& value) { return value.load(std::memory_order_relaxed); };
    for (const auto& shard : state_.shards) {
        const auto& c = shard->counters_view();
        f.connections += sum(c.connections_open);
        for (std::size_t i = 0; i < f.rooms.size(); ++i) f.rooms[i] += sum(c.rooms[i]);
        f.games_started += sum(c.games_started);
        for (const auto& finished : c.games_finished) f.games_finished += sum(finished);
        f.messages_in += sum(c.messages_in);
    }
    return f;
}

// The handshake is done: the socket leaves the front for a shard, in turn.
void app::open_websocket(loop_socket socket, std::shared_ptr<void> ticket, std::string address, std::string remote,
                         std::string already_read)
{
    beast::error_code ec;
    const int fd = socket.release(ec);
    if (ec) return;
    auto& target = *state_.shards[next_shard_];
    next_shard_ = (next_shard_ + 1) % state_.shards.size();
    target.post([fd, ticket = std::move(ticket), address = std::move(address), remote = std::move(remote),
                 already_read = std::move(already_read)](shards::shard& s) mutable {
        s.open_websocket(fd, std::move(ticket), std::move(address), std::move(remote), std::move(already_read));
    });
}

} // namespace quarto::server
