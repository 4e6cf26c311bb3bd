// Every tournament's views by id, for whoever lists or shows tournaments from any thread
// (list_tournaments on every shard, GET /api/tournaments). The tournaments themselves live on
// their shards; a tournament is added here when it is created or loaded, never per message.
// On a node of a cluster, the other nodes' tournaments are listed too: their lines as those
// nodes published them, replaced after each heartbeat (at most about a second late).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "quarto/protocol/messages.hpp"
#include "tournaments/tournament_views.hpp"

namespace quarto::server::shards {

class tournament_directory {
public:
    // Another node's tournament: its line in the list.
    struct remote_entry {
        std::string id;
        std::int64_t created_ms = 0;
        nlohmann::json summary;
    };

    void add(const std::string& id, std::int64_t created_ms, std::shared_ptr<tournaments::tournament_views> views)
    {
        std::lock_guard lock{mutex_};
        local_.try_emplace(id, local_entry{created_ms, ++added_, std::move(views)});
    }
    void remove(const std::string& id)
    {
        std::lock_guard lock{mutex_};
        local_.erase(id);
    }
    std::shared_ptr<const tournaments::tournament_views> find(const std::string& id) const
    {
        std::lock_guard lock{mutex_};
        const auto it = local_.find(id);
        return it == local_.end() ? nullptr : it->second.views;
    }
    // This node's tournament's line and snapshot, as the other nodes are to show them.
    struct published {
        std::int64_t created_ms = 0;
        std::string summary;
        std::string snapshot;
    };
    std::optional<published> publication(const std::string& id) const
    {
        std::shared_ptr<tournaments::tournament_views> views;
        std::int64_t created_ms = 0;
        {
            std::lock_guard lock{mutex_};
            const auto it = local_.find(id);
            if (it == local_.end()) return std::nullopt;
            views = it->second.views;
            created_ms = it->second.created_ms;
        }
        const auto snapshot = views->snapshot();
        return published{created_ms, views->summary().dump(), snapshot ? *snapshot : std::string{}};
    }
    // The other nodes' tournaments, as last read (those of this node's are left out).
    void replace_remote(std::vector<remote_entry> entries)
    {
        std::lock_guard lock{mutex_};
        std::erase_if(entries, [&](const remote_entry& e) { return local_.contains(e.id); });
        remote_ = std::move(entries);
    }
    // One page as list_tournaments shows them, newest first; `total` is how many there are.
    std::vector<nlohmann::json> summaries(const protocol::page_request& page, std::size_t& total) const
    {
        struct line {
            std::int64_t created_ms;
            const std::string* id;
            const local_entry* local;
            const remote_entry* remote;
        };
        std::vector<nlohmann::json> out;
        std::lock_guard lock{mutex_};
        std::vector<line> lines;
        lines.reserve(local_.size() + remote_.size());
        for (const auto& [id, e] : local_) lines.push_back({e.created_ms, &id, &e, nullptr});
        for (const auto& e : remote_) lines.push_back({e.created_ms, &e.id, nullptr, &e});
        total = lines.size();
        const std::size_t skip = std::min(total, static_cast<std::size_t>(page.offset));
        const std::size_t count = std::min(total - skip, static_cast<std::size_t>(page.limit));
        // Newest first; in the same millisecond, this node's latest added first, then by id, so
        // that pages never overlap.
        std::partial_sort(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(skip + count), lines.end(),
                          [](const line& a, const line& b) {
                              if (a.created_ms != b.created_ms) return a.created_ms > b.created_ms;
                              const auto added_a = a.local ? a.local->added : 0, added_b = b.local ? b.local->added : 0;
                              return added_a != added_b ? added_a > added_b : *a.id > *b.id;
                          });
        out.reserve(count);
        for (std::size_t i = skip; i < skip + count; ++i)
            out.push_back(lines[i].local ? lines[i].local->views->summary() : lines[i].remote->summary);
        return out;
    }

private:
    struct local_entry {
        std::int64_t created_ms = 0;
        std::uint64_t added = 0; // the order of adding
        std::shared_ptr<tournaments::tournament_views> views;
    };
    mutable std::mutex mutex_;
    std::unordered_map<std::string, local_entry> local_;
    std::vector<remote_entry> remote_;
    std::uint64_t added_ = 0;
};

} // namespace quarto::server::shards
