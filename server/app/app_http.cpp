// What the HTTP front asks of the server (http::site): the lobby's pages, tournaments, metrics
// and the nodes, read from the shards and the registries.
#include "app/app.hpp"

#include "play/random_ids.hpp"
#include "shards/player_json.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "shards/shard.hpp"

namespace quarto::server {

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

std::chrono::seconds app::login_retry_after(std::string_view address, std::string_view name)
{
    std::lock_guard lock{logins_mutex_};
    return logins_.retry_after(address, name, accounts::login_limiter::clock::now());
}

void app::login_failed(std::string_view address, std::string_view name)
{
    std::lock_guard lock{logins_mutex_};
    logins_.failed(address, name, accounts::login_limiter::clock::now());
}

void app::login_succeeded(std::string_view name)
{
    std::lock_guard lock{logins_mutex_};
    logins_.succeeded(name);
}

std::optional<http::site::known_guest> app::guest_of_token(std::string_view token)
{
    const auto record = state_.players.find_by_token(token);
    if (!record) return std::nullopt;
    return known_guest{record->info.id, record->account};
}

std::string app::new_player_id()
{
    std::string id;
    do { // as the registry makes a guest's: "p" and 8 random characters, written in place
        id = play::new_short_id(9);
        id[0] = 'p';
    } while (state_.players.find_by_id(id));
    return id;
}

std::string app::new_session_id() { return play::new_token(); }

void app::account_made(const std::string& id, const std::string& name)
{
    // Ratings are read again by the account's next hello; a guest made an account has none.
    const auto known = state_.players.find_by_id(id);
    const auto made = state_.players.sign_in(id, name, known ? known->ratings : decltype(known->ratings){});
    // The other nodes of a cluster learn that the guest's token resumes nobody now.
    if (node_ && known && !known->token_hash.empty())
        node_->publish_player(known->token_hash, shards::player_json({made->info, known->token_hash, true}));
}

void app::sessions_ended(const std::string& id)
{
    for (const auto& s : state_.shards) s->post([id](shards::shard& there) { there.close_player(id); });
}

std::string app::nodes_json() { return cluster::nodes_json(node_.get(), state_.settings.node_id, figures()); }

} // namespace quarto::server
