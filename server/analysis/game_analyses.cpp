#include "analysis/game_analyses.hpp"

#include <memory>

#include "analysis/game_analysis.hpp"

namespace quarto::server::analysis {
namespace {

// The stored document with "cached" added as its first member (it is always an object).
std::string with_cached(std::string_view document, bool cached)
{
    std::string body = cached ? "{\"cached\":true," : "{\"cached\":false,";
    body.append(document.substr(1));
    return body;
}

} // namespace

game_analyses::game_analyses(archive::game_archive& archive, analysis_worker& worker) : archive_{archive}, worker_{worker}
{
}

void game_analyses::find(const std::string& game, callback done)
{
    {
        std::lock_guard lock{mutex_};
        auto [waiters, first] = waiting_.try_emplace(game);
        waiters->second.push_back(std::move(done));
        if (!first) return; // answered with the analysis already on its way
    }
    archive_.find_analysis(game, [this, game](archive::archive_result<std::optional<archive::stored_analysis>> found) {
        // A cache that cannot be read is no reason to refuse: the game may still be.
        if (!found.failed && found.value && found.value->version == analysis_version)
            return finish(game, {outcome::ready, with_cached(found.value->document, true)});
        look_up_game(game);
    });
}

void game_analyses::look_up_game(const std::string& game)
{
    archive_.find_game(game, [this, game](archive::archive_result<std::optional<archive::game_record>> found) {
        if (found.failed) return finish(game, {outcome::archive_failed, {}});
        if (!found.value) return finish(game, {outcome::no_such_game, {}});
        auto record = std::make_shared<const archive::game_record>(std::move(*found.value));
        const bool queued = worker_.try_submit([this, game, record](analysis_worker::context& c) {
            // The budget starts now, not when the request came: time in the queue is not the
            // search's; nor is making the thread's table on its first search.
            (void)c.solver();
            const auto analysis = analyse_game(c, *record, std::chrono::steady_clock::now() + game_budget);
            std::string document = protocol::game_analysis_json(analysis).dump(
                -1, ' ', false, nlohmann::json::error_handler_t::replace);
            // A search cut short by the shutdown is not what this game's analysis would be.
            if (!c.stopping()) archive_.save_analysis({game, analysis_version, analysis.exact(), document});
            finish(game, {outcome::ready, with_cached(document, false)});
        });
        if (!queued) finish(game, {outcome::busy, {}});
    });
}

void game_analyses::finish(const std::string& game, const answer& a)
{
    std::vector<callback> waiters;
    {
        std::lock_guard lock{mutex_};
        const auto it = waiting_.find(game);
        if (it == waiting_.end()) return;
        waiters = std::move(it->second);
        waiting_.erase(it);
    }
    for (auto& done : waiters) done(a);
}

} // namespace quarto::server::analysis
