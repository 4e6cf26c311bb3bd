#include "tournament_registry.hpp"

#include <spdlog/spdlog.h>

#include "quarto/protocol/stored_tournament.hpp"
#include "random_ids.hpp"

namespace quarto::server {

std::shared_ptr<tournament> tournament_registry::create(protocol::tournament_settings settings,
                                                        const connection_ptr& director_connection,
                                                        const tournament::player_ptr& director)
{
    protocol::tournament_record record;
    record.settings = std::move(settings);
    record.director = director->info.id;
    record.director_name = director->info.name;
    record.created_ms = server_clock::unix_ms();
    std::shared_ptr<tournament> t;
    {
        std::lock_guard lock{mutex_};
        do { // "t" + 8 random characters, written in place (see player_registry::create)
            record.id = new_short_id(9);
            record.id[0] = 't';
        } while (tournaments_.contains(record.id));
        t = std::make_shared<tournament>(ioc_, std::move(record), context_);
        tournaments_.emplace(t->id(), t);
        order_.push_back(t->id());
    }
    t->open(director_connection, director);
    return t;
}

std::shared_ptr<tournament> tournament_registry::find(const protocol::tournament_id& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = tournaments_.find(id);
    return it == tournaments_.end() ? nullptr : it->second;
}

std::vector<nlohmann::json> tournament_registry::list() const
{
    std::vector<std::shared_ptr<tournament>> all;
    {
        std::lock_guard lock{mutex_};
        for (auto it = order_.rbegin(); it != order_.rend(); ++it) all.push_back(tournaments_.at(*it));
    }
    std::vector<nlohmann::json> summaries;
    summaries.reserve(all.size());
    for (const auto& t : all) summaries.push_back(t->summary());
    return summaries;
}

std::size_t tournament_registry::load(const std::vector<std::string>& stored_documents)
{
    std::size_t unreadable = 0;
    std::vector<std::pair<std::int64_t, std::shared_ptr<tournament>>> loaded;
    for (const auto& text : stored_documents) {
        const auto document = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
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
            context_.players.restore({{person["id"].get<std::string>(), person["name"].get<std::string>()},
                                      person["token"].get<std::string>()});
        }
        const auto created = record->created_ms;
        loaded.emplace_back(created, std::make_shared<tournament>(ioc_, std::move(*record), context_));
    }
    std::sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::lock_guard lock{mutex_};
    for (auto& [created, t] : loaded) {
        tournaments_.emplace(t->id(), t);
        order_.push_back(t->id());
        t->reopen();
    }
    return unreadable;
}

void tournament_registry::release_connections()
{
    std::lock_guard lock{mutex_};
    for (auto& [id, t] : tournaments_) t->release_connections();
}

} // namespace quarto::server
