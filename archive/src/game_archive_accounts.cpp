// game_archive's requests about accounts, sessions, ratings and profiles: each runs the store's
// call on the archive thread and answers through its callback there (game_archive.hpp).
#include "quarto/archive/game_archive.hpp"

#include <spdlog/spdlog.h>

namespace quarto::archive {

void game_archive::create_account(std::string player_id, std::string name, std::string password_hash, std::int64_t now,
                                  callback<account_creation> done)
{
    if (!enqueue([=](store& s) { done(s.create_account(player_id, name, password_hash, now)); })) done({{}, true});
}

void game_archive::find_account_by_name(std::string name, callback<std::optional<stored_account>> done)
{
    if (!enqueue([name = std::move(name), done](store& s) { done(s.find_account_by_name(name)); })) done({{}, true});
}

void game_archive::name_is_account(std::string name, callback<bool> done)
{
    if (!enqueue([name = std::move(name), done](store& s) { done(s.name_is_account(name)); })) done({{}, true});
}

void game_archive::set_password(std::string player_id, std::string password_hash, std::string keep_session_hash,
                                callback<bool> done)
{
    if (!enqueue([=](store& s) { done(s.set_password(player_id, password_hash, keep_session_hash)); })) done({{}, true});
}

void game_archive::add_session(std::string id_hash, std::string player_id, std::int64_t now, callback<bool> done)
{
    if (!enqueue([=](store& s) { done(s.add_session(id_hash, player_id, now)); })) done({{}, true});
}

void game_archive::find_session(std::string id_hash, std::int64_t now, callback<std::optional<std::string>> done)
{
    if (!enqueue([=](store& s) { done(s.find_session(id_hash, now)); })) done({{}, true});
}

void game_archive::end_session(std::string id_hash, std::function<void(bool)> done)
{
    if (!enqueue([=](store& s) {
            const bool ended = s.end_session(id_hash);
            if (done) done(ended);
        })) {
        spdlog::error("archive {}: closed; a session not ended", path_);
        if (done) done(false);
    }
}

void game_archive::end_sessions(std::string player_id, std::function<void(bool)> done)
{
    const std::string shown = player_id;
    if (!enqueue([=](store& s) {
            const bool ended = s.end_sessions(player_id);
            if (done) done(ended);
        })) {
        spdlog::error("archive {}: closed; the sessions of player {} not ended", path_, shown);
        if (done) done(false);
    }
}

void game_archive::ratings_of(std::string player_id, callback<std::vector<stored_rating>> done)
{
    if (!enqueue([player_id = std::move(player_id), done](store& s) { done(s.ratings_of(player_id)); })) done({{}, true});
}

void game_archive::apply_rated_game(std::string game_id, rating_update first, rating_update second, std::int64_t now,
                                    callback<rated_game_outcome> done)
{
    const std::string shown = game_id;
    if (!enqueue([=](store& s) { done(s.apply_rated_game(game_id, first, second, now)); })) {
        spdlog::error("archive {}: closed; the ratings of game {} not applied", path_, shown);
        done({{}, true});
    }
}

void game_archive::delete_account(std::string player_id, callback<bool> done)
{
    if (!enqueue([player_id = std::move(player_id), done](store& s) { done(s.delete_account(player_id)); })) done({{}, true});
}

void game_archive::export_account(std::string player_id, callback<std::optional<account_export>> done)
{
    if (!enqueue([player_id = std::move(player_id), done](store& s) { done(s.export_account(player_id)); })) done({{}, true});
}

void game_archive::find_account(std::string player_id, callback<std::optional<stored_account>> done)
{
    if (!enqueue([player_id = std::move(player_id), done](store& s) { done(s.find_account(player_id)); })) done({{}, true});
}

void game_archive::find_player(std::string name, callback<std::optional<player_profile>> done)
{
    if (!enqueue([name = std::move(name), done](store& s) { done(s.find_player(name)); })) done({{}, true});
}

void game_archive::rating_history(std::string player_id, rating::pool pool, int limit,
                                  callback<std::vector<rating_point>> done)
{
    if (!enqueue([=](store& s) { done(s.rating_history(player_id, pool, limit)); })) done({{}, true});
}

void game_archive::leaderboard(rating::pool pool, int limit, callback<std::vector<leaderboard_entry>> done)
{
    if (!enqueue([=](store& s) { done(s.leaderboard(pool, limit)); })) done({{}, true});
}

void game_archive::tournaments_of_player(std::string player_id, int limit, callback<std::vector<stored_tournament>> done)
{
    if (!enqueue([=](store& s) { done(s.tournaments_of_player(player_id, limit)); })) done({{}, true});
}

} // namespace quarto::archive
