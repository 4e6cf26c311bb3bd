#include "timed_bots.hpp"

#include <algorithm>
#include <sstream>
#include <thread>

namespace quarto_test::timed_bots {

namespace {

const quarto::instant no_time{}; // the replicas ignore time: the server judges it

// A tournament bot's room changes with each pairing: the record and the replica start afresh.
void switch_room(bot& b, const std::string& room)
{
    if (b.room == room) return;
    b.room = room;
    b.events.clear();
    b.replica.reset();
    b.replica_seq = 0;
    b.game_seq = 0;
    b.moves_when_sent = SIZE_MAX;
}

// Whether `error` refuses one of two moves the bot sent for the same turn of the same game.
bool is_refused_resend(const bot& b, const json& error)
{
    const std::string code = error.value("code", "");
    if (code != "not_your_turn" && code != "wrong_phase" && code != "piece_unavailable" && code != "square_taken")
        return false;
    if (!error.contains("req") || !error["req"].is_string()) return false;
    const auto refused = b.sent.find(error["req"].get<std::string>());
    if (refused == b.sent.end()) return false;
    return std::count_if(b.sent.begin(), b.sent.end(), [&](const auto& s) { return s.second == refused->second; }) > 1;
}

} // namespace

// What a bot knows, for a failure's message: where its game stands and the last events it got.
std::string describe(const bot& b)
{
    std::ostringstream out;
    out << b.name << " (seat " << b.seat << ", room " << b.room << ", connection "
        << (b.ws->closed() ? "closed" : "open") << ")";
    if (b.replica)
        out << ": replica in phase " << quarto::to_string(b.replica->phase()) << ", turn " << int(b.replica->turn())
            << ", " << b.replica->moves().size() << " moves, acted at " << b.moves_when_sent;
    else
        out << ": no game";
    int shown = 0;
    for (auto it = b.events.rbegin(); it != b.events.rend() && shown < 4; ++it, ++shown)
        out << "\n  seq " << it->first << ": " << it->second;
    return out.str();
}

void rebuild_from_snapshot(bot& b, const json& snapshot)
{
    b.replica.reset();
    b.replica_seq = snapshot["seq"].get<std::uint64_t>();
    b.moves_when_sent = SIZE_MAX;
    if (snapshot["you"].is_object() && snapshot["you"]["seat"].is_number()) b.seat = snapshot["you"]["seat"].get<int>();
    const json& g = snapshot["game"];
    if (g.is_null()) return;
    b.replica.emplace(quarto::rules{}, quarto::clock_settings{std::nullopt, quarto::milliseconds{claim_ms}},
                      g["first"].get<quarto::seat>(), no_time);
    for (const json& m : g["moves"]) {
        const auto by = m["seat"].get<quarto::seat>();
        const std::string type = m["type"];
        quarto::outcome r = quarto::outcome::failure(quarto::action_error::wrong_phase);
        if (type == "give") r = b.replica->give(by, quarto::piece{m["piece"].get<std::uint8_t>()}, no_time);
        else if (type == "place") r = b.replica->place(by, m["square"].get<quarto::square>(), no_time);
        else if (type == "pass") r = b.replica->pass(by, no_time);
        else continue; // a call or a resignation: the game is over, as `result` says
        REQUIRE_MESSAGE(r.ok(), "snapshot move " << m.dump());
    }
    // A game that ended on the server's clock after the events the bot saw (a final claim
    // window that ran out while the bots reconnected): its game_over is older than this
    // snapshot, so the replica ends here, as the room says.
    if (snapshot.value("status", "") == "finished" && !b.replica->finished())
        (void)b.replica->expire(no_time + std::chrono::hours{1});
}

// One message for bot `b`: events go to the record and the replica.
void take(bot& b, const json& m, const std::string& raw, totals& t)
{
    const std::string type = m.value("type", "");
    if (type == "error") {
        // The bots' replicas keep no time: a bot may pass just after the full board's last claim
        // window ran out on the server (game_over follows). Any other refusal is a defect.
        if (m.value("code", "") == "wrong_phase" && m.value("message", "") == "The game is over.") {
            ++t.late_passes;
            return;
        }
        // Nothing was done (another node's room while Redis is out of reach): the bot's move, or
        // its sync, is sent again.
        if (m.value("code", "") == "unavailable") {
            ++t.unavailable;
            b.moves_when_sent = SIZE_MAX;
            b.sync_asked_at = 0;
            b.act_after = steady::now() + milliseconds{100};
            return;
        }
        if (is_refused_resend(b, m)) {
            ++t.resends_refused;
            return;
        }
        ++t.errors;
        MESSAGE(b.name << " got " << raw << "\n" << describe(b));
        return;
    }
    if (type == "room" && m["room"] == b.room) return rebuild_from_snapshot(b, m);
    if (type == "synced" && m.value("room", "") == b.room) b.sync_asked_at = 0;
    if (!m.contains("seq") || m.value("room", "") != b.room || type == "synced") return;
    const auto seq = m["seq"].get<std::uint64_t>();
    const auto [known, added] = b.events.emplace(seq, raw);
    if (!added) {
        CHECK_MESSAGE(known->second == raw, b.name << " seq " << seq << ": " << known->second << " then " << raw);
        ++t.events_compared;
    }
    if (seq <= b.replica_seq) return;
    if (seq > b.replica_seq + 1 && b.replica && type != "game_started") {
        // Events were lost on the way (between nodes, while Redis was out of reach): the sync
        // brings them, and this one again after them.
        ++t.gaps;
        if (b.sync_asked_at != b.replica_seq) {
            b.sync_asked_at = b.replica_seq;
            b.ws->send(action("sync", b.room, {{"since", b.replica_seq}}));
        }
        return;
    }
    b.replica_seq = seq;
    const auto by = m.contains("seat") && m["seat"].is_number() ? m["seat"].get<quarto::seat>() : quarto::seat{0};
    if (type == "game_started") {
        b.replica.emplace(quarto::rules{}, quarto::clock_settings{std::nullopt, quarto::milliseconds{claim_ms}},
                          m["first"].get<quarto::seat>(), no_time);
        b.game_seq = seq;
        b.rematch_asked = false;
        b.moves_when_sent = SIZE_MAX;
    } else if (type == "given") {
        CHECK(b.replica->give(by, quarto::piece{m["piece"].get<std::uint8_t>()}, no_time).ok());
    } else if (type == "placed") {
        CHECK(b.replica->place(by, m["square"].get<quarto::square>(), no_time).ok());
    } else if (type == "passed") {
        CHECK(b.replica->pass(by, no_time).ok());
    } else if (type == "game_over") {
        // The bots never call: the engine fed the same moves has drawn the game too.
        REQUIRE(b.replica);
        CHECK_MESSAGE(m["reason"] == "board_full", raw);
        // A full board's last claim window may have run out on the server's clock (on a loaded
        // machine the bots are slow to pass): the replica's time runs out too.
        if (!b.replica->finished()) (void)b.replica->expire(no_time + std::chrono::hours{1});
        CHECK(b.replica->finished());
        CHECK(b.replica->result() == quarto::game_result{std::nullopt, quarto::end_reason::board_full});
        if (b.seat == 0) ++t.games_finished;
    }
}

void read_all(bot& b, totals& t)
{
    b.ws->poll();
    while (!b.ws->pending().empty()) {
        const std::size_t index = b.ws->history().size() - b.ws->pending().size();
        const std::string raw = b.ws->raw_history()[index];
        const json m = *b.ws->next(in(milliseconds{0}));
        take(b, m, raw, t);
    }
}

// The bot's move, if it is its turn: a random legal give, placement or pass (never a call).
void act(bot& b, std::mt19937& rng, bool rematch)
{
    if (!b.replica || b.ws->closed() || steady::now() < b.act_after) return;
    if (b.replica->finished()) {
        if (rematch && !b.rematch_asked) {
            b.rematch_asked = true;
            b.ws->send(action("rematch", b.room));
        }
        return;
    }
    if (b.replica->turn() != b.seat || b.replica->moves().size() == b.moves_when_sent) return;
    quarto::action_list legal;
    b.replica->legal_actions(legal);
    std::vector<quarto::action> choices;
    for (const auto& a : legal)
        if (a.kind != quarto::move_kind::call) choices.push_back(a);
    REQUIRE_FALSE(choices.empty());
    const auto a = choices[std::uniform_int_distribution<std::size_t>{0, choices.size() - 1}(rng)];
    const std::string req = b.name + "." + std::to_string(b.sent.size() + 1);
    if (a.kind == quarto::move_kind::give) b.ws->send(action("give", b.room, {{"piece", a.value}, {"req", req}}));
    else if (a.kind == quarto::move_kind::place) b.ws->send(action("place", b.room, {{"square", a.value}, {"req", req}}));
    else b.ws->send(action("pass", b.room, {{"req", req}}));
    b.moves_when_sent = b.replica->moves().size();
    b.sent[req] = b.room + "/" + std::to_string(b.game_seq) + "/" + std::to_string(b.moves_when_sent);
    b.act_after = steady::now() + milliseconds{std::uniform_int_distribution<int>{0, 15}(rng)};
}

void run_for(std::vector<bot>& bots, milliseconds d, std::mt19937& rng, totals& t, bool rematch)
{
    const auto until = in(d);
    while (steady::now() < until) {
        for (auto& b : bots) {
            read_all(b, t);
            act(b, rng, rematch);
        }
        std::this_thread::sleep_for(milliseconds{1}); // the bots' think time, not a wait on an event
    }
}

void reconnect(const std::vector<bot*>& bots, unsigned short port, totals& t)
{
    for (bot* x : bots) {
        bot& b = *x;
        b.ws = std::make_unique<ws_client>(port);
        b.ws->send({{"type", "hello"}, {"token", b.token}});
        b.sync_asked_at = 0;
    }
    for (bot* x : bots) {
        bot& b = *x;
        const json welcome = must(b.ws->wait_type("welcome"), "welcome for " + b.name);
        CHECK(welcome["player"] == b.id);
        // The room came back: its snapshot arrives (resume sends one per room).
        const auto snapshot = b.ws->wait_for([&](const json& m) { return m["type"] == "room" && m["room"] == b.room; });
        REQUIRE_MESSAGE(snapshot, b.name << ": room " << b.room << " did not come back");
        rebuild_from_snapshot(b, *snapshot);
        b.ws->send(action("sync", b.room, {{"since", b.game_seq - 1}, {"req", "restart"}}));
    }
    for (bot* x : bots) {
        bot& b = *x;
        std::vector<json> replayed;
        std::vector<std::string> raw;
        for (;;) {
            const auto m = b.ws->next();
            REQUIRE_MESSAGE(m, b.name << ": no synced");
            if ((*m)["type"] == "synced") break;
            replayed.push_back(*m);
            raw.push_back(b.ws->raw_history()[b.ws->history().size() - b.ws->pending().size() - 1]);
        }
        // Into the record (each seq seen before compared); the replica takes only what is newer.
        for (std::size_t i = 0; i < replayed.size(); ++i) take(b, replayed[i], raw[i], t);
        // The clock rule: `resumed` shows the clocks of the last event before it.
        for (std::size_t i = 0; i < replayed.size(); ++i) {
            if (replayed[i]["type"] != "resumed" || replayed[i]["status"] != "playing") continue;
            const json& now = replayed[i];
            if (now["claim"].is_object()) ++t.claim_windows_at_restart;
            bool events_between = false; // events without a clock (a connection, a watcher) came after it
            for (std::size_t j = i; j-- > 0; events_between = true) {
                const json& before = replayed[j];
                if (!before.contains("clock")) continue;
                REQUIRE(before["clock"]["running"] == now["clock"]["running"]);
                if (now["clock"]["running"].is_null()) break; // nobody's clock runs (the final window)
                const auto mover = now["clock"]["running"].get<int>();
                const auto was = before["clock"]["remaining_ms"][mover].get<std::int64_t>();
                const auto is = now["clock"]["remaining_ms"][mover].get<std::int64_t>();
                if (events_between) {
                    // The rule counts the time up to the last event, whose time these events do
                    // not show: the clock has not gone back, nor lost more than they could span.
                    CHECK_MESSAGE(was - is >= -clock_tolerance_ms, before.dump() << " / " << now.dump());
                    CHECK_MESSAGE(was - is <= 2'000, before.dump() << " / " << now.dump());
                } else {
                    CHECK_MESSAGE(std::abs(was - is) <= clock_tolerance_ms, before.dump() << " / " << now.dump());
                }
                if (before.contains("claim") && before["claim"].is_object() && now["claim"].is_object()) {
                    const auto claim_was = before["claim"]["remaining_ms"].get<std::int64_t>();
                    const auto claim_is = now["claim"]["remaining_ms"].get<std::int64_t>();
                    // As for the move clock: events between may span time the window has used.
                    if (events_between) CHECK(claim_was - claim_is >= -clock_tolerance_ms);
                    else CHECK(std::abs(claim_was - claim_is) <= clock_tolerance_ms);
                }
                ++t.clocks_compared;
                break;
            }
        }
    }
}





void read_tournament(bot& b, totals& t, tournament_watch& w)
{
    b.ws->poll();
    while (!b.ws->pending().empty()) {
        const std::size_t index = b.ws->history().size() - b.ws->pending().size();
        const std::string raw = b.ws->raw_history()[index];
        const json m = *b.ws->next(in(milliseconds{0}));
        const std::string type = m.value("type", "");
        if (m.contains("room") && m["room"].is_string() && type != "given" && type != "placed" && type != "passed")
            w.seen[m["room"].get<std::string>()] += b.name + ":" + type + (type == "room" ? "/" + m.value("status", "") : "") + " ";
        if (type == "tournament_pairing") {
            switch_room(b, m["room"]);
        } else if (type == "room" && m["tournament"].is_string() && m["status"] == "playing") {
            switch_room(b, m["room"]); // a game begun while the bot was away
        } else if (type == "tournament") {
            continue;
        } else if (type == "game_over") {
            // Of any room of the bot's: after a restart its sync may bring the end of a game
            // it has already moved on from.
            w.game_ids[m["room"].get<std::string>()] = m["game"].get<std::string>();
        } else if (type == "room" && m["status"] == "finished" && m["game"].is_object() && m["game"].contains("id")) {
            // A game whose game_over was committed but not yet delivered when the server was
            // killed, while the next round's pairing (sent without waiting for the journal) had
            // already moved the bot on: the resume's snapshot of that room says how it ended.
            w.game_ids[m["room"].get<std::string>()] = m["game"]["id"].get<std::string>();
        }
        if (!b.room.empty()) w.rooms.insert(b.room);
        take(b, m, raw, t);
    }
}

// The server's log lines that name `what`: a failure's story.
std::string lines_about(const std::string& what, const std::string& log)
{
    std::istringstream in{log};
    std::string line, found;
    while (std::getline(in, line))
        if (line.find(what) != std::string::npos || line.find("listening on") != std::string::npos) found += line + '\n';
    return found;
}

void read_director(ws_client& director, tournament_watch& w)
{
    director.poll();
    while (!director.pending().empty()) {
        const json m = *director.next(in(milliseconds{0}));
        if (m.value("type", "") != "tournament") continue;
        if (m["status"] == "paused") ++w.paused_seen;
        w.last = m;
    }
}

void run_tournament_for(std::vector<bot>& bots, ws_client& director, milliseconds d, std::mt19937& rng, totals& t,
                        tournament_watch& w)
{
    const auto until = in(d);
    while (steady::now() < until && w.last.value("status", "") != "finished") {
        for (auto& b : bots) {
            read_tournament(b, t, w);
            act(b, rng, /*rematch=*/false);
        }
        read_director(director, w);
        std::this_thread::sleep_for(milliseconds{1});
    }
}

} // namespace quarto_test::timed_bots
