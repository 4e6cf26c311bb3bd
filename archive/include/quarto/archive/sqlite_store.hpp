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
    archive_result<std::vector<game_record>> games_of_player(std::string_view name, int limit) override;

    bool save_tournament(const stored_tournament& t) override;
    bool delete_tournament(std::string_view id) override;
    archive_result<std::vector<stored_tournament>> load_tournaments() override;
    archive_result<std::optional<stored_tournament>> find_tournament(std::string_view id) override;

    bool save_analysis(const stored_analysis& a) override;
    archive_result<std::optional<stored_analysis>> find_analysis(std::string_view game) override;

    // Each commit is an fsync (synchronous=FULL), which is what save_games saves.
    std::uint64_t commits() const override;

private:
    struct impl;
    explicit sqlite_store(std::unique_ptr<impl> i);
    std::unique_ptr<impl> impl_;
};

} // namespace quarto::archive
