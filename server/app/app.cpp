#include "app/app.hpp"

#include <thread>

#include <spdlog/fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "quarto/protocol/stored_tournament.hpp"
#include "shards/shard.hpp"
#include "shards/shard_of.hpp"

namespace quarto::server {

namespace {
constexpr auto shutdown_poll = std::chrono::milliseconds{50};
constexpr std::string_view shutdown_close_reason = "server shutting down";
} // namespace

app::app(config settings) : state_{std::move(settings)}
{
    for (unsigned i = 0; i < state_.settings.threads; ++i)
        state_.shards.push_back(std::make_unique<shards::shard>(static_cast<std::uint16_t>(i), state_));
}

app::~app()
{
    // The shards before the rest of the state: their rooms and clients refer to it.
    state_.shards.clear();
}

bool app::restore()
{
    const auto& s = state_.settings;
    // The archive first: a server that cannot keep its games should not start taking them.
    auto opened = archive::game_archive::open(s.db_path);
    if (const auto* error = std::get_if<archive::open_error>(&opened)) {
        spdlog::critical("cannot open the game archive (--db {}): {}", s.db_path, error->message);
        return false;
    }
    state_.archive = std::move(std::get<std::unique_ptr<archive::game_archive>>(opened));
    spdlog::info("archive {}", s.db_path);
    // Tournaments come back before anyone can connect: their players' tokens work at once.
    auto stored = state_.archive->load_tournaments();
    if (stored.failed) {
        spdlog::critical("cannot read the tournaments from the archive (--db {})", s.db_path);
        return false;
    }
    std::vector<protocol::tournament_record> records;
    std::size_t unreadable = 0;
    for (const auto& t : stored.value) {
        const auto document = nlohmann::json::parse(t.state, nullptr, /*allow_exceptions=*/false);
        std::optional<protocol::tournament_record> record;
        if (document.is_object() && document.contains("tournament"))
            record = protocol::read_stored_tournament(document["tournament"]);
        if (!record || !document.contains("people") || !document["people"].is_array()) {
            spdlog::error("archive: a stored tournament could not be read; skipped");
            ++unreadable;
            continue;
        }
        for (const auto& person : document["people"]) {
            if (!person.is_object() || !person.contains("id") || !person.contains("name") || !person.contains("token"))
                continue;
            state_.players.restore({{person["id"].get<std::string>(), person["name"].get<std::string>()},
                                    person["token"].get<std::string>()});
        }
        records.push_back(std::move(*record));
    }
    std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.created_ms < b.created_ms; });
    for (auto& record : records) {
        const auto owner = shards::shard_of(record.id, state_.shards.size());
        state_.shards[owner]->load_tournament(std::move(record));
    }
    if (!stored.value.empty())
        spdlog::info("{} tournaments restored{}", stored.value.size() - unreadable,
                     unreadable ? fmt::format(", {} unreadable (skipped)", unreadable) : std::string{});
    return true;
}

int app::run()
{
    const auto& s = state_.settings;
    beast::error_code ec;
    const auto address = asio::ip::make_address(s.host, ec);
    if (ec) {
        spdlog::critical("--host {}: not an IP address", s.host);
        return 2;
    }
    if (!restore()) return 1;

    shards::shard& first = *state_.shards.front();
    std::vector<asio::io_context*> loops;
    for (auto& shard : state_.shards) loops.push_back(&shard->io());
    listener_ = std::make_shared<net::listener>(
        first.io(), loops, state_.connections_per_address, !s.trust_proxy,
        [this](std::size_t loop, loop_socket socket, std::shared_ptr<void> ticket) {
            auto& target = *state_.shards[loop];
            asio::post(target.io(), [&target, socket = std::move(socket), ticket = std::move(ticket)]() mutable {
                target.accept(std::move(socket), std::move(ticket));
            });
        });
    if (ec = listener_->open({address, s.port}); ec) {
        spdlog::critical("cannot listen on {}:{}: {}", s.host, s.port, ec.message());
        return 1;
    }
    const auto bound = listener_->local_endpoint();
    const std::string shown_host = address.is_v6() ? "[" + s.host + "]" : s.host;
    spdlog::info("listening on http://{}:{}", shown_host, bound.port());
    spdlog::info("{} shards (one thread each), web root {}, rate {}/s burst {}", s.threads, s.web_root, s.rate_limit,
                 s.rate_burst);
    spdlog::info("WebSocket origins: {}; X-Forwarded-For: {}",
                 s.allowed_origins.empty() ? std::string{"the request's own Host"}
                                           : fmt::format("{}", fmt::join(s.allowed_origins, " ")),
                 s.trust_proxy ? "trusted (--trust-proxy)" : "ignored");

    listener_->run();
    signals_ = std::make_unique<asio::signal_set>(first.io(), SIGINT, SIGTERM);
    shutdown_timer_ = std::make_unique<asio::steady_timer>(first.io());
    signals_->async_wait([this](const beast::error_code& error, int signal) {
        if (error) return;
        spdlog::info("signal {}: shutting down", signal);
        shut_down();
    });

    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < state_.shards.size(); ++i)
        threads.emplace_back([shard = state_.shards[i].get()] { shard->run(); });
    first.run();
    for (auto& t : threads) t.join();
    // Every game that finished is on disk before the process reports success.
    state_.archive->close();
    spdlog::info("stopped");
    return 0;
}

void app::shut_down()
{
    state_.shutting_down.store(true);
    listener_->stop();
    spdlog::info("closing {} connections (1001 going away), waiting up to {} ms", state_.live_connections.load(),
                 state_.settings.shutdown_grace.count());
    for (auto& shard : state_.shards)
        shard->post([](shards::shard& s) { s.close_all(net::close_code::going_away, std::string{shutdown_close_reason}); });
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
        for (auto& shard : state_.shards) shard->stop();
        return;
    }
    shutdown_timer_->expires_after(std::min<std::chrono::steady_clock::duration>(shutdown_poll, shutdown_deadline_ - now));
    shutdown_timer_->async_wait([this](const beast::error_code& ec) {
        if (!ec) wait_for_clients();
    });
}

} // namespace quarto::server
