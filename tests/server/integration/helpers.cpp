// Test vocabulary; see helpers.hpp.
#include "helpers.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <sqlite3.h>

#include "quarto/core/board.hpp"
#include "quarto/core/rules.hpp"

namespace quarto_test {

json must(std::optional<json> message, const std::string& what)
{
    if (!message) FAIL("timed out (or closed) waiting for " << what);
    return *message;
}

header_list websocket_upgrade(const header_list& extra)
{
    header_list headers{{"Connection", "Upgrade"},
                        {"Upgrade", "websocket"},
                        {"Sec-WebSocket-Version", "13"},
                        {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};
    headers.insert(headers.end(), extra.begin(), extra.end());
    return headers;
}

json hello(ws_client& ws, const std::string& name)
{
    ws.send({{"type", "hello"}, {"name", name}});
    json welcome = must(ws.wait_for([](json m) {
        return m.value("type", "") == "welcome" || m.value("type", "") == "error";
    }), "welcome");
    REQUIRE_MESSAGE(welcome["type"] == "welcome", welcome.dump());
    return welcome;
}

player connect_player(const server_process& server, const std::string& name)
{
    player p;
    p.ws = std::make_unique<ws_client>(server.port());
    json welcome = hello(*p.ws, name);
    p.id = welcome.at("player");
    p.token = welcome.at("token").get<std::string>();
    p.name = name;
    return p;
}

namespace {
bool is(const json& m, const char* type)
{
    return m.is_object() && m.value("type", "") == type;
}
json await_or_error(ws_client& ws, const std::string& type, steady::time_point deadline)
{
    std::optional<json> got = ws.wait_for([&](const json& x) { return is(x, type.c_str()) || is(x, "error"); },
                                          deadline);
    if (!got) {
        std::string recent;
        const auto& h = ws.history();
        for (std::size_t i = h.size() > 4 ? h.size() - 4 : 0; i < h.size(); ++i) recent += "\n  " + h[i].dump();
        FAIL("timed out waiting for " << type << (ws.closed() ? " (closed: " + ws.close_error() + ")" : "")
                                      << "; last received:" << recent);
    }
    json m = *got;
    REQUIRE_MESSAGE(m["type"] == type, "awaited " << type << ", got " << m.dump());
    return m;
}
} // namespace

json create_room(ws_client& ws, const json& options, json* snapshot)
{
    json message = options;
    message["type"] = "create_room";
    ws.send(message);
    json created = await_or_error(ws, "room_created", in(default_wait));
    json room = created.at("room");
    json snap = await_or_error(ws, "room", in(default_wait));
    CHECK(snap["room"] == room);
    if (snapshot) *snapshot = snap;
    return room;
}

json join(ws_client& ws, const json& room, const std::string& as)
{
    ws.send({{"type", "join"}, {"room", room}, {"as", as}});
    json snap = await_or_error(ws, "room", in(default_wait));
    CHECK(snap["room"] == room);
    return snap;
}

json action(const std::string& type, const json& room, json fields)
{
    fields["type"] = type;
    fields["room"] = room;
    return fields;
}

std::vector<ws_client*> duel::everyone()
{
    std::vector<ws_client*> all{creator.ws.get(), joiner.ws.get()};
    for (auto& w : watchers) all.push_back(w.ws.get());
    return all;
}

void duel::act(int seat, const std::string& type, json fields, const json& req)
{
    json message = action(type, room, std::move(fields));
    if (!req.is_null()) message["req"] = req;
    REQUIRE(by_seat(seat)->send(message));
}

json duel::expect_all(const std::string& type, steady::time_point deadline)
{
    json first_seen;
    for (ws_client* ws : everyone()) {
        json m = await_or_error(*ws, type, deadline);
        CHECK(m["room"] == room);
        if (first_seen.is_null())
            first_seen = m;
        else
            CHECK_MESSAGE(m == first_seen, "every recipient gets the same event");
    }
    return first_seen;
}

duel start_duel(const server_process& server, const json& options, int spectators)
{
    duel d;
    d.options = options;
    d.creator = connect_player(server, "Ann");
    d.room = create_room(*d.creator.ws, options);
    for (int i = 0; i < spectators; ++i) {
        player w = connect_player(server, "Watcher" + std::to_string(i));
        join(*w.ws, d.room, "spectator");
        d.watchers.push_back(std::move(w));
    }
    d.joiner = connect_player(server, "Bob");
    join(*d.joiner.ws, d.room, "player");
    d.started = d.expect_all("game_started");
    d.first = d.started.at("first").get<int>();
    REQUIRE((d.first == 0 || d.first == 1));
    return d;
}

int play(duel& d, int giver, const std::vector<step>& steps)
{
    int placer = giver;
    for (const step& s : steps) {
        d.act(giver, "give", {{"piece", s.piece}});
        json given = d.expect_all("given");
        CHECK(given["seat"] == giver);
        CHECK(given["piece"] == s.piece);
        // The receiver's move (place, then give or call) starts with the give.
        CHECK(given["clock"]["running"] == 1 - giver);
        CHECK(given["clock"]["remaining_ms"].size() == 2);
        placer = 1 - giver;
        d.act(placer, "place", {{"square", s.square}});
        json placed = d.expect_all("placed");
        CHECK(placed["seat"] == placer);
        CHECK(placed["square"] == s.square);
        CHECK(placed["piece"] == s.piece);
        CHECK(placed["clock"]["running"] == placer); // the same move goes on
        giver = placer;
    }
    return placer;
}

std::array<int, 16> drawn_board()
{
    const quarto::rules standard{};
    std::array<int, 16> cells{};
    quarto::board b;
    std::uint16_t used = 0;
    // Backtracking over squares 0..15; each completed line must not be aligned.
    auto fill = [&](auto& self, int sq) -> bool {
        if (sq == 16) return true;
        for (int p = 0; p < 16; ++p) {
            if (used & (1u << p)) continue;
            quarto::board next = b;
            next.put(static_cast<quarto::square>(sq), quarto::piece{static_cast<std::uint8_t>(p)});
            bool ok = true;
            for (quarto::square_mask pattern : standard.winning_patterns())
                if ((pattern & quarto::bit(static_cast<quarto::square>(sq))) &&
                    next.aligned(pattern, standard.attributes))
                    ok = false;
            if (!ok) continue;
            const quarto::board saved = b;
            b = next;
            used = static_cast<std::uint16_t>(used | (1u << p));
            cells[static_cast<std::size_t>(sq)] = p;
            if (self(self, sq + 1)) return true;
            b = saved;
            used = static_cast<std::uint16_t>(used & ~(1u << p));
        }
        return false;
    };
    REQUIRE(fill(fill, 0));
    return cells;
}

int check_seq(const std::vector<json>& history, const json& room)
{
    std::optional<long long> last;
    int checked = 0;
    for (json m : history) {
        if (!m.is_object() || !m.contains("seq") || m.value("room", json{}) != room) continue;
        const std::string type = m.value("type", "");
        if (type == "synced") continue;
        REQUIRE_MESSAGE(m["seq"].is_number_integer(), m.dump());
        const long long seq = m["seq"].get<long long>();
        if (type == "room") {
            if (last) CHECK_MESSAGE(seq >= *last, "snapshot seq went back: " << m.dump());
        } else {
            if (last) CHECK_MESSAGE(seq == *last + 1, "after seq " << *last << " got " << m.dump());
            ++checked;
        }
        last = seq;
    }
    return checked;
}

std::vector<int> sorted_line(const json& line)
{
    std::vector<int> out;
    if (!line.is_array()) return out;
    for (json s : line) out.push_back(s.get<int>());
    std::sort(out.begin(), out.end());
    return out;
}

std::filesystem::path scratch_file(const std::string& name)
{
    struct process_dir {
        std::filesystem::path path;
        process_dir()
        {
            std::string pattern = (std::filesystem::temp_directory_path() / "quarto-server-tests-XXXXXX").string();
            if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
            path = pattern;
        }
        ~process_dir()
        {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const process_dir dir;
    const auto path = dir.path / name;
    for (const auto* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
    return path;
}

void exec_sql(const std::string& db, const std::string& sql)
{
    sqlite3* handle = nullptr;
    REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
    sqlite3_busy_timeout(handle, 5000);
    char* error = nullptr;
    const int rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(handle);
    REQUIRE_MESSAGE(rc == SQLITE_OK, message);
}

} // namespace quarto_test
