// The archive's PostgreSQL engine (store.hpp), through libpq: one connection, used
// synchronously from one thread, with the same schema versions as the SQLite file (the
// version in the table quarto_schema) and one prepared statement per query. A connection that
// broke (the server restarted) is opened again and the request carried out on the new one;
// only a transaction cut in the middle fails (logged), as a write to a full disk does.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "quarto/archive/store.hpp"

namespace quarto::archive {

class postgres_store final : public store {
public:
    // `address`: a libpq connection URI (postgresql://user:password@host:port/database?…).
    // Creates the tables in an empty database and migrates an older schema; a newer one is
    // refused.
    // `node`: see open_store.
    static std::variant<std::unique_ptr<postgres_store>, open_error> open(const std::string& address,
                                                                         const std::string& node = {});

    ~postgres_store() override;
    postgres_store(const postgres_store&) = delete;
    postgres_store& operator=(const postgres_store&) = delete;

    // The address without its password.
    const std::string& location() const override;
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

    // Accounts, sessions and ratings: accounts_postgres.cpp.
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

    std::uint64_t commits() const override;

private:
    struct impl;
    explicit postgres_store(std::unique_ptr<impl> i);
    std::unique_ptr<impl> impl_;
};

// `address` with the password (if any) shown as ***: what logs and errors may carry.
std::string without_password(std::string_view address);

} // namespace quarto::archive
