// game_archive: the store on its own thread. Saves and lookups are queued and answered on the
// archive thread; saves that queued up together share a transaction; close() writes everything
// queued before it returns.
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "quarto/archive/game_archive.hpp"
#include "support.hpp"

using namespace quarto;
using namespace quarto::archive;
using namespace archive_tests;

namespace {

std::unique_ptr<game_archive> open_archive(const std::string& path)
{
    auto opened = game_archive::open(path);
    if (const auto* e = std::get_if<open_error>(&opened)) FAIL("open " << path << ": " << e->message);
    return std::move(std::get<std::unique_ptr<game_archive>>(opened));
}

// The answer a callback received, and the thread it ran on.
// "q7": built by appending, since g++ 12 -O2 reports a false -Wrestrict on "q" + std::string.
std::string numbered(std::string prefix, int i)
{
    prefix += std::to_string(i);
    return prefix;
}

template <class T>
struct answer {
    archive_result<T> result;
    std::thread::id thread;
};

template <class T>
answer<T> await(std::future<answer<T>>& f)
{
    REQUIRE(f.wait_for(std::chrono::seconds{10}) == std::future_status::ready);
    return f.get();
}

// Keeps the archive thread inside a lookup's callback until release(), so that the requests
// made meanwhile queue up behind it.
class held_thread {
public:
    explicit held_thread(game_archive& archive)
    {
        archive.find_tournament("hold", [released = release_.get_future().share()](auto) { released.wait(); });
    }
    ~held_thread() { release(); } // also when a REQUIRE failed: the archive's close must not hang
    held_thread(const held_thread&) = delete;
    held_thread& operator=(const held_thread&) = delete;
    void release()
    {
        if (released_) return;
        released_ = true;
        release_.set_value();
    }

private:
    std::promise<void> release_;
    bool released_ = false;
};

} // namespace

TEST_CASE("saves and lookups run on the archive thread and answer through their callbacks")
{
    scratch_dir dir;
    auto archive = open_archive(dir.file("quarto.db"));
    const game_record played = quarto_game("t1");

    std::promise<bool> stored;
    archive->save_game(played, [&](bool ok) { stored.set_value(ok); });
    auto stored_future = stored.get_future();
    REQUIRE(stored_future.wait_for(std::chrono::seconds{10}) == std::future_status::ready);
    CHECK(stored_future.get());

    std::promise<answer<std::optional<game_record>>> found;
    archive->find_game("t1", [&](auto r) { found.set_value({std::move(r), std::this_thread::get_id()}); });
    auto f = found.get_future();
    const auto a = await(f);
    CHECK(a.thread != std::this_thread::get_id());
    CHECK_FALSE(a.result.failed);
    REQUIRE(a.result.value.has_value());
    CHECK(*a.result.value == played);

    std::promise<answer<std::vector<game_record>>> listed;
    archive->games_of_player("bo", 10, [&](auto r) { listed.set_value({std::move(r), std::this_thread::get_id()}); });
    auto l = listed.get_future();
    const auto list = await(l);
    REQUIRE(list.result.value.size() == 1);
    CHECK(list.result.value[0].id == "t1");

    std::promise<answer<std::optional<game_record>>> missing;
    archive->find_game("none", [&](auto r) { missing.set_value({std::move(r), std::this_thread::get_id()}); });
    auto m = missing.get_future();
    const auto none = await(m);
    CHECK_FALSE(none.result.failed);
    CHECK_FALSE(none.result.value.has_value());
}

TEST_CASE("a duplicate id is reported to the saver as not stored")
{
    scratch_dir dir;
    auto archive = open_archive(dir.file("quarto.db"));
    std::promise<bool> first, second;
    archive->save_game(quarto_game("dup"), [&](bool ok) { first.set_value(ok); });
    archive->save_game(resigned_game("dup"), [&](bool ok) { second.set_value(ok); });
    CHECK(first.get_future().get());
    CHECK_FALSE(second.get_future().get());
}

TEST_CASE("close writes every queued game before it returns - later requests are refused")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    auto archive = open_archive(path);
    constexpr int games = 25;
    for (int i = 0; i < games; ++i) archive->save_game(quarto_game(numbered("q", i)));
    archive->close();
    CHECK(sql_text(path, "SELECT count(*) FROM games") == std::to_string(games));
    CHECK(sql_text(path, "SELECT sum(json_array_length(moves)) FROM games") == std::to_string(games * 9));

    std::optional<bool> refused;
    archive->save_game(quarto_game("late"), [&](bool ok) { refused = ok; });
    CHECK(refused == std::optional{false}); // answered at once, on the caller's thread
    std::optional<bool> lookup_failed;
    archive->find_game("q0", [&](auto r) { lookup_failed = r.failed; });
    CHECK(lookup_failed == std::optional{true});
    archive->close(); // idempotent
    CHECK(sql_text(path, "SELECT count(*) FROM games WHERE id = 'late'") == "0");
}

TEST_CASE("flush waits for what was queued before it")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    auto archive = open_archive(path);
    // Hold the archive thread inside a callback so that the saves queue up behind it.
    std::mutex m;
    std::condition_variable cv;
    bool release = false;
    archive->find_tournament("x", [&](auto) {
        std::unique_lock lock{m};
        cv.wait(lock, [&] { return release; });
    });
    for (int i = 0; i < 5; ++i) archive->save_game(quarto_game(numbered("f", i)));
    CHECK(sql_text(path, "SELECT count(*) FROM games") == "0"); // nothing written yet
    std::thread releaser{[&] {
        std::lock_guard lock{m};
        release = true;
        cv.notify_all();
    }};
    archive->flush();
    releaser.join();
    CHECK(sql_text(path, "SELECT count(*) FROM games") == "5");
}

TEST_CASE("tournament storage through the archive thread - load_tournaments is synchronous")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    {
        auto archive = open_archive(path);
        archive->save_tournament("cup", "Cup", "registering", R"({"players":["Ann"]})");
        archive->save_tournament("cup", "Cup", "running", R"({"players":["Ann","Bo"],"round":1})");
        std::promise<bool> saved;
        archive->save_tournament("open", "Open", "done", R"({"winner":"Bo"})", [&](bool ok) { saved.set_value(ok); });
        CHECK(saved.get_future().get());
        const auto loaded = archive->load_tournaments();
        REQUIRE_FALSE(loaded.failed);
        REQUIRE(loaded.value.size() == 2);
        CHECK(loaded.value[0] == stored_tournament{"cup", "Cup", "running", R"({"players":["Ann","Bo"],"round":1})"});
    }
    // After a restart (a new archive on the same file) the state is there, before anything else.
    auto archive = open_archive(path);
    const auto loaded = archive->load_tournaments();
    REQUIRE(loaded.value.size() == 2);
    CHECK(loaded.value[1].state == R"({"winner":"Bo"})");
    std::promise<std::optional<stored_tournament>> found;
    archive->find_tournament("open", [&](auto r) { found.set_value(r.value); });
    const auto t = found.get_future().get();
    REQUIRE(t.has_value());
    CHECK(t->status == "done");
}

TEST_CASE("games saved while the archive thread is busy are committed together - each learns its fate once readable")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    auto archive = open_archive(path);
    constexpr int games = 200;
    // What each done saw: its answer, and whether its game could be read from another connection.
    std::vector<std::pair<bool, std::string>> seen;
    std::optional<game_record> looked_up;
    {
        held_thread held{*archive};
        for (int i = 0; i < games; ++i) {
            const std::string id = numbered("b", i);
            std::string count_it = "SELECT count(*) FROM games WHERE id = '";
            count_it += id;
            count_it += "'";
            archive->save_game(quarto_game(id), [&seen, &path, count_it](bool ok) {
                seen.emplace_back(ok, sql_text(path, count_it));
            });
        }
        // A lookup queued after the saves sees them stored.
        archive->find_game(numbered("b", games - 1), [&](auto r) { looked_up = r.value; });
        CHECK(sql_text(path, "SELECT count(*) FROM games") == "0"); // all still queued
    }
    archive->flush();
    // The held lookup may have taken some saves along when it was dequeued: at most two batches.
    CHECK(archive->commits() >= 1);
    CHECK(archive->commits() <= 2);
    CHECK(sql_text(path, "SELECT count(*) FROM games") == std::to_string(games));
    REQUIRE(seen.size() == games);
    for (const auto& [ok, readable] : seen) {
        CHECK(ok);
        CHECK(readable == "1");
    }
    REQUIRE(looked_up.has_value());
    CHECK(looked_up->id == numbered("b", games - 1));
}

TEST_CASE("a game refused in a batch fails alone: the games around it are stored and say so")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    auto archive = open_archive(path);
    std::vector<std::pair<std::string, bool>> answers;
    const auto record_answer = [&](std::string id) { return [&answers, id](bool ok) { answers.emplace_back(id, ok); }; };
    {
        held_thread held{*archive};
        archive->save_game(quarto_game("d1"), record_answer("d1"));
        archive->save_game(resigned_game("d1"), record_answer("d1 again"));
        archive->save_game(quarto_game("d2"), record_answer("d2"));
    }
    archive->flush();
    CHECK(answers == std::vector<std::pair<std::string, bool>>{{"d1", true}, {"d1 again", false}, {"d2", true}});
    CHECK(archive->commits() <= 2);
    CHECK(sql_text(path, "SELECT group_concat(id || ':' || reason, ' ') FROM (SELECT * FROM games ORDER BY seq)") ==
          "d1:quarto d2:quarto");
    CHECK(sql_text(path, "SELECT sum(json_array_length(moves)) FROM games") == "18");
}

TEST_CASE("a long run of queued saves is split into transactions of at most max_games_per_commit")
{
    scratch_dir dir;
    const std::string path = dir.file("quarto.db");
    auto archive = open_archive(path);
    constexpr int games = 2 * static_cast<int>(max_games_per_commit) + 88;
    {
        held_thread held{*archive};
        for (int i = 0; i < games; ++i) archive->save_game(quarto_game(numbered("s", i)));
    }
    archive->flush();
    // Three full-size batches at least; one more if the held lookup took some saves along.
    CHECK(archive->commits() >= 3);
    CHECK(archive->commits() <= 4);
    CHECK(sql_text(path, "SELECT count(*) FROM games") == std::to_string(games));
}
