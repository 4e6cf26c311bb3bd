// GET /api/games/{id}/analysis without the HTTP: the analysis cached in the archive, or else the
// game read from the archive, analysed on the worker, stored, and answered. Requests for a game
// whose analysis is already on its way wait for that one instead of starting another.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/analysis_worker.hpp"
#include "quarto/archive/game_archive.hpp"

namespace quarto::server::analysis {

class game_analyses {
public:
    enum class outcome {
        ready,          // `body` is the analysis
        no_such_game,
        archive_failed, // the archive could not be read (logged)
        busy,           // the worker's queue is full
    };
    struct answer {
        outcome result = outcome::ready;
        // The analysis (protocol::game_analysis_json) with "cached": whether it came from the
        // archive rather than from a search made for this request.
        std::string body;
    };
    // Runs on the archive's thread or a worker's: post the answer to your own executor.
    using callback = std::function<void(answer)>;

    game_analyses(archive::game_archive& archive, analysis_worker& worker);

    void find(const std::string& game, callback done);

private:
    void look_up_game(const std::string& game);
    // Answers everyone waiting for `game`.
    void finish(const std::string& game, const answer& a);

    archive::game_archive& archive_;
    analysis_worker& worker_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::vector<callback>> waiting_; // by game, while one is under way
};

} // namespace quarto::server::analysis
