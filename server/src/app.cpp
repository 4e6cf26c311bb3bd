#include "app.hpp"

#include <thread>

#include <spdlog/fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "ws_session.hpp"

namespace quarto::server {

namespace {
constexpr std::chrono::seconds sweep_interval{10};
constexpr std::chrono::seconds forget_players_after{3600};
constexpr auto shutdown_poll = std::chrono::milliseconds{50};
} // namespace

app::app(config settings)
    : context_{std::move(settings)},
      ioc_{static_cast<int>(context_.settings.threads)},
      rooms_{ioc_, context_},
      tournaments_{ioc_, context_},
      listener_{std::make_shared<listener>(ioc_, context_, sessions_)},
      signals_{ioc_, SIGINT, SIGTERM},
      sweep_timer_{ioc_},
      shutdown_timer_{ioc_}
{
    context_.rooms = &rooms_;
    context_.tournaments = &tournaments_;
}

int app::run()
{
    const auto& s = context_.settings;
    beast::error_code ec;
    const auto address = net::ip::make_address(s.host, ec);
    if (ec) {
        spdlog::critical("--host {}: not an IP address", s.host);
        return 2;
    }
    // The archive first: a server that cannot keep its games should not start taking them.
    auto opened = archive::game_archive::open(s.db_path);
    if (const auto* error = std::get_if<archive::open_error>(&opened)) {
        spdlog::critical("cannot open the game archive (--db {}): {}", s.db_path, error->message);
        return 1;
    }
    context_.archive = std::move(std::get<std::unique_ptr<archive::game_archive>>(opened));
    spdlog::info("archive {}", s.db_path);
    // Tournaments come back before anyone can connect: their players' tokens work at once.
    auto stored = context_.archive->load_tournaments();
    if (stored.failed) {
        spdlog::critical("cannot read the tournaments from the archive (--db {})", s.db_path);
        return 1;
    }
    std::vector<std::string> documents;
    for (auto& t : stored.value) documents.push_back(std::move(t.state));
    const std::size_t unreadable = tournaments_.load(documents);
    if (!documents.empty())
        spdlog::info("{} tournaments restored{}", documents.size() - unreadable,
                     unreadable ? fmt::format(", {} unreadable (skipped)", unreadable) : std::string{});

    if (ec = listener_->open({address, s.port}); ec) {
        spdlog::critical("cannot listen on {}:{}: {}", s.host, s.port, ec.message());
        return 1;
    }
    const auto bound = listener_->local_endpoint();
    const std::string shown_host = address.is_v6() ? "[" + s.host + "]" : s.host;
    spdlog::info("listening on http://{}:{}", shown_host, bound.port());
    spdlog::info("{} threads, web root {}, rate {}/s burst {}", s.threads, s.web_root, s.rate_limit, s.rate_burst);
    spdlog::info("WebSocket origins: {}; X-Forwarded-For: {}",
                 s.allowed_origins.empty() ? std::string{"the request's own Host"} : fmt::format("{}", fmt::join(s.allowed_origins, " ")),
                 s.trust_proxy ? "trusted (--trust-proxy)" : "ignored");

    listener_->run();
    signals_.async_wait([this](const beast::error_code& error, int signal) {
        if (error) return;
        spdlog::info("signal {}: shutting down", signal);
        shut_down();
    });
    sweep();

    std::vector<std::thread> threads;
    for (unsigned i = 1; i < s.threads; ++i) threads.emplace_back([this] { ioc_.run(); });
    ioc_.run();
    for (auto& t : threads) t.join();
    // Every game that finished is on disk before the process reports success. Still before
    // ioc_ goes away: a lookup's answer may be posted to it while the queue drains.
    context_.archive->close();
    rooms_.release_connections();
    tournaments_.release_connections();
    spdlog::info("stopped");
    return 0;
}

void app::sweep()
{
    sweep_timer_.expires_after(sweep_interval);
    sweep_timer_.async_wait([this](const beast::error_code& ec) {
        if (ec) return;
        rooms_.sweep(context_.settings.room_idle);
        context_.players.forget_idle(std::chrono::steady_clock::now(), forget_players_after);
        sweep();
    });
}

void app::shut_down()
{
    context_.shutting_down.store(true);
    listener_->stop();
    sweep_timer_.cancel();
    const auto live = sessions_.live();
    spdlog::info("closing {} connections (1001 going away), waiting up to {} ms", live.size(),
                 context_.settings.shutdown_grace.count());
    for (const auto& session : live)
        session->close_gracefully(websocket::close_code::going_away, std::string{shutdown_close_reason});
    shutdown_deadline_ = std::chrono::steady_clock::now() + context_.settings.shutdown_grace;
    wait_for_sessions();
}

// Stops once every client has gone, or when the grace period is over: a client that does not
// read its messages (or answer the close) must not hold the process up.
void app::wait_for_sessions()
{
    const auto now = std::chrono::steady_clock::now();
    if (sessions_.size() == 0 || now >= shutdown_deadline_) {
        if (const auto left = sessions_.size(); left != 0)
            spdlog::warn("{} connections did not close within the grace period; dropping them", left);
        ioc_.stop();
        return;
    }
    shutdown_timer_.expires_after(std::min<std::chrono::steady_clock::duration>(shutdown_poll, shutdown_deadline_ - now));
    shutdown_timer_.async_wait([this](const beast::error_code& ec) {
        if (!ec) wait_for_sessions();
    });
}

} // namespace quarto::server
