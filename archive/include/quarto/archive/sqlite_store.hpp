// The archive's SQLite engine (store.hpp): one file, used synchronously from one thread, with
// the schema and its migrations and one prepared statement per query. game_archive runs it on
// its own thread; tests may drive it directly.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "quarto/archive/store.hpp"

namespace quarto::archive {

class sqlite_store final : public store {
public:
    // Creates the parent directory and the file when missing, switches to WAL, and brings the
    // schema to `schema_version`.
    static std::variant<sqlite_store, open_error> open(const std::string& path,
                                                       file_sync sync = file_sync::each_commit);

    ~sqlite_store() override;
    sqlite_store(sqlite_store&&) noexcept;
    sqlite_store& operator=(sqlite_store&&) noexcept;

    const std::string& path() const;
    const std::string& location() const override { return path(); }
    // PRAGMA user_version as found in the file now.
    int version() override;

    std::vector<bool> save_games(std::span<const game_record> records) override;
    archive_result<std::optional<game_record>> find_game(std::string_view id) override;
    archive_result<std::vector<game_record>> games_of_player(std::string_view name, int limit,
                                                             int offset = 0) override;

    bool save_tournament(const stored_tournament& t) override;
    bool delete_tournament(std::string_view id) override;
    archive_result<std::vector<stored_tournament>> load_tournaments() override;
    archive_result<std::optional<stored_tournament>> find_tournament(std::string_view id) override;

    bool save_analysis(const stored_analysis& a) override;
    archive_result<std::optional<stored_analysis>> find_analysis(std::string_view game) override;

    // Accounts, sessions and ratings: accounts_sqlite.cpp.
    archive_result<account_creation> create_account(std::string_view player_id, std::string_view name,
                                                    std::string_view password_hash, std::int64_t now) override;
    archive_result<std::optional<stored_account>> find_account_by_name(std::string_view name) override;
    archive_result<bool> name_is_account(std::string_view name) override;
    archive_result<bool> set_password(std::string_view player_id, std::string_view password_hash,
                                      std::string_view keep_session_hash) override;
    archive_result<bool> add_session(std::string_view id_hash, std::string_view player_id, std::int64_t now) override;
    archive_result<std::optional<std::string>> find_session(std::string_view id_hash, std::int64_t now) override;
    bool end_session(std::string_view id_hash) override;
    bool end_sessions(std::string_view player_id) override;
    archive_result<std::vector<stored_rating>> ratings_of(std::string_view player_id) override;
    archive_result<rated_game_outcome> apply_rated_game(std::string_view game_id, const rating_update& first,
                                                        const rating_update& second, std::int64_t now) override;
    archive_result<bool> delete_account(std::string_view player_id) override;
    archive_result<std::optional<account_export>> export_account(std::string_view player_id) override;
    archive_result<std::optional<stored_account>> find_account(std::string_view player_id) override;
    archive_result<std::optional<player_profile>> find_player(std::string_view name) override;
    archive_result<std::vector<rating_point>> rating_history(std::string_view player_id, rating::pool pool,
                                                             int limit) override;
    archive_result<std::vector<leaderboard_entry>> leaderboard(rating::pool pool, int limit) override;
    archive_result<std::vector<stored_tournament>> tournaments_of_player(std::string_view player_id,
                                                                         int limit) override;

    // Each commit is an fsync (synchronous=FULL), which is what save_games saves.
    std::uint64_t commits() const override;

private:
    struct impl;
    explicit sqlite_store(std::unique_ptr<impl> i);
    std::unique_ptr<impl> impl_;
};

} // namespace quarto::archive
