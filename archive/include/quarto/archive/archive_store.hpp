// The archive's SQLite file, used synchronously from one thread: the schema and its
// migrations, and one prepared statement per query. game_archive runs it on its own thread;
// tests may drive it directly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "quarto/archive/game_record.hpp"

namespace quarto::archive {

// The schema version this build writes (PRAGMA user_version). Older files are migrated on
// open; newer ones are refused.
inline constexpr int schema_version = 5;

// Answers up to this many games per player query.
inline constexpr int max_games_per_query = 100;

// A tournament's stored state. The archive does not read `state`: it is the JSON document the
// tournament code defines, stored and returned as text (only the migration to schema version 3
// rewrote it once, to hash its people's tokens).
struct stored_tournament {
    std::string id;
    std::string name;
    std::string status;
    std::string state;
    friend bool operator==(const stored_tournament&, const stored_tournament&) = default;
};

// A game's analysis as computed once (GET /api/games/{id}/analysis): the document the analysis
// code defines, kept as text, with the version of that code (a newer analysis replaces an older
// one) and whether every value in it is exact.
struct stored_analysis {
    std::string game;
    int version = 0;
    bool exact = false;
    std::string document;
    friend bool operator==(const stored_analysis&, const stored_analysis&) = default;
};

// An answer from the store. `failed`: the database could not answer (the reason has been
// logged) and `value` is empty; otherwise `value` is the answer (an empty optional or list is
// "nothing stored", not a failure).
template <class T>
struct archive_result {
    T value{};
    bool failed = false;
};

struct open_error {
    std::string message;
};

class archive_store {
public:
    // Creates the parent directory and the file when missing, switches to WAL, and brings the
    // schema to `schema_version`.
    static std::variant<archive_store, open_error> open(const std::string& path);

    ~archive_store();
    archive_store(archive_store&&) noexcept;
    archive_store& operator=(archive_store&&) noexcept;

    const std::string& path() const;
    // PRAGMA user_version as found in the file now.
    int version();

    // One transaction for all the games, each game with all its moves or nothing: a game that
    // cannot be stored (e.g. its id is taken) is undone alone and the others are kept. The
    // answer says, by position, which games are stored; failures are logged. If the
    // transaction itself cannot begin or commit, no game is stored.
    std::vector<bool> save_games(std::span<const game_record> records);
    // save_games of one game.
    bool save_game(const game_record& record);
    archive_result<std::optional<game_record>> find_game(std::string_view id);
    // The games `name` played (either seat; ASCII letters compared without case), the most
    // recently finished first; `limit` 1..max_games_per_query.
    archive_result<std::vector<game_record>> games_of_player(std::string_view name, int limit);

    // Insert or replace by id.
    bool save_tournament(const stored_tournament& t);
    // True also when there was none.
    bool delete_tournament(std::string_view id);
    archive_result<std::vector<stored_tournament>> load_tournaments();
    archive_result<std::optional<stored_tournament>> find_tournament(std::string_view id);

    // Insert or replace by game id.
    bool save_analysis(const stored_analysis& a);
    archive_result<std::optional<stored_analysis>> find_analysis(std::string_view game);

    // Write transactions committed since open: each one is an fsync (synchronous=FULL), which
    // is what save_games saves. Unlike the rest, it may be read from any thread.
    std::uint64_t commits() const;

private:
    struct impl;
    explicit archive_store(std::unique_ptr<impl> i);
    std::unique_ptr<impl> impl_;
};

} // namespace quarto::archive
