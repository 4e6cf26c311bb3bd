// What the HTTP front asks of the server (http::site): the lobby's pages, tournaments, metrics
// and the nodes, read from the shards and the registries.
#include "app/app.hpp"

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

std::string app::nodes_json() { return cluster::nodes_json(node_.get(), state_.settings.node_id, figures()); }

} // namespace quarto::server
